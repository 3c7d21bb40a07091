#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: B1–B6 and B8 (the node as an AI agent's tool) inside a real n8n 2.41.1 (our package installed from its own `npm pack`
 * tarball, community-style) against the sandbox, B7, exactly once under load in queue mode
 * (test/n8n/reliability/queueLoad.js, once per recipe), and RL, the node's defaults against the
 * sandbox's rate limiter (rateLimited.js); writes BENCHMARKS.md. Not part of CI.
 *
 *   node bench/run.js [--runs 5] [--only B1,B2,B3,B4,B5,B6,B7,B8,RL] [--saving on,off]
 *        [--max-load 1.0] [--load-wait-min 10] [--out BENCHMARKS.md] [--json file]
 *        [--applications 20000] [--b2-items 1000] [--b4-latency 30] [--b4-throughput 400]
 *        [--profile]                         # CPU profiles of n8n's main process (build/profiles)
 *        [--rl-runs 1] [--rl-cases get10,all10,get2,all2 (also win5: a fixed window; nginx: limit_req, 8 cases)] [--rl-styles none,ratelimit,x-ratelimit]
 *   node bench/run.js --only RL ...          # RL alone: rewrites only its section of BENCHMARKS.md
 *   node bench/run.js --render file.json [--out file.md]   # rewrite the report from a saved --json
 *   node bench/run.js --wan ...              # the WAN table, see wan.js
 *
 * Method (details in BENCHMARKS.md): every comparison runs in the same invocation, variants
 * alternate round by round (the order rotates), figures are medians of --runs rounds after one
 * warm-up round. Execution times are n8n's own (startedAt/stoppedAt of the execution, and a
 * node's executionTime from the run data, read through the public API).
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');
const { parseCliArgs } = require('../scripts/cliArgs');
const { startN8n } = require('../scripts/n8n/instance');
const { freePort } = require('../scripts/n8n/cache');
const { sleep, median, percentile, loadavg, rssProbe, startSandboxProcess, fmt, procStatusKb } = require('./lib');
const wf = require('./workflows');
const e2eLib = require('../scripts/e2e/lib');
const { signedDelivery } = e2eLib;
const { signatureBench } = require('./b3-signature');
const { benchB8 } = require('./b8-agent');
const rl = require('./rateLimited');
const setup = require('./setup');
const { N8N_VERSION, log, waitForQuietMachine, sh, packPackage, createCredentials, deploy, postWebhook, waitForWebhook, latestExecution, executionsSince, searchCandidates, candidateIds, nodeTime, nodeItems, execMs } = setup;

const ROOT = path.resolve(__dirname, '..');

/** The command line (strict: an unknown flag is an error); util.parseArgs has no number type, so numbers are converted here. */
function parseOptions(argv) {
	const a = parseCliArgs(
		__filename,
		{
			runs: { type: 'string', default: '5' },
			only: { type: 'string', default: 'B1,B2,B3,B4,B5,B6,B7,B8,RL' },
			saving: { type: 'string', default: 'on,off' },
			'max-load': { type: 'string', default: '1.0' },
			'load-wait-min': { type: 'string', default: '10' },
			// No default: with --render, an absent --out means the saved report's own.
			out: { type: 'string' },
			json: { type: 'string' },
			applications: { type: 'string', default: '20000' },
			'b2-items': { type: 'string', default: '1000' },
			'b4-latency': { type: 'string', default: '30' },
			// 400 rather than 200: a round of 200 lasted ~1.7 s and rounds differed by ±10 %.
			'b4-throughput': { type: 'string', default: '400' },
			render: { type: 'string' },
			profile: { type: 'boolean', default: false },
			'rl-runs': { type: 'string', default: '1' },
			'rl-cases': { type: 'string', default: 'get10,all10,get2,all2' },
			'rl-styles': { type: 'string', default: 'none,ratelimit,x-ratelimit' },
		},
		argv,
	);
	const o = {
		runs: Number(a.runs),
		only: a.only.toUpperCase().split(','),
		saving: a.saving.split(','),
		maxLoad: Number(a['max-load']),
		loadWaitMin: Number(a['load-wait-min']),
		out: path.resolve(a.out ?? path.join(ROOT, 'BENCHMARKS.md')),
		json: a.json === undefined ? null : path.resolve(a.json),
		applications: Number(a.applications),
		b2Items: Number(a['b2-items']),
		b4Latency: Number(a['b4-latency']),
		b4Throughput: Number(a['b4-throughput']),
		b4Senders: 8,
		profile: a.profile,
		rlRuns: Number(a['rl-runs']),
		rlCases: a['rl-cases'].split(','),
		rlStyles: a['rl-styles'].split(','),
	};
	return { o, render: a.render, outGiven: a.out !== undefined };
}

