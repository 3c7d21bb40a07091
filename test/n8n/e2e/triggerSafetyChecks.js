'use strict';
/**
 * The Recruiting Trigger beside other workflows, test runs and hostile senders, inside a real n8n
 * (single process or queue mode): what issue #12 asks the trigger to survive. Every count of
 * executions is read back through n8n's public executions API.
 */
const assert = require('assert');
const crypto = require('crypto');
const { Webhook: Signer } = require('standardwebhooks');
const lib = require('../../../scripts/e2e/lib');
const { waitFor, executionsOf, nodeItems, sleep } = lib;
const { recruitingTrigger, triggerWorkflow } = require('../../../scripts/n8n/workflow');

const EVENTS = ['application.created', 'application.stage.updated', 'candidate.updated', 'job.created'];
/** How long nothing must happen before "no execution" is believed (queue mode adds a hop). */
const QUIET_MS = 2500;

/** Polls the sandbox until wh_demo satisfies `test`. */
async function webhookWhen(control, what, test, id = 'wh_demo') {
	return await waitFor(what, async () => {
		const now = await control.record('webhooks', id);
		return test(now) && now;
	});
}

function sameWebhook(actual, original) {
	for (const key of ['endpoint', 'subscribed_events', 'name', 'description', 'status', 'signing_key']) {
		assert.deepStrictEqual(actual[key], original[key], `${key} differs from the original`);
	}
}

/** A delivery signed with `key`, as the service would send it. */
function signedDelivery(key, options) {
	return lib.signedDelivery(new Signer(key), options);
}

async function post(url, { body, headers }) {
	const res = await fetch(url, { method: 'POST', headers, body });
	return { status: res.status, text: await res.text() };
}

/** Creates and activates a trigger workflow; resolves once wh_demo points at it. */
async function activeTrigger(n8n, control, credential, opts, created = []) {
	const { workflow, productionUrl } = triggerWorkflow(credential, opts);
	const wf = await n8n.api('POST', '/workflows', workflow);
	created.push(wf);
	const url = productionUrl(n8n.webhookUrl);
	const r = await n8n.api('POST', `/workflows/${wf.id}/activate`, undefined, { raw: true });
	assert.ok(r.status < 400, `activation answered ${r.status}: ${JSON.stringify(r.body)}`);
	await webhookWhen(control, `wh_demo to point at ${url}`, (w) => w.endpoint === url);
	return { wf, url };
}

async function deactivate(n8n, wf) {
	await n8n.api('POST', `/workflows/${wf.id}/deactivate`, undefined, { raw: true });
}

/** Our refusal texts, in whichever wrapping n8n reports them. */
const REFUSAL = /Webhook \\?"[^"\\]+\\?" (?:points at|is in use by|is disabled|was not found)/;

/** Where n8n reports a failed activation: the answer (1.x), the publication status or activation error (2.x), else its log. */
async function activationErrorText(n8n, wf, logFile, logOffset) {
	const fs = require('fs');
	const reported = async (p) => {
		const r = await n8n.rest('GET', p, undefined, { raw: true });
		return r.status < 400 ? JSON.stringify(r.body) : '';
	};
	return await waitFor(
		'the activation error',
		async () => {
			for (const p of [`/workflows/${wf.id}/publication-status`, `/active-workflows/error/${wf.id}`]) {
				const text = await reported(p).catch(() => '');
				if (REFUSAL.test(text)) return text;
			}
			const log = logFile && fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(logOffset) : '';
			const line = log.split('\n').find((l) => REFUSAL.test(l));
			return line ? `(n8n log) ${line}` : false;
		},
		// 2.x's publication worker takes ~15 s to give up on a trigger that refuses.
		{ timeoutMs: 60000, intervalMs: 500 },
	);
}

/**
 * Activation that must fail: returns the error text n8n reports for it. 1.x answers the activate
 * call with the error; 2.x publishes first and activates a moment later, reporting the error in
 * the workflow's publication status. Either way the workflow is deactivated again afterwards.
 */
