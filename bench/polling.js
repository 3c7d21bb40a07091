#!/usr/bin/env node
'use strict';
/**
 * `node bench/polling.js`: the Recruiting Polling Trigger inside a real n8n 2.41.1 against the
 * sandbox (2,345 applications), polling every minute (n8n's shortest interval). Measures what
 * issue 31 asks for, and prints a Markdown table for BENCHMARKS.md:
 *
 * - requests per idle poll (target: 1 for the applications list);
 * - requests for the poll that finds 250 new applications (target: the pages holding them + 1),
 *   and for the idle polls after it (target: its pages for the look-back, then 1);
 * - delay from an application's creation to its execution (target: at most the poll interval plus
 *   one poll's time), for applications added at random moments;
 * - every added application exactly once.
 *
 *   node bench/polling.js [--samples 5] [--no-build]
 * Takes about (samples + 11) minutes: n8n polls once a minute. Not part of CI.
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
const LIST_PATH = '/v1.0/cmp_demo/applications';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
	const args = parseCliArgs(__filename, { samples: { type: 'string', default: '5' }, 'no-build': { type: 'boolean', default: false } }, process.argv.slice(2));
	const samples = Number(args.samples);
	if (!args['no-build']) await lib.buildAll();
	const { tarball } = await lib.packPackage();
	const sb = await lib.startSandbox({ seed: { applications: 2345 } });
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-bench-polling-'));
	await installAsReadme({ userFolder, tarball });
	const n8n = await startN8n({ version: '2.41.1', userFolder });
	const template = sb.seeded.values('applications')[0];
	let counter = 0;
	const added = new Map();
	const apply = async () => {
		counter += 1;
		const application = { ...template, id: `app_bench_${counter}`, applied_at: new Date().toISOString(), stage: { ...template.stage, parent_stage: 'new' } };
		await sb.control.put('applications', application);
		added.set(application.id, Date.parse(application.applied_at));
		return application.id;
	};
	/**
	 * GETs of the applications list, grouped into polls: the sandbox records no times, so a sampler
	 * stamps each new one when it sees it (every 250 ms; a poll's requests come within a second).
	 */
	const stamps = [];
	let sampling = true;
	const sampler = (async () => {
		while (sampling) {
			const requests = (await sb.control.requests()).filter((r) => r.method === 'GET' && r.path === LIST_PATH);
			while (stamps.length < requests.length) stamps.push(Date.now());
			if (requests.length < stamps.length) stamps.length = requests.length;
			await sleep(250);
		}
	})();
	const polls = async () => {
		await sleep(300);
		const groups = [];
		for (const at of stamps) {
			const last = groups[groups.length - 1];
			if (last && at - last.at < 5000) last.count += 1;
			else groups.push({ at, count: 1 });
		}
		return groups;
	};
	const rows = [];
	try {
		const credential = await lib.createCredential(n8n, sb.sandbox);
		const workflow = chain('Bench: Recruiting Polling Trigger', [
			recruitingPollingTrigger(credential, { event: 'application.created' }, NODE),
			workflowNode('Received', 'n8n-nodes-base.noOp', 1),
		]);
		const wf = await n8n.api('POST', '/workflows', workflow);
		await sb.control.clearRequests();
		stamps.length = 0;
		await n8n.api('POST', `/workflows/${wf.id}/activate`);
		// Two idle polls after the first (which records where the account stands).
		await lib.waitFor('three polls', async () => (await polls()).length >= 3, { timeoutMs: 200_000, intervalMs: 1000 });
		const idle = (await polls()).slice(1, 3).map((p) => p.count);
		rows.push(['requests per idle poll (applications list)', idle.join(', '), '1']);

		for (let i = 0; i < samples; i++) {
			await sleep(Math.floor(Math.random() * 60_000));
			await apply();
		}
		const few = new Set(added.keys());
		const fewDone = await lib.waitFor('the random additions', async () => {
			const executions = await lib.executionsOf(n8n, wf.id);
			const seen = executions.flatMap((e) => lib.nodeItems(e, NODE).map((item) => ({ id: item.object.id, started: Date.parse(e.startedAt) })));
			return seen.filter((s) => few.has(s.id)).length >= few.size && seen;
		}, { timeoutMs: 200_000, intervalMs: 1000 });
		const delays = fewDone.filter((s) => few.has(s.id)).map((s) => (s.started - added.get(s.id)) / 1000);
		rows.push([`delay from creation to execution, ${samples} applications added at random moments (s)`, `${delays.map((d) => d.toFixed(1)).join(', ')} (max ${Math.max(...delays).toFixed(1)})`, '≤ 60 + one poll']);

		await sb.control.clearRequests();
		stamps.length = 0;
		for (let i = 0; i < 250; i++) await apply();
		const before = added.size;
		const all = await lib.waitFor('the 250', async () => {
			const executions = await lib.executionsOf(n8n, wf.id);
			const ids = executions.flatMap((e) => lib.nodeItems(e, NODE).map((item) => item.object.id));
			return ids.length >= before && ids;
		}, { timeoutMs: 200_000, intervalMs: 1000 });
		const bigPoll = (await polls())[0];
		rows.push(['requests for the poll that found 250 new applications (pages of 100)', String(bigPoll.count), '≤ 3 + 1']);
		// The idle polls after the burst: its pages while an entry may still turn up late among them
		// (the look-back, 5 min since its newest), then one request each.
		await lib.waitFor('seven idle polls after the 250', async () => (await polls()).length >= 8, { timeoutMs: 560_000, intervalMs: 2000 });
		rows.push(['requests per idle poll after the 250, minute by minute (applications list)', (await polls()).slice(1, 8).map((p) => p.count).join(', '), 'its pages for 5 min, then 1']);
		const missed = [...added.keys()].filter((id) => !all.includes(id)).length;
		const repeated = all.length - new Set(all).size;
		rows.push(['added / emitted / missed / repeated', `${added.size} / ${all.length} / ${missed} / ${repeated}`, 'all once']);
		await n8n.api('POST', `/workflows/${wf.id}/deactivate`);
	} finally {
		sampling = false;
		await sampler;
		await n8n.stop().catch(() => {});
		await sb.sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
		fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
	const table = ['| Measure | Result | Target |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
	process.stdout.write(`${table}\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