/** The bare baseline: Node's own fetch (undici, keep-alive) over the same pages. */
async function bareFetch(sandbox, apiBase, token, inFlight) {
	const get = async (page) => {
		const r = await fetch(`${apiBase}/applications?page=${page}&page_size=100`, {
			headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
		});
		if (!r.ok) throw new Error(`bare fetch: ${r.status}`);
		return await r.json();
	};
	const t0 = performance.now();
	const first = await get(1);
	const pages = [first.items];
	const total = first.meta.total_pages;
	if (inFlight <= 1) {
		let env = first;
		for (let p = 2; env.meta.has_next_page; p++) {
			env = await get(p);
			pages.push(env.items);
		}
	} else {
		let next = 2;
		const worker = async () => {
			while (next <= total) {
				const p = next++;
				pages[p - 1] = (await get(p)).items;
			}
		};
		await Promise.all(Array.from({ length: inFlight }, worker));
	}
	const items = [].concat(...pages);
	return { ms: performance.now() - t0, items: items.length };
}

/** Rotates the variant order per round, so no variant always runs first after a pause. */
function rotated(list, round) {
	const k = round % list.length;
	return [...list.slice(k), ...list.slice(0, k)];
}

// ---------------------------------------------------------------- B1

async function benchB1(ctx, mode) {
	const { n8n, sandbox, creds, o } = ctx;
	const apiBase = sandbox.info.apiBase;
	const expectedPages = Math.ceil(o.applications / 100);
	const saving = mode === 'on';
	const variants = [
		{ key: 'ours', label: 'Recruiting node, Return All, one page at a time (Request Options → Pages in Flight 1)', id: await deploy(n8n, wf.b1Ours('b1-ours', creds.recruiting, { requestOptions: { pagesInFlight: 1 } })), path: 'b1-ours', node: ['Recruiting'], verify: false },
		{
			key: 'ours4',
			label: 'Recruiting node, Return All (the default: the read window, up to 64 pages in flight)',
			id: await deploy(n8n, wf.b1Ours('b1-ours4', creds.recruiting)),
			path: 'b1-ours4',
			node: ['Recruiting'],
		},
		{
			key: 'simple',
			label: 'Recruiting node, Return All, Simplify on (the default from node version 1.1)',
			id: await deploy(n8n, wf.b1Ours('b1-simple', creds.recruiting, {}, 1.1)),
			path: 'b1-simple',
			node: ['Recruiting'],
		},
		{
			key: 'http',
			label: 'HTTP Request (pagination) + Split Out',
			id: await deploy(n8n, wf.b1Http('b1-http', creds.header, apiBase)),
			path: 'b1-http',
			node: ['HTTP Request', 'Split Out'],
		},
		{ key: 'bare', label: 'bare Node fetch loop, serial', bare: 1 },
		{ key: 'bare4', label: 'bare Node fetch, 4 in flight', bare: 4 },
	];
	for (const v of variants) if (v.path) await waitForWebhook(n8n, v.path);
	const pid = n8n.proc.child.pid;
	const results = Object.fromEntries(variants.map((v) => [v.key, []]));

	const once = async (v) => {
		await sandbox.control('DELETE', '/requests');
		const c0 = await sandbox.connections();
		let r;
		if (v.bare) {
			const b = await bareFetch(sandbox, apiBase, sandbox.info.token, v.bare);
			r = { wallMs: b.ms, execMs: b.ms, items: b.items };
		} else {
			const probe = rssProbe(pid);
			const wallMs = await postWebhook(n8n, v.path, {});
			const rss = probe.stop();
			r = { wallMs, peakRssMb: rss.peakMb, rssBeforeMb: rss.beforeMb };
			if (saving) {
				const e = await latestExecution(n8n, v.id, { after: v.lastExec ?? null });
				v.lastExec = e.id;
				r.execMs = execMs(e);
				r.status = e.status;
			}
		}
		const requests = await sandbox.control('GET', '/requests');
		r.requests = requests.length;
		// Minus the two control calls after the run (each on its own connection).
		r.connections = (await sandbox.connections()) - c0 - 2;
		return r;
	};

	// Warm-up (not counted): also checks every variant returns every item.
	for (const v of variants) {
		const r = await once(v);
		if (v.bare) {
			if (r.items !== o.applications) throw new Error(`B1 ${v.key}: ${r.items} items`);
		} else if (saving && v.verify !== false) {
			const e = await latestExecution(n8n, v.id, { includeData: true });
			const items = nodeItems(e, v.node[v.node.length - 1]);
			if (items !== o.applications) throw new Error(`B1 ${v.key}: ${items} items, expected ${o.applications}`);
			v.itemsChecked = items;
		}
		log(`B1/${mode} warm-up ${v.key}: ${fmt(r.wallMs)} ms wall, ${r.requests} requests`);
	}
	for (let round = 0; round < o.runs; round++) {
		for (const v of rotated(variants, round)) {
			const r = await once(v);
			results[v.key].push(r);
			log(
				`B1/${mode} #${round + 1} ${v.key}: exec ${fmt(r.execMs)} ms, wall ${fmt(r.wallMs)} ms, ${r.requests} req, ${r.connections} conn, peak RSS ${fmt(r.peakRssMb)} MB`,
			);
		}
	}
	return {
		mode,
		expectedPages,
		variants: variants.map((v) => ({ key: v.key, label: v.label, itemsChecked: v.itemsChecked ?? null })),
		results,
	};
}

