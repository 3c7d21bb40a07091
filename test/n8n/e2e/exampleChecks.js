'use strict';
/**
 * The example workflows (examples/*.json) inside a real n8n, wired the way the demo wires them:
 * the nightly export run by hand, the chat notification end to end (trigger -> HTTP Request -> the
 * demo chat inbox webhook), the hired automation for a hired and a not-hired stage change, and
 * the demo's free webhook: a "Listen for test event" on wh_try receives `npm start -- deliver`.
 */
const assert = require('assert');
const path = require('path');
const { execFile } = require('child_process');
const { promisify } = require('util');
const { waitFor, executionsOf, nodeItems, reseedSandbox, ROOT } = require('../../../scripts/e2e/lib');
const { EXAMPLES, SAFETY_NET_WEBHOOK_ID, TRY_WEBHOOK_ID, fillExample, readExample, seedExampleRecords, simplifiedApplication, webhookUrlOf } = require('../../../scripts/e2e/examples');
const { triggerWorkflow } = require('../../../scripts/n8n/workflow');

async function activate(n8n, control, wf, webhookId) {
	const created = await n8n.api('POST', '/workflows', wf);
	await n8n.api('POST', `/workflows/${created.id}/activate`);
	if (webhookId) {
		const url = webhookUrlOf(wf, n8n.webhookUrl);
		await waitFor(`${webhookId} to point at ${url}`, async () => (await control.record('webhooks', webhookId)).endpoint === url);
	}
	return created;
}

async function deactivate(n8n, control, created, webhookId, originalEndpoint) {
	await n8n.api('POST', `/workflows/${created.id}/deactivate`);
	if (webhookId) {
		await waitFor(`${webhookId} to be restored`, async () => (await control.record('webhooks', webhookId)).endpoint === originalEndpoint);
	}
}

async function successfulExecutions(n8n, workflowId, count) {
	return waitFor(
		`${count} successful execution(s) of ${workflowId}`,
		async () => {
			const list = await executionsOf(n8n, workflowId);
			const bad = list.find((e) => ['error', 'crashed'].includes(e.status));
			if (bad) throw new Error(`execution ${bad.id} ${bad.status}: ${JSON.stringify(bad.data?.resultData?.error).slice(0, 1500)}`);
			const ok = list.filter((e) => e.status === 'success');
			return ok.length >= count && ok;
		},
		{ timeoutMs: 45000 },
	);
}