async function refusedActivation(n8n, wf) {
	const fs = require('fs');
	const logFile = n8n.logFile || n8n.processes?.main?.logFile;
	const logOffset = logFile && fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
	const r = await n8n.api('POST', `/workflows/${wf.id}/activate`, undefined, { raw: true });
	const answered = JSON.stringify(r.body);
	const text = r.status >= 400 && REFUSAL.test(answered) ? answered : await activationErrorText(n8n, wf, logFile, logOffset);
	await deactivate(n8n, wf);
	return text;
}

/** Runs `fn` with a list to register workflows in; deactivates them all afterwards, whatever happened. */
async function withWorkflows(n8n, fn) {
	const created = [];
	try {
		return await fn(created);
	} finally {
		for (const wf of created.reverse()) {
			if (wf.cancelTest) await n8n.rest('DELETE', `/test-webhooks/${wf.id}`, undefined, { raw: true }).catch(() => undefined);
			else await deactivate(n8n, wf).catch(() => undefined);
		}
	}
}

async function countStays(n8n, wfId, before, what) {
	await sleep(QUIET_MS);
	const after = await executionsOf(n8n, wfId);
	assert.strictEqual(after.length, before, `${what} started an execution (${after.length} vs ${before}): ${after.map((e) => e.status).join(', ')}`);
}

async function newExecution(n8n, wfId, before, predicate = () => true) {
	return await waitFor(
		'the execution',
		async () => {
			const list = await executionsOf(n8n, wfId);
			const failed = list.find((e) => ['error', 'crashed'].includes(e.status));
			if (failed) throw new Error(`execution ${failed.id} ${failed.status}`);
			return list.length > before && list.filter((e) => e.status === 'success').length > before && list.find(predicate);
		},
		{ timeoutMs: 45000 },
	);
}

/**
 * @param opts.queue  queue mode: the test-listen checks are left out (n8n's main process serves those)
 */