/**
 * n8n's environment for execution data saving `mode`. With --profile, n8n's main process runs under
 * Node's `--cpu-prof` and writes <profileDir>/<label>/*.cpuprofile when it exits normally
 * (n8n.stop()). Only the main process: n8n gives its task runners an environment of their own.
 */
function n8nEnv(o, mode, label) {
	const env = { N8N_LOG_LEVEL: process.env.BENCH_N8N_LOG_LEVEL || 'warn', EXECUTIONS_DATA_PRUNE: 'false' };
	if (mode === 'off') env.EXECUTIONS_DATA_SAVE_ON_SUCCESS = 'none';
	if (o.profileDir) env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir="${path.join(o.profileDir, label)}"`;
	return env;
}

/** Where --profile's CPU profiles are and how to open them; a missing one means n8n did not exit normally. */
function listProfiles(dir) {
	const labels = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
	if (labels.length === 0) log(`--profile: no CPU profile in ${path.relative(ROOT, dir)} (no n8n was started, or none exited normally)`);
	for (const label of labels) {
		const files = fs.readdirSync(path.join(dir, label)).filter((f) => f.endsWith('.cpuprofile'));
		log(`CPU profile of n8n's main process, ${label}: ${files.map((f) => path.relative(ROOT, path.join(dir, label, f))).join(', ') || 'none'}`);
	}
	// Node names them CPU.<date>.<time>.<pid>.<thread>.<n>: thread 0 is n8n's main thread.
	if (labels.length > 0) log('thread 0 (CPU.*.*.<pid>.0.*) is the main thread; open one in Chrome DevTools (Performance → Load profile) or with `npx speedscope <file>`');
}

async function settleRss(pid) {
	const t0 = Date.now();
	let last = procStatusKb(pid, 'VmRSS');
	let stableSince = Date.now();
	while (Date.now() - t0 < 25000) {
		await sleep(500);
		const now = procStatusKb(pid, 'VmRSS');
		if (Math.abs(now - last) > last * 0.02) {
			stableSince = Date.now();
			last = now;
		}
		if (Date.now() - t0 > 10000 && Date.now() - stableSince > 4000) return;
	}
}

/**
 * Peak RSS in a fresh n8n: one run of one workflow (VmHWM reset just before it). A long-lived n8n keeps the heap of earlier runs, so the shared-instance
 * figure mostly shows what earlier runs left; this one shows what one Return All needs.
 */