async function exampleChecks(checks, n8n, sb, credential, { applications, eventsCredential }) {
	const { control, seeded } = sb;
	const apps = seeded.values('applications');
	await seedExampleRecords(control);

	await checks.check('example nightly export: Run now -> every application, simplified -> one CSV file', async () => {
		const wf = await n8n.api('POST', '/workflows', fillExample('export', { credential }));
		const r = await n8n.cli(['execute', `--id=${wf.id}`, '--rawOutput'], { timeoutMs: 300000 });
		assert.strictEqual(r.code, 0, `n8n execute exited ${r.code}: ${(r.stdout + r.stderr).slice(-3000)}`);
		const [execution] = await executionsOf(n8n, wf.id);
		assert.strictEqual(execution.status, 'success');
		// Simplify (on by default) gives the spreadsheet's rows straight from the Recruiting node.
		const rows = nodeItems(execution, 'Get all applications');
		assert.strictEqual(rows.length, applications);
		const app = apps.find((a) => a.id === rows[0].id);
		assert.ok(app, `unknown application ${rows[0].id}`);
		assert.deepStrictEqual(rows[0], simplifiedApplication(app));
		const files = execution.data.resultData.runData['Convert to CSV'][0].data.main[0];
		assert.strictEqual(files.length, 1);
		const file = files[0].binary.data;
		assert.match(file.fileName, /^applications-\d{4}-\d\d-\d\d\.csv$/);
		assert.match(file.mimeType, /csv/);
		if (file.data && file.data !== 'filesystem-v2' && !/^filesystem/.test(file.id || '')) {
			const csv = Buffer.from(file.data, 'base64').toString('utf8').trim().split('\n');
			assert.strictEqual(csv.length, applications + 1);
		}
	});

	await checks.check('example new application -> chat: a delivery posts the message to the chat webhook', async () => {
		const original = await control.record('webhooks', 'wh_demo');
		const inboxWf = fillExample('inbox');
		const inbox = await activate(n8n, control, inboxWf);
		const chatWf = fillExample('chat', { credential, chatUrl: webhookUrlOf(inboxWf, n8n.webhookUrl) });
		const chat = await activate(n8n, control, chatWf, 'wh_demo');
		try {
			const app = apps[3];
			const delivery = await control.deliver({ webhookId: 'wh_demo', event: 'application.created', object: app });
			assert.strictEqual(delivery.status, 200, `delivery answered ${delivery.status} ${delivery.error || ''}`);
			const [received] = await successfulExecutions(n8n, inbox.id, 1);
			const [message] = nodeItems(received, 'Message received');
			assert.ok(message.text.includes(app.candidate.full_name), message.text);
			assert.ok(message.text.includes(app.job.title), message.text);
			await successfulExecutions(n8n, chat.id, 1);
		} finally {
			await deactivate(n8n, control, chat, 'wh_demo', original.endpoint);
			await deactivate(n8n, control, inbox);
		}
	});

	await checks.check('example new application -> chat (polling): an application added after publishing posts the message at the next poll', async () => {
		const inboxWf = fillExample('inbox');
		const inbox = await activate(n8n, control, inboxWf);
		const pollingWf = fillExample('chatPolling', { credential, chatUrl: webhookUrlOf(inboxWf, n8n.webhookUrl) });
		const polling = await activate(n8n, control, pollingWf);
		try {
			// The first poll (at publishing) records where the account stands: nothing is posted for the seed.
			await new Promise((resolve) => setTimeout(resolve, 2000));
			assert.deepStrictEqual(await executionsOf(n8n, polling.id), []);
			const app = { ...apps[4], id: 'app_example_polling', applied_at: new Date().toISOString() };
			await control.put('applications', app);
			const [received] = await waitFor('the next poll to post the message', async () => {
				const ok = (await executionsOf(n8n, inbox.id)).filter((e) => e.status === 'success');
				return ok.length >= 1 && ok;
			}, { timeoutMs: 150_000, intervalMs: 1000 });
			const [message] = nodeItems(received, 'Message received');
			assert.ok(message.text.includes(app.candidate.full_name), message.text);
		} finally {
			await deactivate(n8n, control, polling);
			await deactivate(n8n, control, inbox);
		}
	});

	const safetyNet = 'example instant with a safety net: an application -> one message, by the webhook; the same event delivered again -> its key already claimed, no second message';
	if (!eventsCredential) checks.skip([safetyNet], 'PostgreSQL is missing (the example claims each key in a table)');
	else await checks.check(safetyNet, async () => {
		const original = await control.record('webhooks', SAFETY_NET_WEBHOOK_ID);
		const inboxWf = fillExample('inbox');
		const inbox = await activate(n8n, control, inboxWf);
		const netWf = fillExample('safetyNet', { credential, eventsCredential, chatUrl: webhookUrlOf(inboxWf, n8n.webhookUrl), jobId: apps[0].job.id });
		const net = await activate(n8n, control, netWf, SAFETY_NET_WEBHOOK_ID);
		try {
			// As the service makes it: stored, and its application.created delivered to the webhook.
			const app = (await control.call('POST', '/applications', { jobId: apps[0].job.id })).data;
			const [received] = await successfulExecutions(n8n, inbox.id, 1);
			const [message] = nodeItems(received, 'Message received');
			assert.ok(message.text.includes(app.candidate.full_name) && message.text.includes('Seen by the webhook'), message.text);
			// The same event seen a second time (as the next poll would see it): its key is claimed already.
			const again = await control.deliver({ webhookId: SAFETY_NET_WEBHOOK_ID, event: 'application.created', object: app });
			assert.strictEqual(again.status, 200, `delivery answered ${again.status} ${again.error || ''}`);
			const runs = await successfulExecutions(n8n, net.id, 2);
			assert.deepStrictEqual(runs.map((r) => Boolean(r.data?.resultData?.runData?.['Post to chat'])).sort(), [false, true]);
			await new Promise((resolve) => setTimeout(resolve, 2000));
			assert.strictEqual((await executionsOf(n8n, inbox.id)).length, 1, 'a second message was posted');
		} finally {
			await deactivate(n8n, control, net, SAFETY_NET_WEBHOOK_ID, original.endpoint);
			await deactivate(n8n, control, inbox);
			// The application and candidate it made go: later checks compare the service with the seed.
			await reseedSandbox(sb, { applications });
			await seedExampleRecords(control);
		}
	});

	await checks.check('example candidate hired: hired -> tag + e-mail draft; another stage -> filtered out', async () => {
		const original = await control.record('webhooks', 'wh_hires');
		const wf = fillExample('hired', { credential });
		const created = await activate(n8n, control, wf, 'wh_hires');
		try {
			const app = apps[5];
			const candidate = await control.record('candidates', app.candidate.id);
			assert.ok(!(candidate.tags || []).some((t) => t.id === 'tag_hired'));
			const interview = { ...app, stage: { ...app.stage, parent_stage: 'interview' } };
			const d1 = await control.deliver({ webhookId: 'wh_hires', event: 'application.stage.updated', object: interview });
			assert.strictEqual(d1.status, 200, `delivery answered ${d1.status} ${d1.error || ''}`);
			const [first] = await successfulExecutions(n8n, created.id, 1);
			assert.strictEqual(nodeItems(first, 'Moved to hired?').length, 0);
			assert.ok(!first.data.resultData.runData['Get candidate'], 'a non-hired stage reached Get candidate');

			const hired = { ...app, stage: { ...app.stage, parent_stage: 'hired' } };
			const d2 = await control.deliver({ webhookId: 'wh_hires', event: 'application.stage.updated', object: hired });
			assert.strictEqual(d2.status, 200);
			const list = await successfulExecutions(n8n, created.id, 2);
			const second = list.find((e) => e.id !== first.id);
			// Node version 1.1: Get candidate gives Simplify's flat candidate (tags as names).
			const [simplified] = nodeItems(second, 'Get candidate');
			assert.strictEqual(simplified.id, candidate.id);
			assert.strictEqual(simplified.full_name, candidate.full_name);
			assert.ok(Object.values(simplified).every((v) => v === null || typeof v !== 'object' || Array.isArray(v)), `not flat: ${JSON.stringify(simplified)}`);
			const [draft] = nodeItems(second, 'Draft welcome e-mail');
			assert.strictEqual(draft.to, candidate.email);
			assert.strictEqual(draft.subject, `Welcome to the team, ${candidate.first_name}!`);
			assert.ok(draft.body.includes(app.job.title), draft.body);
			const now = await control.record('candidates', app.candidate.id);
			assert.ok(now.tags.some((t) => t.id === 'tag_hired'), 'the Hired tag was not added');
		} finally {
			await deactivate(n8n, control, created, 'wh_hires', original.endpoint);
		}
	});
}

