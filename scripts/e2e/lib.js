'use strict';
/**
 * Shared pieces of the end-to-end suite (test/n8n/e2e/run.js), the demo (scripts/demo.js) and the
 * screenshot script: build + pack the package, start the sandbox in-process, talk to its control API, create
 * the Recruiting API credential in n8n, and a tiny check runner that counts passes and failures.
 *
 * Plain Node (CommonJS, built-ins only); the sandbox is the compiled one in build/sandbox.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { log: n8nLog, sleep, run, runOk, onExit } = require('../n8n/cache');

const ROOT = path.resolve(__dirname, '..', '..');
const SANDBOX_BUILD = path.join(ROOT, 'build', 'sandbox', 'sandbox');
const CREDENTIAL_NAME = 'Recruiting sandbox';
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const log = (...args) => n8nLog('e2e', ...args);

/** `npm run build` and `npm run build:sandbox` (each skippable). */
async function buildAll({ nodes = true, sandbox = true } = {}) {
	const t = Date.now();
	if (nodes) await runOk(NPM, ['run', 'build'], { cwd: ROOT });
	if (sandbox) await runOk(NPM, ['run', 'build:sandbox'], { cwd: ROOT });
	log(`built in ${((Date.now() - t) / 1000).toFixed(1)}s`);
}

/**
 * `npm pack` into `dir`; returns { tarball, files, dir, unpackedSize }. Without `dir`, a fresh temp dir that is
 * removed when this process exits (n8n copies the package when it installs it).
 */
async function packPackage(dir) {
	if (!dir) {
		const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-pack-'));
		onExit(() => fs.rmSync(tmp, { recursive: true, force: true }));
		dir = tmp;
	}
	fs.mkdirSync(dir, { recursive: true });
	const r = await runOk(NPM, ['pack', '--pack-destination', dir, '--json', '--loglevel=error'], { cwd: ROOT });
	const info = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
	const tarball = path.join(dir, info[0].filename);
	log(`packed ${info[0].filename} (${info[0].entryCount} files, ${(info[0].size / 1024).toFixed(0)} KiB)`);
	return { tarball, files: info[0].files.map((f) => f.path), dir, unpackedSize: info[0].unpackedSize };
}

function requireSandbox() {
	const index = path.join(SANDBOX_BUILD, 'index.js');
	if (!fs.existsSync(index)) throw new Error(`${index} is missing: run npm run build:sandbox`);
	return {
		...require(index),
		Store: require(path.join(SANDBOX_BUILD, 'store.js')).Store,
		seed: require(path.join(SANDBOX_BUILD, 'seed.js')).seed,
	};
}

/**
 * The sandbox, in this process, plus a read-only copy of its seed (same sizes, same ids: the seed
 * is deterministic) so tests can pick records without an endpoint that lists them.
 */
async function startSandbox({ port = 0, seed = {}, companyId = 'cmp_demo', token = 'sandbox-token', host, serviceRetries = false } = {}) {
	const sb = requireSandbox();
	// The suites count deliveries and executions: a failed event delivery is tried once unless a check
	// sets a schedule (pairChecks.js). The demo retries as the service does.
	const sandbox = await sb.startSandbox({ port, seed, companyId, token, host, deliveryRetryDelaysMs: serviceRetries ? undefined : [] });
	const seeded = new sb.Store();
	sb.seed(seeded, companyId, seed);
	return { sandbox, seeded, control: makeControl(sandbox.url), apiBase: `${sandbox.url}/v1.0/${encodeURIComponent(companyId)}` };
}

/** Reseeds a sandbox from startSandbox() with other sizes (control API) and its seed copy to match. */
async function reseedSandbox(sb, seed = {}) {
	await sb.control.reset(seed);
	const { Store, seed: seedFn } = requireSandbox();
	sb.seeded = new Store();
	seedFn(sb.seeded, sb.sandbox.companyId, seed);
}