async function freshPeakRss(o, tarball, sandbox, mode, variant) {
	const n8n = await startN8n({ version: N8N_VERSION, communityTarballs: [tarball], env: n8nEnv(o, mode, `fresh-saving-${mode}-${variant}`) });
	try {
		const creds = await createCredentials(n8n, sandbox);
		const p = `rss-${variant}`;
		const workflow =
			variant === 'http'
				? wf.b1Http(p, creds.header, sandbox.info.apiBase)
				: wf.b1Ours(p, creds.recruiting, {}, variant === 'simple' ? 1.1 : 1);
		await deploy(n8n, workflow);
		await waitForWebhook(n8n, p);
		// n8n's RSS falls by ~40 % some 10 s after start (V8 gives startup memory back): wait for it,
		// or the variants would start from different baselines.
		await settleRss(n8n.proc.child.pid);
		const probe = rssProbe(n8n.proc.child.pid); // resets VmHWM: the startup peak is not the run's
		const wallMs = await postWebhook(n8n, p, {});
		const rss = probe.stop();
		return { idleMb: rss.beforeMb, peakMb: rss.peakMb, wallMs };
	} finally {
		await n8n.stop();
		fs.rmSync(n8n.userFolder, { recursive: true, force: true });
	}
}

// ---------------------------------------------------------------- B6

/**
 * A picker search as the editor runs it (n8n's resource-locator endpoint): one candidate found by
 * e-mail among all applications (the last one the service lists, so every page is read), and the
 * first screen of a name many candidates share. Calls, requests to the service, time.
 */
async function benchB6(ctx) {
	const { n8n, sandbox, creds, o } = ctx;
	const lastPage = Math.ceil(o.applications / 100);
	const res = await fetch(`${sandbox.info.apiBase}/applications?page=${lastPage}&page_size=100`, {
		headers: { authorization: `Bearer ${sandbox.info.token}` },
	});
	const items = (await res.json()).items;
	const target = items[items.length - 1].candidate;
	const search = (filter, paginationToken) => searchCandidates(n8n, creds, filter, paginationToken);
	const runs = { byEmail: [], byFirstName: [] };
	for (let round = 0; round < o.runs; round++) {
		await sandbox.control('DELETE', '/requests');
		let t0 = performance.now();
		let calls = 0;
		let found = false;
		let token;
		do {
			const page = await search(target.email, token);
			calls++;
			found = page.results.some((r) => r.value === target.id);
			token = page.paginationToken;
		} while (!found && token);
		let requests = (await sandbox.control('GET', '/requests')).length;
		runs.byEmail.push({ ms: performance.now() - t0, calls, requests, found });
		await sandbox.control('DELETE', '/requests');
		t0 = performance.now();
		const first = await search(target.first_name);
		requests = (await sandbox.control('GET', '/requests')).length;
		runs.byFirstName.push({ ms: performance.now() - t0, calls: 1, requests, results: first.results.length });
		log(`B6 #${round + 1}: e-mail ${fmt(runs.byEmail[round].ms)} ms / ${calls} calls / ${runs.byEmail[round].requests} req; first name ${fmt(runs.byFirstName[round].ms)} ms / ${requests} req`);
	}
	return { applications: o.applications, target: target.email, firstName: target.first_name, runs };
}

// ---------------------------------------------------------------- B2