/**
 * What a newcomer does in the demo: a Recruiting Trigger on the free webhook, "Listen for test
 * event", then `npm start -- deliver new-application --webhook wh_try` from a second terminal (the
 * real command, against this sandbox). No example may hold the webhook.
 */
async function tryWebhookCheck(checks, n8n, sb, credential) {
	const { control } = sb;
	await checks.check(`demo: a test listen on the free webhook ${TRY_WEBHOOK_ID} receives \`npm start -- deliver new-application --webhook ${TRY_WEBHOOK_ID}\`; the webhook is put back`, async () => {
		for (const key of Object.keys(EXAMPLES)) {
			assert.ok(!JSON.stringify(readExample(key)).includes(TRY_WEBHOOK_ID), `example ${key} uses ${TRY_WEBHOOK_ID}`);
		}
		const original = await control.record('webhooks', TRY_WEBHOOK_ID);
		assert.strictEqual(original.status, 'enabled');
		assert.ok(!/\/webhook(-test)?\//.test(original.endpoint), `${TRY_WEBHOOK_ID} already points at n8n: ${original.endpoint}`);
		const { workflow, productionUrl } = triggerWorkflow(credential, { webhookId: TRY_WEBHOOK_ID, events: ['application.created'], name: 'E2E: try the trigger' });
		const wf = await n8n.api('POST', '/workflows', workflow);
		const full = await n8n.rest('GET', `/workflows/${wf.id}`);
		const run = await n8n.rest('POST', `/workflows/${wf.id}/run`, { workflowData: full, triggerToStartFrom: { name: 'Recruiting Trigger' } });
		assert.strictEqual(run.waitingForWebhook, true, JSON.stringify(run));
		const testUrl = productionUrl(n8n.webhookUrl).replace('/webhook/', '/webhook-test/');
		await waitFor(`${TRY_WEBHOOK_ID} on the test URL`, async () => (await control.record('webhooks', TRY_WEBHOOK_ID)).endpoint === testUrl);

		const port = new URL(sb.sandbox.url).port;
		const sent = await promisify(execFile)(
			process.execPath,
			[path.join(ROOT, 'scripts', 'demo.js'), 'deliver', 'new-application', '--webhook', TRY_WEBHOOK_ID, '--sandbox-port', port],
			{ cwd: ROOT, timeout: 60000 },
		);
		assert.match(sent.stdout, new RegExp(`^application\\.created for .+ -> ${TRY_WEBHOOK_ID} at ${testUrl.replace(/[.?]/g, '\\$&')}: 200$`, 'm'), sent.stdout + sent.stderr);
		assert.strictEqual(sent.stderr, '', `deliver warned: ${sent.stderr}`);

		const manual = await waitFor('the test execution', async () => {
			const r = await n8n.rest('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: wf.id }))}`);
			const list = r.results || r;
			return list.find((e) => e.mode === 'manual' && e.status === 'success');
		});
		assert.ok(manual);
		const restored = await waitFor(`${TRY_WEBHOOK_ID} put back after the test event`, async () => {
			const now = await control.record('webhooks', TRY_WEBHOOK_ID);
			return now.endpoint === original.endpoint && now;
		});
		for (const key of ['subscribed_events', 'name', 'description', 'status']) assert.deepStrictEqual(restored[key], original[key], key);
	});
}

module.exports = { exampleChecks, tryWebhookCheck };