async function triggerSafetyChecks(checks, n8n, sb, credential, { queue = false } = {}) {
	const { control } = sb;
	const original = await control.record('webhooks', 'wh_demo');

	await checks.check('trigger: two workflows on one webhook -> the second refused naming the first workflow, its URL and what to do; the first still delivers; restored exactly after both deactivate', async () => {
		await withWorkflows(n8n, async (created) => {
			const first = await activeTrigger(n8n, control, credential, { events: EVENTS, name: 'E2E: first on wh_demo' }, created);
			const { workflow } = triggerWorkflow(credential, { events: EVENTS, name: 'E2E: second on wh_demo' });
			const second = await n8n.api('POST', '/workflows', workflow);
			created.push(second);
			const error = await refusedActivation(n8n, second);
			assert.match(error, /wh_demo/);
			assert.ok(error.includes(first.url), `the error does not name ${first.url}: ${error}`);
			// The first workflow's note in the description names it; n8n 2.x shows only the message.
			assert.match(error, /is in use by the workflow \\?"E2E: first on wh_demo\\?"/);
			assert.match(error, /unpublish \(deactivate in n8n 1\.x\) that workflow or end its test listen/);
			assert.strictEqual((await control.record('webhooks', 'wh_demo')).endpoint, first.url, 'the refused workflow moved the webhook');
			const before = (await executionsOf(n8n, first.wf.id)).length;
			const delivery = await control.deliver({ webhookId: 'wh_demo', event: 'candidate.updated' });
			assert.strictEqual(delivery.status, 200, `delivery answered ${delivery.status}`);
			await newExecution(n8n, first.wf.id, before);
			assert.strictEqual((await executionsOf(n8n, second.id)).length, 0);
			await deactivate(n8n, second);
			assert.strictEqual((await control.record('webhooks', 'wh_demo')).endpoint, first.url);
			await deactivate(n8n, first.wf);
			sameWebhook(await webhookWhen(control, 'wh_demo restored', (w) => w.endpoint === original.endpoint), original);
		});
	});

	await checks.check('trigger: a webhook disabled in the dashboard -> activation fails telling to enable it; nothing changed', async () => {
		const before = await control.record('webhooks', 'wh_second');
		assert.strictEqual(before.status, 'disabled');
		const { workflow } = triggerWorkflow(credential, { webhookId: 'wh_second', events: EVENTS, name: 'E2E: disabled webhook' });
		const wf = await n8n.api('POST', '/workflows', workflow);
		const error = await refusedActivation(n8n, wf);
		assert.match(error, /Webhook \\?"wh_second\\?" is disabled in the recruiting service/);
		assert.match(error, /enable it in the service's dashboard/);
		sameWebhook(await control.record('webhooks', 'wh_second'), before);
	});

	await checks.check('trigger: a workflow whose second Recruiting Trigger is on a disabled webhook -> after its (failed or partial) activation and deactivation, wh_demo exactly as it started', async () => {
		// n8n 1.x fails the activation and clears the first trigger's webhook with the static data
		// saved before (no snapshot): the note in the description has to bring the original back.
		// n8n 2.x keeps the first trigger active; its deactivation restores.
		await withWorkflows(n8n, async (created) => {
			const first = recruitingTrigger(credential, { webhookId: 'wh_demo', events: EVENTS }, crypto.randomUUID(), 'Trigger A');
			const second = recruitingTrigger(credential, { webhookId: 'wh_second', events: EVENTS }, crypto.randomUUID(), 'Trigger B');
			second.position = [0, 300];
			const wf = await n8n.api('POST', '/workflows', { name: 'E2E: two triggers, one disabled', nodes: [first, second], connections: {}, settings: { executionOrder: 'v1' } });
			created.push(wf);
			await control.clearRequests();
			await n8n.api('POST', `/workflows/${wf.id}/activate`, undefined, { raw: true });
			await waitFor('the first trigger to take wh_demo', async () => (await control.requests()).some((r) => r.method === 'PUT' && r.path.endsWith('/webhooks/wh_demo')));
			await sleep(QUIET_MS);
			await deactivate(n8n, wf);
			sameWebhook(await webhookWhen(control, 'wh_demo restored', (w) => w.endpoint === original.endpoint), original);
		});
	});

	if (!queue) {
		await checks.check('trigger: production activated during "Listen for test event" -> production takes over with the original from the listen\'s note; cancelling the listen leaves it; deactivation restores the original', async () => {
			await withWorkflows(n8n, async (created) => {
				const { workflow, productionUrl } = triggerWorkflow(credential, { events: EVENTS, name: 'E2E: test listen then activate' });
				const wf = await n8n.api('POST', '/workflows', workflow);
				created.push(wf);
				const url = productionUrl(n8n.webhookUrl);
				const testUrl = url.replace('/webhook/', '/webhook-test/');
				const full = await n8n.rest('GET', `/workflows/${wf.id}`);
				const run = await n8n.rest('POST', `/workflows/${wf.id}/run`, { workflowData: full, triggerToStartFrom: { name: 'Recruiting Trigger' } });
				assert.strictEqual(run.waitingForWebhook, true, JSON.stringify(run));
				const listening = await webhookWhen(control, 'wh_demo on the test URL', (w) => w.endpoint === testUrl);
				assert.ok(listening.description.startsWith(`${original.description}\n\n[n8n holds this webhook`), `no note in: ${listening.description}`);
				await n8n.api('POST', `/workflows/${wf.id}/activate`);
				const taken = await webhookWhen(control, 'wh_demo on the production URL', (w) => w.endpoint === url);
				assert.ok(taken.description.startsWith(`${original.description}\n\n[n8n holds this webhook`), `description: ${taken.description}`);
				assert.ok(taken.description.includes(`"holder":"${url}"`), `the listen's note stayed: ${taken.description}`);
				await n8n.rest('DELETE', `/test-webhook/${wf.id}`);
				await sleep(1000);
				assert.strictEqual((await control.record('webhooks', 'wh_demo')).endpoint, url, 'the end of the listen moved the webhook');
				const before = (await executionsOf(n8n, wf.id)).length;
				assert.strictEqual((await control.deliver({ webhookId: 'wh_demo', event: 'candidate.updated' })).status, 200);
				await newExecution(n8n, wf.id, before);
				await deactivate(n8n, wf);
				sameWebhook(await webhookWhen(control, 'wh_demo restored', (w) => w.endpoint === original.endpoint), original);
			});
		});

		await checks.check('trigger: "Listen for test event" while the workflow is active -> refused; production keeps the webhook and delivers', async () => {
			await withWorkflows(n8n, async (created) => {
				const { wf, url } = await activeTrigger(n8n, control, credential, { events: EVENTS, name: 'E2E: active then test listen' }, created);
				const full = await n8n.rest('GET', `/workflows/${wf.id}`);
				const run = await n8n.rest('POST', `/workflows/${wf.id}/run`, { workflowData: full, triggerToStartFrom: { name: 'Recruiting Trigger' } }, { raw: true });
				const text = JSON.stringify(run.body);
				assert.ok(run.status >= 400 || run.body?.data?.waitingForWebhook !== true, `the test listen started: ${text}`);
				assert.match(text, /this workflow is published \(active in n8n 1\.x\) and receives its events/);
				await sleep(1000);
				assert.strictEqual((await control.record('webhooks', 'wh_demo')).endpoint, url);
				const before = (await executionsOf(n8n, wf.id)).length;
				assert.strictEqual((await control.deliver({ webhookId: 'wh_demo', event: 'candidate.updated' })).status, 200);
				await newExecution(n8n, wf.id, before);
				await deactivate(n8n, wf);
				sameWebhook(await webhookWhen(control, 'wh_demo restored', (w) => w.endpoint === original.endpoint), original);
			});
		});
	}

	// One workflow for the delivery checks: filters, header redaction and a short key age.
	let wf;
	let url;
	const jobId = 'job_e2e_wanted';
	const application = (job, stage) => ({ id: `app_${crypto.randomBytes(4).toString('hex')}`, job: { id: job, title: 'E2E' }, stage: { parent_stage: stage, custom_stage: { id: 'cst_1', name: stage } } });
	const names = [
		'trigger: multipart, form and text POSTs from outside -> 415, 0 executions',
		'trigger: one delivery sent twice -> 200 twice, 1 execution',
		'trigger: Include Headers leaves out Authorization, Cookie and API keys',
		'trigger: Job IDs and Parent Stages filters -> only matching deliveries start executions',
		'trigger: a key rotated in the dashboard -> the old key refused once the cached key expired (Signing Key Max Age 3 s)',
	];
	try {
		await checks.check(
			'trigger: a workflow with Include Headers, Job IDs, Parent Stages and Signing Key Max Age is activated',
			async () => {
				({ wf, url } = await activeTrigger(n8n, control, credential, {
					events: EVENTS,
					name: 'E2E: trigger options',
					options: { includeHeaders: true, jobIds: `${jobId}, job_e2e_other`, parentStages: ['hired', 'offered'], signingKeyMaxAge: 3 },
				}));
			},
			{ fatal: true },
		);
	} catch (e) {
		if (e.name !== 'FatalCheck' && !(e.constructor && e.constructor.name === 'FatalCheck')) throw e;
		checks.skip(names, 'activation failed');
		return;
	}

	await checks.check(names[0], async () => {
		const before = (await executionsOf(n8n, wf.id)).length;
		const form = new FormData();
		form.append('type', 'candidate.updated');
		form.append('file', new Blob([crypto.randomBytes(2048)]), 'cv.pdf');
		const requests = [
			['multipart/form-data', { body: form, headers: {} }],
			['application/x-www-form-urlencoded', { body: 'type=candidate.updated&id=can_1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
			['text/plain', { body: 'hello', headers: { 'content-type': 'text/plain' } }],
		];
		for (const [kind, request] of requests) {
			const res = await post(url, request);
			assert.strictEqual(res.status, 415, `${kind} answered ${res.status}: ${res.text}`);
		}
		await countStays(n8n, wf.id, before, 'a non-JSON POST');
	});

	await checks.check(names[1], async () => {
		const before = (await executionsOf(n8n, wf.id)).length;
		const delivery = await control.deliver({ webhookId: 'wh_demo', event: 'candidate.updated' });
		assert.strictEqual(delivery.status, 200);
		// The service's retry: the same bytes and headers once more.
		const again = await post(delivery.endpoint, { body: delivery.body, headers: delivery.headers });
		assert.strictEqual(again.status, 200, `the re-sent delivery answered ${again.status}: ${again.text}`);
		assert.match(again.text, /Duplicate delivery/);
		await newExecution(n8n, wf.id, before);
		await countStays(n8n, wf.id, before + 1, 'the re-sent delivery');
		const [latest] = await executionsOf(n8n, wf.id);
		assert.strictEqual(nodeItems(latest, 'Recruiting Trigger')[0].messageId, delivery.msgId);
	});

	await checks.check(names[2], async () => {
		const before = (await executionsOf(n8n, wf.id)).length;
		const key = (await control.record('webhooks', 'wh_demo')).signing_key;
		const d = signedDelivery(key, {
			headers: { authorization: 'Bearer proxy-secret', 'proxy-authorization': 'Basic cHJveHk6c2VjcmV0', cookie: 'session=s3cret', 'x-api-key': 'k3y', 'x-e2e-note': 'kept' },
		});
		const res = await post(url, d);
		assert.strictEqual(res.status, 200, `answered ${res.status}: ${res.text}`);
		const execution = await newExecution(n8n, wf.id, before, (e) => nodeItems(e, 'Recruiting Trigger')[0]?.messageId === d.msgId);
		const headers = nodeItems(execution, 'Recruiting Trigger')[0].headers;
		for (const name of ['authorization', 'proxy-authorization', 'cookie', 'x-api-key']) assert.ok(!(name in headers), `${name} is in the item`);
		assert.doesNotMatch(JSON.stringify(execution.data), /proxy-secret|cHJveHk6c2VjcmV0|s3cret|k3y/);
		assert.strictEqual(headers['x-e2e-note'], 'kept');
		assert.strictEqual(headers['webhook-id'], d.msgId);
	});

	await checks.check(names[3], async () => {
		let count = (await executionsOf(n8n, wf.id)).length;
		const cases = [
			['application.created', application(jobId, 'hired'), true],
			['application.created', application('job_e2e_unwanted', 'hired'), false],
			['application.stage.updated', application(jobId, 'screening'), false],
			['application.stage.updated', application('job_e2e_other', 'offered'), true],
			['job.created', { id: jobId, title: 'Wanted' }, true],
			['job.created', { id: 'job_e2e_unwanted', title: 'Unwanted' }, false],
			['candidate.updated', { id: 'can_e2e' }, true],
		];
		for (const [event, object, starts] of cases) {
			const delivery = await control.deliver({ webhookId: 'wh_demo', event, object });
			assert.strictEqual(delivery.status, 200, `${event} answered ${delivery.status}`);
			if (starts) {
				await newExecution(n8n, wf.id, count, (e) => nodeItems(e, 'Recruiting Trigger')[0]?.messageId === delivery.msgId);
				count++;
			}
		}
		await countStays(n8n, wf.id, count, 'a filtered-out delivery');
	});

	await checks.check(names[4], async () => {
		const before = (await executionsOf(n8n, wf.id)).length;
		const webhook = await control.record('webhooks', 'wh_demo');
		const old = webhook.signing_key;
		const rotated = `whsec_${crypto.randomBytes(24).toString('base64')}`;
		await control.put('webhooks', { ...webhook, signing_key: rotated });
		await sleep(3500);
		const stale = await post(url, signedDelivery(old));
		assert.strictEqual(stale.status, 401, `the old key was accepted after the max age: ${stale.status} ${stale.text}`);
		const fresh = await control.deliver({ webhookId: 'wh_demo', event: 'candidate.updated' });
		assert.strictEqual(fresh.status, 200, `the new key answered ${fresh.status}`);
		await newExecution(n8n, wf.id, before);
		await countStays(n8n, wf.id, before + 1, 'the old-key delivery');
		// Put the seeded key back for the checks that follow.
		await control.put('webhooks', { ...(await control.record('webhooks', 'wh_demo')), signing_key: old });
	});

	await checks.check('trigger: the options workflow deactivates -> wh_demo restored exactly', async () => {
		await deactivate(n8n, wf);
		sameWebhook(await webhookWhen(control, 'wh_demo restored', (w) => w.endpoint === original.endpoint), original);
	});
}

module.exports = { triggerSafetyChecks };