async function benchB2(ctx, mode) {
	const { n8n, sandbox, creds, o } = ctx;
	const saving = mode === 'on';
	const ids = await candidateIds(sandbox, o.b2Items);
	const variants = [
		{ key: 'ours', label: 'Recruiting node, Candidate Get (the default: up to 64 items in flight)', id: await deploy(n8n, wf.b2Ours('b2-ours', creds.recruiting)), path: 'b2-ours', node: 'Recruiting' },
		{ key: 'http', label: 'HTTP Request node, GET per item', id: await deploy(n8n, wf.b2Http('b2-http', creds.header, sandbox.info.apiBase)), path: 'b2-http', node: 'HTTP Request' },
	];
	variants.push({
		key: 'ours4',
		label: 'Recruiting node, Candidate Get, Request Options → Concurrency 4',
		id: await deploy(n8n, wf.b2Ours('b2-ours4', creds.recruiting, { requestOptions: { concurrency: 4 } })),
		path: 'b2-ours4',
		node: 'Recruiting',
	});
	for (const v of variants) await waitForWebhook(n8n, v.path);
	const pid = n8n.proc.child.pid;
	const results = Object.fromEntries(variants.map((v) => [v.key, []]));
	const once = async (v, check) => {
		await sandbox.control('DELETE', '/requests');
		const c0 = await sandbox.connections();
		const probe = rssProbe(pid);
		const wallMs = await postWebhook(n8n, v.path, { ids });
		const rss = probe.stop();
		const r = { wallMs, peakRssMb: rss.peakMb };
		if (saving) {
			const e = await latestExecution(n8n, v.id, { includeData: true, after: v.lastExec ?? null });
			v.lastExec = e.id;
			r.execMs = execMs(e);
			r.nodeMs = nodeTime(e, v.node);
			r.items = nodeItems(e, v.node);
			if (check && r.items !== ids.length) throw new Error(`B2 ${v.key}: ${r.items} items`);
		}
		r.requests = (await sandbox.control('GET', '/requests')).length;
		r.connections = (await sandbox.connections()) - c0 - 2;
		return r;
	};
	for (const v of variants) {
		const r = await once(v, true);
		log(`B2/${mode} warm-up ${v.key}: node ${fmt(r.nodeMs)} ms, wall ${fmt(r.wallMs)} ms, ${r.requests} requests`);
	}
	for (let round = 0; round < o.runs; round++) {
		for (const v of rotated(variants, round)) {
			const r = await once(v, false);
			results[v.key].push(r);
			log(`B2/${mode} #${round + 1} ${v.key}: node ${fmt(r.nodeMs)} ms, exec ${fmt(r.execMs)} ms, wall ${fmt(r.wallMs)} ms, ${r.requests} req, ${r.connections} conn`);
		}
	}
	return { mode, items: ids.length, variants: variants.map((v) => ({ key: v.key, label: v.label })), results };
}

// ---------------------------------------------------------------- B4