/** The sandbox's HTTP control API (/__sandbox/...). */
function makeControl(url) {
	async function call(method, p, body) {
		const res = await fetch(`${url}/__sandbox${p}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(30000),
		});
		const text = await res.text();
		const parsed = text ? JSON.parse(text) : undefined;
		if (res.status >= 400) throw new Error(`sandbox ${method} ${p} -> ${res.status}: ${text.slice(0, 500)}`);
		return parsed;
	}
	return {
		call,
		info: () => call('GET', '/info'),
		requests: () => call('GET', '/requests'),
		clearRequests: () => call('DELETE', '/requests'),
		record: async (collection, id) => {
			try {
				return (await call('GET', `/records/${collection}/${encodeURIComponent(id)}`)).data;
			} catch (e) {
				if (/-> 404/.test(e.message)) return undefined;
				throw e;
			}
		},
		put: (collection, record) => call('PUT', `/records/${collection}`, record),
		deliver: (input) => call('POST', '/deliver', input),
		deliveries: () => call('GET', '/deliveries'),
		/** GET on the service API itself (as a client sees a record, without the sandbox's internal fields). */
		apiGet: async (p, { companyId = 'cmp_demo', token = 'sandbox-token' } = {}) => {
			const res = await fetch(`${url}/v1.0/${encodeURIComponent(companyId)}${p}`, {
				headers: { authorization: `Bearer ${token}` },
				signal: AbortSignal.timeout(30000),
			});
			if (res.status === 404) return undefined;
			if (res.status >= 400) throw new Error(`sandbox GET ${p} -> ${res.status}: ${await res.text()}`);
			return (await res.json()).data;
		},
		reset: (sizes) => call('POST', '/reset', sizes),
		setFaults: (rules) => call('PUT', '/faults', { rules }),
	};
}

/** Public API: create the Recruiting API credential for a sandbox; returns {id, name}. */
async function createCredential(n8n, { url, companyId, token }, name = CREDENTIAL_NAME) {
	const body = { name, type: 'recruitingApi', data: credentialData({ url, companyId, token }) };
	let r = await n8n.api('POST', '/credentials', body, { raw: true });
	if (r.status === 400 && /allowedDomains/.test(JSON.stringify(r.body))) {
		// n8n 1.x adds allowedHttpRequestDomains/allowedDomains to every credential usable by the
		// HTTP Request node, and its schema then requires allowedDomains unless the mode is given.
		body.data.allowedHttpRequestDomains = 'all';
		r = await n8n.api('POST', '/credentials', body, { raw: true });
	}
	if (r.status >= 400) throw new Error(`POST /api/v1/credentials -> ${r.status}: ${JSON.stringify(r.body)}`);
	return { id: r.body.id, name: r.body.name };
}

function credentialData({ url, companyId, token }) {
	return { baseUrl: url, companyId, accessToken: token };
}

/** Polls `fn` until it returns a truthy value; throws the last error / a timeout naming `what`. */
async function waitFor(what, fn, { timeoutMs = 30000, intervalMs = 150 } = {}) {
	const t0 = Date.now();
	let last;
	for (;;) {
		try {
			const v = await fn();
			if (v) return v;
		} catch (e) {
			last = e;
		}
		if (Date.now() - t0 > timeoutMs) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
		}
		await sleep(intervalMs);
	}
}

/**
 * Executions of a workflow through the public API (newest first), with data.
 *
 * In queue mode n8n's list can leave out, for good, an execution the worker has finished: the list
 * leaves out what main still tracks as running, and n8n 2.41.1's main never stops tracking one
 * whose queue job the worker completed before main began to wait for it (Bull removes a completed
 * job at once, keep-last 0, so Job.finished() finds it in neither set and waits for an event that
 * was already sent). Seen when main is busy at that moment, as when a poll at publishing emits while
 * the publication is still being applied. Where the driver has the database (`n8n.postgres.sql`:
 * the queue stack) such executions are read one by one (GET /executions/{id} does not leave them out).
 */
async function executionsOf(n8n, workflowId) {
	const out = [];
	let cursor;
	do {
		const q = `/executions?workflowId=${workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
		const page = await n8n.api('GET', q);
		out.push(...(page.data || []));
		cursor = page.nextCursor;
	} while (cursor);
	if (!n8n.postgres?.sql) return out;
	const listed = new Set(out.map((e) => String(e.id)));
	for (const id of await endedExecutionIds(n8n, workflowId)) {
		if (listed.has(id)) continue;
		log(`execution ${id} of workflow ${workflowId} has ended in the database but n8n's list leaves it out (main still tracks it as running): read on its own`);
		out.push(await n8n.api('GET', `/executions/${id}?includeData=true`));
	}
	return out.sort((a, b) => Number(b.id) - Number(a.id));
}

/** IDs of a workflow's executions that have ended, from n8n's database (PostgreSQL). */
async function endedExecutionIds(n8n, workflowId) {
	if (!/^[\w-]+$/.test(String(workflowId))) throw new Error(`unexpected workflow id: ${workflowId}`);
	const rows = await n8n.postgres.sql(
		`SELECT id FROM execution_entity WHERE "workflowId" = '${workflowId}' AND "deletedAt" IS NULL AND status NOT IN ('new', 'running', 'waiting')`,
	);
	return String(rows)
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean);
}

/** The items a node output in an execution (run 0, output 0 unless given). */
function nodeItems(execution, nodeName, { run: runIndex = 0, output = 0 } = {}) {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	if (!runs) throw new Error(`node "${nodeName}" did not run; ran: ${Object.keys(execution?.data?.resultData?.runData || {}).join(', ')}`);
	const r = runs[runIndex];
	if (r.error) throw new Error(`node "${nodeName}" failed: ${r.error.message}`);
	return (r.data?.main?.[output] || []).map((i) => i.json);
}

/**
 * A list of named checks run in order. `check(name, fn)` runs fn; a throw is a failure and is
 * printed with its message. `fatal: true` stops the group at its first failure (its later checks
 * are counted as failed, named "not run"), for setup steps everything else depends on.
 */
class Checks {
	constructor(out = process.stdout) {
		this.passed = 0;
		this.failed = 0;
		this.out = out;
		this.prefix = '';
		// Under `npm test`, Jest's real-n8n project (test/n8n) turns every check recorded here into a Jest test.
		this.recordFile = process.env.RECRUITING_CHECKS_FILE;
	}

	/** One check's result, for Jest's n8n project (the counts above are the suite's own summary). */
	record(result) {
		if (this.recordFile) fs.appendFileSync(this.recordFile, `${JSON.stringify(result)}\n`);
	}

	async check(name, fn, { fatal = false } = {}) {
		const full = `${this.prefix}${name}`;
		const t = Date.now();
		try {
			const r = await fn();
			this.passed++;
			const ms = Date.now() - t;
			this.record({ name: full, ok: true, ms });
			this.out.write(`  ok   ${full} (${(ms / 1000).toFixed(1)}s)\n`);
			return r;
		} catch (e) {
			this.failed++;
			const ms = Date.now() - t;
			this.record({ name: full, ok: false, ms, error: e.message, detail: indent(e.stack || String(e), '') });
			this.out.write(`  FAIL ${full} (${(ms / 1000).toFixed(1)}s)\n${indent(e.stack || String(e))}\n`);
			if (fatal) throw new FatalCheck(full, e);
			return undefined;
		}
	}

	/** A failure outside any check (a suite's setup): counted and recorded like a failed check. */
	fail(name, error) {
		this.failed++;
		this.record({ name: `${this.prefix}${name}`, ok: false, error: error.message, detail: indent(error.stack || String(error), '') });
		this.out.write(`  FAIL ${this.prefix}${name}\n${indent(error.stack || String(error))}\n`);
	}

	/** Counts checks that could not run because a fatal one failed. */
	skip(names, reason) {
		for (const n of names) {
			this.failed++;
			this.record({ name: `${this.prefix}${n}`, ok: false, error: `not run: ${reason}` });
			this.out.write(`  FAIL ${this.prefix}${n} (not run: ${reason})\n`);
		}
	}
}

class FatalCheck extends Error {
	constructor(name, cause) {
		super(`${name}: ${cause.message}`);
		this.cause = cause;
	}
}

function indent(s, pad = '       ') {
	return String(s)
		.split('\n')
		.slice(0, 30)
		.map((l) => pad + l)
		.join('\n');
}

/**
 * A delivery as the service sends it: `{ id, version, type, timestamp, data: { object } }` with
 * the three Standard Webhooks headers. `signer` is a `standardwebhooks` Webhook for the key.
 */
function signedDelivery(signer, { type = 'candidate.updated', object = { id: 'can_e2e' }, headers = {} } = {}) {
	const msgId = `msg_${require('crypto').randomBytes(12).toString('hex')}`;
	const at = new Date();
	const body = JSON.stringify({ id: `evt_${msgId}`, version: 1, type, timestamp: at.toISOString(), data: { object } });
	return {
		msgId,
		body,
		headers: {
			'content-type': 'application/json',
			'webhook-id': msgId,
			'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
			'webhook-signature': signer.sign(msgId, at, body),
			...headers,
		},
	};
}

module.exports = {
	ROOT,
	signedDelivery,
	CREDENTIAL_NAME,
	log,
	sleep,
	run,
	runOk,
	buildAll,
	packPackage,
	startSandbox,
	reseedSandbox,
	makeControl,
	createCredential,
	waitFor,
	executionsOf,
	nodeItems,
	Checks,
	FatalCheck,
};
