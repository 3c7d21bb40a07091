'use strict';
/**
 * End-to-end smoke test of the n8n tooling against a real n8n.
 *
 *   node scripts/n8n/smoke.js [--version 2.41.1] [--queue] [--keep]
 *
 * 1. start an instance (or the queue stack with --queue)
 * 2. import a Manual Trigger -> Set workflow via CLI and run it via `n8n execute`
 * 3. create a Webhook workflow via the public API, activate it, POST to its
 *    production URL (the webhook process in queue mode) and read the execution
 *    back via GET /api/v1/executions?workflowId=...&includeData=true
 * Prints step timings; a JSON summary goes to stdout. Exit code 0 = pass.
 */
const fs = require('fs');
const assert = require('assert');
const crypto = require('crypto');
const { startN8n } = require('./instance');
const { startQueueStack } = require('./queue');
const { DEFAULT_VERSION } = require('./install');
const { log, sleep } = require('./cache');
const { workflowNode, manualTrigger, webhookTrigger, chain } = require('./workflow');

function parseArgs(argv) {
	const o = { version: DEFAULT_VERSION, queue: false, keep: false };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--queue') o.queue = true;
		else if (a === '--keep') o.keep = true;
		else if (a === '--version') o.version = argv[++i];
		else if (a.startsWith('--version=')) o.version = a.slice(10);
		else throw new Error(`unknown argument ${a}`);
	}
	return o;
}

function manualWorkflow(id) {
	return chain(
		'smoke manual',
		[
			manualTrigger(),
			workflowNode('Set', 'n8n-nodes-base.set', 3.4, {
				assignments: { assignments: [{ id: 'a1', name: 'greeting', value: 'hello from smoke', type: 'string' }] },
				options: {},
			}),
			// Code runs in n8n's task runner: proves the runner starts (on n8n's Node).
			workflowNode('Code', 'n8n-nodes-base.code', 2, {
				jsCode: 'return $input.all().map((i) => ({ json: { ...i.json, answer: 6 * 7 } }));',
			}),
		],
		{ id, active: false, settings: {} },
	);
}

function webhookWorkflow(pathSeg, webhookId) {
	const webhook = webhookTrigger(pathSeg, { name: 'Webhook', responseMode: 'onReceived' });
	webhook.webhookId = webhookId;
	return chain(`smoke webhook ${pathSeg}`, [webhook, workflowNode('NoOp', 'n8n-nodes-base.noOp', 1)], {
		settings: { saveDataSuccessExecution: 'all' },
	});
}

async function timed(timings, name, fn) {
	const t = Date.now();
	const r = await fn();
	timings[name] = Date.now() - t;
	log('smoke', `${name}: ${(timings[name] / 1000).toFixed(2)}s`);
	return r;
}

async function main() {
	const args = parseArgs(process.argv.slice(2));
	const timings = {};
	const tAll = Date.now();
	const n8n = await timed(timings, args.queue ? 'queueStackStart' : 'start', () =>
		args.queue ? startQueueStack({ version: args.version }) : startN8n({ version: args.version }),
	);
	timings.readyMs = n8n.readyMs;
	let ok = false;
	try {
		// --- CLI: import + execute ------------------------------------------
		const wfId = `smoke${Date.now().toString(36)}`.slice(0, 21);
		await timed(timings, 'cliImport', () => n8n.importWorkflow(manualWorkflow(wfId)));
		const runOut = await timed(timings, 'cliExecute', () => n8n.executeWorkflow(wfId));
		const codeOut = runOut.data.resultData.runData.Code[0].data.main[0][0].json;
		assert.deepStrictEqual(codeOut, { greeting: 'hello from smoke', answer: 42 });

		// --- public API: create, activate, deliver, read back ---------------
		const pathSeg = `smoke-${crypto.randomBytes(4).toString('hex')}`;
		const webhookId = crypto.randomUUID();
		const created = await timed(timings, 'apiCreate', () => n8n.api('POST', '/workflows', webhookWorkflow(pathSeg, webhookId)));
		await timed(timings, 'apiActivate', () => n8n.api('POST', `/workflows/${created.id}/activate`));

		// The webhook is registered shortly after activate answers (and the
		// webhook process in queue mode learns it from the DB): poll.
		const hookUrl = `${n8n.webhookUrl}/webhook/${pathSeg}`;
		const payload = { candidate: 'Ada Lovelace', nonce: crypto.randomUUID() };
		await timed(timings, 'webhookDelivery', async () => {
			const t0 = Date.now();
			for (;;) {
				const res = await fetch(hookUrl, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(payload),
				});
				const text = await res.text();
				if (res.status === 200) return text;
				if (Date.now() - t0 > 30000) throw new Error(`webhook ${hookUrl} -> ${res.status} ${text}`);
				await sleep(100);
			}
		});

		const execution = await timed(timings, 'executionReadBack', async () => {
			const t0 = Date.now();
			for (;;) {
				const list = await n8n.api('GET', `/executions?workflowId=${created.id}&includeData=true`);
				const done = (list.data || []).find((e) => e.finished || e.status === 'success');
				if (done) return done;
				const failed = (list.data || []).find((e) => ['error', 'crashed'].includes(e.status));
				if (failed) throw new Error(`execution failed: ${JSON.stringify(failed).slice(0, 2000)}`);
				if (Date.now() - t0 > 30000) throw new Error(`no finished execution: ${JSON.stringify(list).slice(0, 1000)}`);
				await sleep(200);
			}
		});
		const hookOut = execution.data.resultData.runData.Webhook[0].data.main[0][0].json;
		assert.deepStrictEqual(hookOut.body, payload);

		if (args.queue) {
			// Delivered to the webhook process, executed by the worker: the
			// worker's log names the execution, and main never ran it.
			// (2.41.1 logs "Enqueued execution N (job J)" in the webhook process and
			// "Worker finished execution N (job J)" in the worker.)
			const { worker, webhook } = n8n.processes;
			const id = execution.id;
			const workerLog = fs.readFileSync(worker.logFile, 'utf8');
			const webhookLog = fs.readFileSync(webhook.logFile, 'utf8');
			assert.match(workerLog, new RegExp(`finished execution ${id}\\b`, 'i'), 'worker log does not show the execution');
			assert.match(webhookLog, new RegExp(`enqueued execution ${id}\\b`, 'i'), 'webhook log does not show the enqueue');
			log('smoke', `execution ${id}: enqueued by the webhook process, run by the worker`);
		}
		ok = true;
	} finally {
		await timed(timings, 'stop', () => n8n.stop());
		timings.total = Date.now() - tAll;
		if (ok && !args.keep) fs.rmSync(n8n.userFolder, { recursive: true, force: true });
		else log('smoke', `kept ${n8n.userFolder}`);
	}
	const summary = { ok, version: args.version, queue: args.queue, node: n8n.install.nodeBin, timingsMs: timings };
	process.stdout.write(JSON.stringify(summary) + '\n');
}

main().catch((e) => {
	process.stderr.write(`SMOKE FAILED: ${e.stack || e}\n`);
	process.exit(1);
});