async function benchB4(ctx) {
	const { n8n, sandbox, creds, o } = ctx;
	const { Webhook: Signer } = require(path.join(ROOT, 'node_modules/standardwebhooks'));
	const remoteId = sandbox.info.webhookIds[0];
	const triggerUuid = crypto.randomUUID();
	const variants = [
		{ key: 'trigger', label: 'Recruiting Trigger', id: await deploy(n8n, wf.b4Trigger(triggerUuid, creds.recruiting, remoteId, ['candidate.updated'])), url: `${n8n.webhookUrl}/webhook/${triggerUuid}/webhook` },
		{ key: 'webhook', label: "n8n's Webhook node", id: await deploy(n8n, wf.b4Webhook('b4-plain')), url: `${n8n.webhookUrl}/webhook/b4-plain` },
		// Reference, not the target: the same Webhook node authenticating with a credential (Header
		// Auth). A workflow with a credentialed node pays n8n's pre-execution credential check.
		{
			key: 'webhookAuth',
			label: "n8n's Webhook node with Header Auth (a credential)",
			id: await deploy(n8n, wf.b4Webhook('b4-auth', creds.header)),
			url: `${n8n.webhookUrl}/webhook/b4-auth`,
			headers: { authorization: `Bearer ${sandbox.info.token}` },
		},
	];
	// The trigger's activation points the sandbox webhook at n8n; its key signs our deliveries.
	let secret;
	let rec;
	for (let i = 0; i < 100 && !secret; i++) {
		rec = (await sandbox.control('GET', `/records/webhooks/${remoteId}`)).data;
		if (rec.endpoint && rec.endpoint.includes(triggerUuid)) secret = rec.signing_key;
		else await sleep(100);
	}
	if (!secret) throw new Error(`B4: the trigger did not point the sandbox webhook ${remoteId} at n8n (its endpoint: ${rec && rec.endpoint}, status: ${rec && rec.status})`);
	const signer = new Signer(secret);
	const object = { id: 'can_bench', first_name: 'Bench', last_name: 'Mark', email: 'bench@mail.example', tags: [], rating: 3 };
	const delivery = () => signedDelivery(signer, { object });
	const send = async (v, d) => {
		const res = await fetch(v.url, { method: 'POST', headers: { ...d.headers, ...v.headers }, body: d.body });
		await res.arrayBuffer();
		if (res.status !== 200) throw new Error(`B4 ${v.key}: HTTP ${res.status}`);
	};
	const lastId = async (v) => {
		const list = await n8n.api('GET', `/executions?workflowId=${v.id}&limit=1`);
		return list.data[0] ? list.data[0].id : '0';
	};
	const waitFor = async (v, after, count) => {
		for (let i = 0; i < 600; i++) {
			const es = await executionsSince(n8n, v.id, after, false);
			if (es.filter((e) => e.stoppedAt).length >= count) return es;
			await sleep(100);
		}
		throw new Error(`B4 ${v.key}: executions did not finish`);
	};
	const msgIdsIn = (e) => JSON.stringify(e.data).match(/msg_[0-9a-f]{24}/g) || [];

	const latency = async (v, n) => {
		const after = await lastId(v);
		const sent = new Map();
		for (let i = 0; i < n; i++) {
			const d = delivery();
			// Sub-millisecond send time: stoppedAt has whole milliseconds, and whole-millisecond
			// differences of ~10 ms made the ratio jump in steps of ~10 %.
			sent.set(d.msgId, performance.timeOrigin + performance.now());
			await send(v, d);
			await sleep(50);
		}
		await waitFor(v, after, n);
		const es = await executionsSince(n8n, v.id, after, true);
		const lat = [];
		const inner = [];
		for (const e of es) {
			const id = msgIdsIn(e).find((m) => sent.has(m));
			if (!id) continue;
			lat.push(Date.parse(e.stoppedAt) - sent.get(id));
			inner.push(execMs(e));
		}
		if (lat.length !== n) throw new Error(`B4 ${v.key}: matched ${lat.length} of ${n} executions`);
		return { p50: median(lat), p90: percentile(lat, 90), execP50: median(inner), samples: lat };
	};
	const throughput = async (v, n, senders) => {
		const after = await lastId(v);
		const ds = Array.from({ length: n }, delivery);
		let next = 0;
		const t0 = Date.now();
		await Promise.all(
			Array.from({ length: senders }, async () => {
				while (next < ds.length) await send(v, ds[next++]);
			}),
		);
		const acceptedMs = Date.now() - t0;
		const es = await waitFor(v, after, n);
		const end = Math.max(...es.map((e) => Date.parse(e.stoppedAt)));
		const ms = end - t0;
		return { perSecond: (n * 1000) / ms, ms, acceptedPerSecond: (n * 1000) / acceptedMs, executions: es.length };
	};

	// Warm-up, not measured: one whole round of each variant (key fetch, JIT, n8n's and sqlite's
	// caches). With 5 deliveries each, the first measured round was ~30 % slower than the rest for
	// whichever variant came first, and the rotation always puts the trigger first there.
	for (const v of variants) {
		await latency(v, o.b4Latency);
		await throughput(v, o.b4Throughput, o.b4Senders);
	}
	const lat = Object.fromEntries(variants.map((v) => [v.key, []]));
	const thr = Object.fromEntries(variants.map((v) => [v.key, []]));
	for (let round = 0; round < o.runs; round++) {
		for (const v of rotated(variants, round)) {
			const l = await latency(v, o.b4Latency);
			lat[v.key].push(l);
			log(`B4 #${round + 1} ${v.key}: latency p50 ${fmt(l.p50, 1)} ms (p90 ${fmt(l.p90, 1)}, n8n exec p50 ${fmt(l.execP50, 1)})`);
		}
		for (const v of rotated(variants, round)) {
			const t = await throughput(v, o.b4Throughput, o.b4Senders);
			thr[v.key].push(t);
			log(`B4 #${round + 1} ${v.key}: ${fmt(t.perSecond, 1)} executions/s (${o.b4Throughput} in ${t.ms} ms; accepted ${fmt(t.acceptedPerSecond, 1)}/s)`);
		}
	}
	return { variants: variants.map((v) => ({ key: v.key, label: v.label })), latency: lat, throughput: thr, n: o.b4Latency, nThroughput: o.b4Throughput, senders: o.b4Senders };
}

// ---------------------------------------------------------------- B7

/**
 * B7: 2,000 signed deliveries from 16 senders into queue mode with two webhook processes, 5 %
 * re-delivered to the other process, once per de-duplication recipe. The idempotency table is the
 * README's recipe (its run asserts exactly once); n8n's Remove Duplicates is measured for the record.
 */
