'use strict';
/**
 * The Recruiting Trigger inside a real n8n (single process or queue mode): activation takes the
 * sandbox's webhook over, a signed delivery starts an execution, a forged one is refused without
 * one, deactivation puts the webhook back exactly.
 */
const assert = require('assert');
const crypto = require('crypto');
const { waitFor, executionsOf, nodeItems, sleep } = require('../../../scripts/e2e/lib');
const { triggerWorkflow } = require('../../../scripts/n8n/workflow');

const EVENTS = ['application.created', 'candidate.updated'];

/**
 * @param checks  Checks instance
 * @param n8n     driver (startN8n or startQueueStack)
 * @param sb      { control, seeded, sandbox }
 * @param credential {id, name}
 * @param opts.queue  also prove the webhook process enqueued and the worker ran the execution
 * @param opts.restart  also restart n8n while the trigger is active (single process only)
 */
async function triggerChecks(checks, n8n, sb, credential, { queue = false, restart = false } = {}) {
	const { control } = sb;
	const original = await control.record('webhooks', 'wh_demo');
	const { workflow, productionUrl } = triggerWorkflow(credential, { events: EVENTS });
	const url = productionUrl(n8n.webhookUrl);
	let wf;
	let execution;
	const webhookPath = '/v1.0/cmp_demo/webhooks/wh_demo';

	const names = [
		'trigger: activate -> GET then PUT /webhooks/wh_demo to the production URL',
		'trigger: signed delivery via the sandbox -> 200 and one execution with the item shape',
		'trigger: a known but unselected event -> 200, no execution',
		'trigger: forged signature -> 401 and no new execution',
		'trigger: deactivate -> endpoint and events restored exactly',
	];
	try {
		await checks.check(
			names[0],
			async () => {
				wf = await n8n.api('POST', '/workflows', workflow);
				await control.clearRequests();
				await n8n.api('POST', `/workflows/${wf.id}/activate`);
				// The webhook methods run shortly after the API answers: poll the sandbox.
				const requests = await waitFor('the PUT of wh_demo', async () => {
					const all = await control.requests();
					return all.some((r) => r.method === 'PUT' && r.path === webhookPath) && all;
				});
				const onHook = requests.filter((r) => r.path === webhookPath);
				const firstPut = onHook.findIndex((r) => r.method === 'PUT');
				assert.ok(
					onHook.slice(0, firstPut).some((r) => r.method === 'GET'),
					`expected a GET before the PUT, got ${onHook.map((r) => r.method).join(', ')}`,
				);
				const put = onHook[firstPut];
				assert.strictEqual(put.status, 200, `PUT answered ${put.status}`);
				assert.strictEqual(put.body.endpoint, url);
				assert.deepStrictEqual([...put.body.events].sort(), [...EVENTS].sort());
				assert.ok(put.headers.authorization === 'Bearer sandbox-token', 'PUT without the bearer token');
				const now = await control.record('webhooks', 'wh_demo');
				assert.strictEqual(now.endpoint, url);
				assert.deepStrictEqual([...now.subscribed_events].sort(), [...EVENTS].sort());
				// Nothing but the endpoint, the events and the note at the end of the description (and
				// the version the service bumps) changed.
				assert.strictEqual(now.name, original.name);
				assert.ok(now.description.startsWith(`${original.description}\n\n[n8n holds this webhook and puts back when done: `), `description: ${now.description}`);
				const note = JSON.parse(now.description.slice(now.description.indexOf('{'), -1));
				assert.deepStrictEqual(note.endpoint, original.endpoint);
				assert.deepStrictEqual(note.events, original.subscribed_events);
				assert.strictEqual(note.holder, url);
				assert.strictEqual(now.signing_key, original.signing_key);
			},
			{ fatal: true },
		);

		await checks.check(names[1], async () => {
			const app = sb.seeded.values('applications')[7];
			const delivery = await control.deliver({ webhookId: 'wh_demo', event: 'application.created', object: app });
			assert.strictEqual(delivery.endpoint, url);
			assert.strictEqual(delivery.status, 200, `delivery answered ${delivery.status} ${delivery.error || ''}`);
			execution = await waitFor(
				'the execution of the delivery',
				async () => {
					const list = await executionsOf(n8n, wf.id);
					const failed = list.find((e) => ['error', 'crashed'].includes(e.status));
					if (failed) throw new Error(`execution ${failed.id} ${failed.status}: ${JSON.stringify(failed.data?.resultData?.error)}`);
					return list.find((e) => e.status === 'success');
				},
				{ timeoutMs: 45000 },
			);
			const items = nodeItems(execution, 'Recruiting Trigger');
			assert.strictEqual(items.length, 1);
			const item = items[0];
			const sent = JSON.parse(delivery.body);
			assert.deepStrictEqual(Object.keys(item).sort(), ['deliveryId', 'event', 'eventKey', 'messageId', 'object', 'timestamp']);
			assert.strictEqual(item.event, 'application.created');
			assert.strictEqual(item.messageId, delivery.msgId);
			assert.strictEqual(item.eventKey, `application.created:${item.object.id}`);
			assert.strictEqual(item.deliveryId, sent.id);
			assert.strictEqual(item.timestamp, sent.timestamp);
			assert.deepStrictEqual(item.object, JSON.parse(JSON.stringify(app)));
			assert.deepStrictEqual(nodeItems(execution, 'Received'), items);
			if (queue) {
				const fs = require('fs');
				const { worker, webhook, main } = n8n.processes;
				const id = execution.id;
				await waitFor('the worker log line', () => /finished execution/i.test(fs.readFileSync(worker.logFile, 'utf8')) && new RegExp(`finished execution ${id}\\b`, 'i').test(fs.readFileSync(worker.logFile, 'utf8')), { timeoutMs: 10000 });
				assert.match(fs.readFileSync(webhook.logFile, 'utf8'), new RegExp(`enqueued execution ${id}\\b`, 'i'), 'the webhook process did not enqueue it');
				assert.doesNotMatch(fs.readFileSync(main.logFile, 'utf8'), new RegExp(`finished execution ${id}\\b`, 'i'), 'main ran it');
				assert.ok(url.startsWith(n8n.webhookUrl) && n8n.webhookUrl !== n8n.url, 'the delivery did not go to the webhook process');
			}
		});

		await checks.check(names[2], async () => {
			const before = (await executionsOf(n8n, wf.id)).length;
			const delivery = await control.deliver({ webhookId: 'wh_demo', event: 'job.created' });
			assert.strictEqual(delivery.status, 200, `delivery answered ${delivery.status} ${delivery.error || ''}`);
			await sleep(1500);
			assert.strictEqual((await executionsOf(n8n, wf.id)).length, before, 'an unselected event started the workflow');
		});

		await checks.check(names[3], async () => {
			const before = (await executionsOf(n8n, wf.id)).length;
			const msgId = `msg_${crypto.randomBytes(12).toString('hex')}`;
			const body = JSON.stringify({ id: msgId, version: 1, type: 'application.created', timestamp: new Date().toISOString(), data: { object: { id: 'app_forged' } } });
			const res = await fetch(url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'webhook-id': msgId,
					'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
					'webhook-signature': `v1,${crypto.randomBytes(32).toString('base64')}`,
				},
				body,
			});
			const text = await res.text();
			assert.strictEqual(res.status, 401, `forged delivery answered ${res.status}: ${text}`);
			assert.match(text, /Invalid webhook signature/);
			await sleep(2000);
			const after = await executionsOf(n8n, wf.id);
			assert.strictEqual(after.length, before, `a forged delivery produced an execution (${after.length} vs ${before})`);
		});

		await checks.check(names[4], async () => {
			await n8n.api('POST', `/workflows/${wf.id}/deactivate`);
			const restored = await waitFor('wh_demo to be restored', async () => {
				const now = await control.record('webhooks', 'wh_demo');
				return now.endpoint === original.endpoint && now;
			});
			assert.strictEqual(restored.endpoint, original.endpoint);
			assert.deepStrictEqual(restored.subscribed_events, original.subscribed_events);
			assert.strictEqual(restored.name, original.name);
			assert.strictEqual(restored.description, original.description);
			assert.strictEqual(restored.status, original.status);
			assert.strictEqual(restored.signing_key, original.signing_key);
		});
		if (!queue) {
			await checks.check('trigger: "Listen for test event" -> test URL, one manual execution, webhook restored', async () => {
				const full = await n8n.rest('GET', `/workflows/${wf.id}`);
				await control.clearRequests();
				const run = await n8n.rest('POST', `/workflows/${wf.id}/run`, {
					workflowData: full,
					triggerToStartFrom: { name: 'Recruiting Trigger' },
				});
				assert.strictEqual(run.waitingForWebhook, true, JSON.stringify(run));
				const testUrl = url.replace('/webhook/', '/webhook-test/');
				await waitFor('wh_demo to point at the test URL', async () => (await control.record('webhooks', 'wh_demo')).endpoint === testUrl);
				const delivery = await control.deliver({ webhookId: 'wh_demo', event: 'application.created' });
				assert.strictEqual(delivery.status, 200, `test delivery answered ${delivery.status} ${delivery.error || ''}`);
				// One call ends the test listen: n8n removes the test webhook and the trigger puts the webhook back.
				const restored = await waitFor('wh_demo to be restored after the test event', async () => {
					const now = await control.record('webhooks', 'wh_demo');
					return now.endpoint === original.endpoint && now;
				});
				assert.deepStrictEqual(restored.subscribed_events, original.subscribed_events);
				const manual = await waitFor('the manual execution', async () => {
					const r = await n8n.rest('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: wf.id }))}`);
					const list = r.results || r;
					return list.find((e) => e.mode === 'manual' && e.status === 'success');
				});
				assert.ok(manual);
			});
		}
		if (restart) {
			await checks.check('trigger: active across an n8n restart -> deliveries still verified; deactivate then restores', async () => {
				await control.clearRequests();
				await n8n.api('POST', `/workflows/${wf.id}/activate`);
				await waitFor('wh_demo to point at n8n again', async () => (await control.record('webhooks', 'wh_demo')).endpoint === url);
				const before = (await executionsOf(n8n, wf.id)).length;
				await n8n.restart();
				// n8n does not run the trigger's checkExists/create on a restart: the webhook stays ours.
				assert.strictEqual((await control.record('webhooks', 'wh_demo')).endpoint, url);
				const app = sb.seeded.values('applications')[8];
				const delivery = await waitFor('n8n to take the delivery after the restart', async () => {
					const d = await control.deliver({ webhookId: 'wh_demo', event: 'application.created', object: app });
					return d.status === 200 && d;
				});
				const after = await waitFor('the execution after the restart', async () => {
					const list = await executionsOf(n8n, wf.id);
					return list.filter((e) => e.status === 'success').length > before && list;
				});
				const latest = after.find((e) => nodeItems(e, 'Recruiting Trigger')[0]?.messageId === delivery.msgId);
				assert.ok(latest, 'no execution carries the delivery after the restart');
				await n8n.api('POST', `/workflows/${wf.id}/deactivate`);
				const restored = await waitFor('wh_demo to be restored after the restart', async () => {
					const now = await control.record('webhooks', 'wh_demo');
					return now.endpoint !== url && now;
				});
				assert.strictEqual(restored.endpoint, original.endpoint);
				assert.deepStrictEqual(restored.subscribed_events, original.subscribed_events);
			});
		}
	} catch (e) {
		if (e.name !== 'FatalCheck' && !(e.constructor && e.constructor.name === 'FatalCheck')) throw e;
		checks.skip([...names.slice(1), ...(queue ? [] : ['trigger: "Listen for test event"']), ...(restart ? ['trigger: active across an n8n restart'] : [])], 'activation failed');
	}
}

module.exports = { triggerChecks, TRIGGER_CHECK_COUNT: 5 };
