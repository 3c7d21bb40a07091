#!/usr/bin/env node
'use strict';
/**
 * `node bench/pollingSoak.js`: the Recruiting Polling Trigger through cycles of everyday trouble
 * inside a real n8n 2.41.1 (our package installed from its own `npm pack` tarball) against the
 * sandbox, polling every minute. Each cycle is, in turn, one of: n8n restarted, the workflow unpublished
 * and published again, the trigger renamed while unpublished, polls failing (the service answers 500 for a minute), or nothing; and adds
 * applications at random moments around it (also while n8n is stopped or the workflow unpublished).
 * A rename unpublishes, renames the trigger node (to its other name: A → B → A) and publishes again.
 * At the end every added application must have started an execution exactly once.
 *
 *   node bench/pollingSoak.js [--engine default|durable] [--cycles 10] [--seed 1] [--no-build]
 *
 * `durable` turns on n8n's durable polling (the scheduler, the publication service and durable
 * cursors). Prints one line of counts (for BENCHMARKS.md); exit code 1 when any was missed or
 * repeated. About 1.5 minutes a cycle. Not part of CI.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseCliArgs } = require('../scripts/cliArgs');
const { startN8n } = require('../scripts/n8n/instance');
const lib = require('../scripts/e2e/lib');
const { installAsReadme } = require('../scripts/e2e/readme');
const { chain, recruitingPollingTrigger, workflowNode } = require('../scripts/n8n/workflow');

const NODE = 'Recruiting Polling Trigger';
const DURABLE_POLLING_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};
const ACTIONS = ['restart', 'republish', 'rename', 'failing polls', 'nothing'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small seeded generator (mulberry32): the same seed draws the same cycles. */
function seeded(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

async function main() {
	const args = parseCliArgs(
		__filename,
		{
			engine: { type: 'string', default: 'default' },
			cycles: { type: 'string', default: '10' },
			seed: { type: 'string', default: '1' },
			'no-build': { type: 'boolean', default: false },
		},
		process.argv.slice(2),
	);
	if (!['default', 'durable'].includes(args.engine)) throw new Error(`--engine: default or durable, not "${args.engine}"`);
	const random = seeded(Number(args.seed));
	const cycles = Number(args.cycles);
	if (!args['no-build']) await lib.buildAll();
	const { tarball } = await lib.packPackage();
	const sb = await lib.startSandbox({ seed: { applications: 200 } });
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `recruiting-soak-${args.engine}-`));
	await installAsReadme({ userFolder, tarball });
	const n8n = await startN8n({ version: '2.41.1', userFolder, env: args.engine === 'durable' ? DURABLE_POLLING_ENV : {} });
	const template = sb.seeded.values('applications')[0];
	const added = [];
	const apply = async () => {
		const application = {
			...template,
			id: `app_soak_${added.length + 1}`,
			applied_at: new Date().toISOString(),
			stage: { ...template.stage, parent_stage: 'new' },
		};
		await sb.control.put('applications', application);
		added.push(application.id);
	};
	/** Adds 0 to 2 applications at random moments within `ms`. */
	const addDuring = async (ms) => {
		const moments = Array.from({ length: Math.floor(random() * 3) }, () => Math.floor(random() * ms)).sort((a, b) => a - b);
		let at = 0;
		for (const moment of moments) {
			await sleep(moment - at);
			at = moment;
			await apply();
		}
		await sleep(ms - at);
	};
	const counts = { restart: 0, republish: 0, rename: 0, 'failing polls': 0, nothing: 0 };
	/** The trigger's names so far: a rename goes to the other name, so A → B → A comes up too. */
	const NAMES = [NODE, 'New applications'];
	let renames = 0;
	let wf;
	try {
		const credential = await lib.createCredential(n8n, sb.sandbox);
		wf = await n8n.api(
			'POST',
			'/workflows',
			chain(`Soak: Recruiting Polling Trigger (${args.engine})`, [recruitingPollingTrigger(credential, { event: 'application.created' }, NODE), workflowNode('Received', 'n8n-nodes-base.noOp', 1)]),
		);
		await n8n.api('POST', `/workflows/${wf.id}/activate`);
		for (let cycle = 1; cycle <= cycles; cycle++) {
			// Each kind in turn, so that 10 cycles hold each twice; the moments are drawn.
			const action = ACTIONS[(cycle - 1) % ACTIONS.length];
			counts[action] += 1;
			lib.log(`cycle ${cycle}/${cycles}: ${action} (${added.length} added so far)`);
			await addDuring(20_000 + random() * 40_000);
			if (action === 'restart') {
				await n8n.stop();
				await addDuring(5_000);
				await n8n.start();
			} else if (action === 'republish') {
				await n8n.api('POST', `/workflows/${wf.id}/deactivate`);
				await addDuring(3_000);
				await n8n.api('POST', `/workflows/${wf.id}/activate`);
			} else if (action === 'rename') {
				// Unpublished, renamed (the node's static data is kept by name), published again.
				await n8n.api('POST', `/workflows/${wf.id}/deactivate`);
				const from = NAMES[renames % 2];
				const to = NAMES[++renames % 2];
				const current = await n8n.api('GET', `/workflows/${wf.id}`);
				const nodes = current.nodes.map((node) => (node.name === from ? { ...node, name: to } : node));
				const connections = Object.fromEntries(Object.entries(current.connections).map(([name, out]) => [name === from ? to : name, out]));
				await n8n.api('PUT', `/workflows/${wf.id}`, { name: current.name, nodes, connections, settings: current.settings ?? {} });
				await addDuring(3_000);
				await n8n.api('POST', `/workflows/${wf.id}/activate`);
			} else if (action === 'failing polls') {
				await sb.control.setFaults([{ kind: 'status', status: 500, path: 'applications', times: -1 }]);
				await addDuring(65_000);
				await sb.control.setFaults([]);
			}
			await addDuring(10_000 + random() * 30_000);
		}
		// Everything added is found within two polls; then one more poll to catch a repeat.
		const emittedIds = async () => (await lib.executionsOf(n8n, wf.id)).filter((e) => e.status === 'success').flatMap((e) => NAMES.filter((name) => e.data?.resultData?.runData?.[name]).flatMap((name) => lib.nodeItems(e, name)).map((item) => item.object.id));
		await lib.waitFor('every added application', async () => new Set(await emittedIds()).size >= added.length, { timeoutMs: 180_000, intervalMs: 2000 }).catch(() => {});
		await sleep(65_000);
		const emitted = await emittedIds();
		const executions = await lib.executionsOf(n8n, wf.id);
		const missed = added.filter((id) => !emitted.includes(id));
		const repeated = emitted.length - new Set(emitted).size;
		const failed = executions.filter((e) => e.status !== 'success').length;
		const drawn = Object.entries(counts).map(([what, n]) => `${n} ${what}`).join(', ');
		process.stdout.write(
			`soak ${args.engine} engine, seed ${args.seed}: ${cycles} cycles (${drawn}); ${added.length} added, ${emitted.length} emitted, ${missed.length} missed, ${repeated} repeated; ${executions.length - failed} executions, ${failed} failed polls\n`,
		);
		if (missed.length > 0) process.stdout.write(`missed: ${missed.join(', ')}\n`);
		process.exitCode = missed.length > 0 || repeated > 0 ? 1 : 0;
	} finally {
		if (wf) await n8n.api('POST', `/workflows/${wf.id}/deactivate`).catch(() => {});
		await n8n.stop().catch(() => {});
		await sb.sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
		fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