// B7 runs the queue-mode load test as its own process, each variant's report into build/bench/
// (not queueLoad.js's own default files, which the reliability report of `npm test` reads).
const QUEUE_LOAD = 'test/n8n/reliability/queueLoad.js';
const B7_VARIANTS = [
	{
		key: 'idempotencyTable',
		label: 'Idempotency table: Postgres node `INSERT … ON CONFLICT (message_id) DO NOTHING RETURNING`, then If; worker concurrency 10 (n8n default)',
		options: { recipe: 'idempotency-table' },
	},
	{
		key: 'removeDuplicates',
		label: "n8n's Remove Duplicates (Remove Items Processed in Previous Executions, on `messageId`); worker concurrency 10 (n8n default)",
		options: { recipe: 'remove-duplicates' },
	},
	{
		key: 'removeDuplicatesSerial',
		label: "n8n's Remove Duplicates, one worker with concurrency 1 (`N8N_CONCURRENCY_PRODUCTION_LIMIT=1`)",
		options: { recipe: 'remove-duplicates', workerConcurrency: 1 },
	},
];

function benchB7() {
	const results = [];
	for (const v of B7_VARIANTS) {
		const file = path.join(ROOT, 'build', 'bench', `b7-${v.key}.json`);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.rmSync(file, { force: true });
		const args = ['--no-build', '--recipe', v.options.recipe, '--out', file];
		if (v.options.workerConcurrency) args.push('--worker-concurrency', String(v.options.workerConcurrency));
		log(`B7 ${v.key}: node ${QUEUE_LOAD} ${args.join(' ')}`);
		const run = spawnSync(process.execPath, [path.join(ROOT, QUEUE_LOAD), ...args], { cwd: ROOT, stdio: 'inherit' });
		if (!fs.existsSync(file)) throw new Error(`B7 ${v.key}: no report (exit ${run.status})`);
		const r = JSON.parse(fs.readFileSync(file, 'utf8'));
		results.push({ key: v.key, label: v.label, exitCode: run.status, ...r });
		log(`B7 ${v.key}: lost ${r.counts.lost}, duplicated ${r.counts.duplicated}, ${r.counts.acceptedPerSecond} deliveries/s accepted, ${Math.round(r.durationMs / 1000)} s`);
	}
	return results;
}

// ---------------------------------------------------------------- main

async function main() {
	// `--wan`: the WAN table (wan.js, its own options), written into its own section of BENCHMARKS.md.
	if (process.argv.includes('--wan')) return await require('./wan').main(process.argv.slice(2).filter((a) => a !== '--wan'));
	const { o, render, outGiven } = parseOptions(process.argv.slice(2));
	// `--render report.json`: only rewrite BENCHMARKS.md (or --out) from a saved report (e.g. after editing analysis.js).
	if (render) {
		const saved = JSON.parse(fs.readFileSync(render, 'utf8'));
		const file = outGiven ? o.out : saved.options.out;
		const rlSection = saved.rl ? rl.renderRateLimited(saved.rl, saved.git) : null;
		if (saved.rlOnly) rl.writeRateLimitedSection(file, rlSection);
		else fs.writeFileSync(file, rl.keepRateLimitedSection(file, require('./report').renderReport(saved), rlSection));
		return;
	}
	const t0 = Date.now();
	const report = { startedAt: new Date().toISOString(), options: o };
	if (o.profile) o.profileDir = path.join(ROOT, 'build/profiles', report.startedAt.replace(/[:.]/g, '-'));
	report.machine = {
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0] && os.cpus()[0].model,
		memGiB: Math.round(os.totalmem() / 2 ** 30),
		kernel: os.release(),
		benchNode: process.version,
	};
	report.git = sh('git', ['rev-parse', '--short', 'HEAD']).trim();

	log('building and packing');
	// What goes into the tarball when the work tree differs from the commit: a digest of that diff.
	const diff = sh('git', ['diff', 'HEAD', '--', 'nodes', 'credentials', 'package.json']);
	report.dirty = diff.trim() === '' ? false : `diff ${crypto.createHash('sha256').update(diff).digest('hex').slice(0, 10)}`;
	const { tarball, b5 } = await packPackage();
	report.b5 = b5;

	// RL alone: its runs mostly wait on the limiter, so no waiting for a quiet machine (the load is
	// recorded), and only its section of the file is rewritten.
	if (o.only.length === 1 && o.only[0] === 'RL') {
		report.rlOnly = true;
		report.rl = { ...(await rl.benchRateLimited({ root: ROOT, tarball, version: N8N_VERSION, o, log })), dirty: report.dirty };
		report.totalSeconds = Math.round((Date.now() - t0) / 1000);
		if (o.json) fs.writeFileSync(o.json, JSON.stringify(report, null, 2));
		rl.writeRateLimitedSection(o.out, rl.renderRateLimited(report.rl, report.git));
		log(`wrote the RL section of ${path.relative(ROOT, o.out)} in ${report.totalSeconds}s`);
		return;
	}

	report.loadBefore = await waitForQuietMachine(o);
	log(`load ${report.loadBefore.one} (1 min)`);

	if (o.only.includes('B3')) {
		log('B3 signature verification');
		report.b3 = signatureBench(ROOT);
	}

	const needN8n = o.only.some((b) => ['B1', 'B2', 'B4', 'B6', 'B8'].includes(b));
	if (needN8n) {
		const sandbox = await startSandboxProcess({
			root: ROOT,
			port: await freePort(),
			seed: { applications: o.applications, candidates: Math.max(50, o.b2Items) },
		});
		report.sandbox = { applications: sandbox.info.counts.applications, candidates: sandbox.info.counts.candidates };
		const probe = await fetch(`${sandbox.info.apiBase}/applications?page=1&page_size=100`, {
			headers: { authorization: `Bearer ${sandbox.info.token}` },
		});
		report.sandbox.pageBytes = (await probe.arrayBuffer()).byteLength;
		try {
			report.b1 = {};
			report.b2 = {};
			for (const mode of o.saving) {
				log(`starting n8n ${N8N_VERSION} (saving ${mode})`);
				const n8n = await startN8n({ version: N8N_VERSION, communityTarballs: [tarball], env: n8nEnv(o, mode, `saving-${mode}`) });
				report.n8n = { version: N8N_VERSION, node: sh(n8n.install.nodeBin, ['--version']).trim() };
				try {
					const creds = await createCredentials(n8n, sandbox);
					const ctx = { n8n, sandbox, creds, o };
					if (o.only.includes('B1')) report.b1[mode] = await benchB1(ctx, mode);
					// B2 is small (1,000 items): saving hardly matters there, and with it off n8n records no times.
					if (o.only.includes('B2') && mode === 'on') report.b2[mode] = await benchB2(ctx, mode);
					if (o.only.includes('B4') && mode === 'on') report.b4 = await benchB4(ctx);
					if (o.only.includes('B6') && mode === 'on') report.b6 = await benchB6(ctx);
					if (o.only.includes('B8') && mode === 'on') report.b8 = await benchB8({ ...ctx, log });
				} catch (error) {
					log(`n8n's log (last lines) before its folder is removed:\n${fs.readFileSync(n8n.logFile, 'utf8').split('\n').slice(-40).join('\n')}`);
					throw error;
				} finally {
					await n8n.stop();
					fs.rmSync(n8n.userFolder, { recursive: true, force: true });
				}
				if (o.only.includes('B1')) {
					report.b1[mode].fresh = {};
					for (const variant of ['ours4', 'simple', 'http']) {
						const r = await freshPeakRss(o, tarball, sandbox, mode, variant);
						report.b1[mode].fresh[variant] = r;
						log(`B1/${mode} fresh n8n, ${variant}: peak RSS ${fmt(r.peakMb)} MB (idle ${fmt(r.idleMb)} MB), POST→answer ${fmt(r.wallMs)} ms`);
					}
				}
			}
		} finally {
			sandbox.stop();
		}
	}
	if (o.only.includes('B7')) {
		report.b7 = { loadBefore: loadavg(), variants: benchB7() };
	}
	if (o.only.includes('RL')) {
		report.rl = { ...(await rl.benchRateLimited({ root: ROOT, tarball, version: N8N_VERSION, o, log })), dirty: report.dirty };
	}
	report.loadAfter = loadavg();
	report.totalSeconds = Math.round((Date.now() - t0) / 1000);
	if (o.json) fs.writeFileSync(o.json, JSON.stringify(report, null, 2));
	const { renderReport } = require('./report');
	const rendered = require('./wan').keepWanSection(o.out, renderReport(report));
	fs.writeFileSync(o.out, rl.keepRateLimitedSection(o.out, rendered, report.rl ? rl.renderRateLimited(report.rl, report.git) : null));
	log(`wrote ${path.relative(ROOT, o.out)} in ${report.totalSeconds}s`);
	if (o.profile) listProfiles(o.profileDir);
}


if (require.main === module) {
	main().then(
		() => process.exit(0),
		(e) => {
			console.error(e && e.stack ? e.stack : e);
			process.exit(1);
		},
	);
}
