'use strict';
/**
 * What the benchmark scripts share (run.js, b8-agent.js, wan.js, rateLimited.js): the n8n version,
 * the quiet-machine wait, the packed package, credentials, deploying and calling workflows, reading
 * executions and the sandbox's candidate IDs. Its own module, so no script imports the entry script
 * run.js (they once formed an import circle through it).
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { sleep, loadavg } = require('./lib');
const e2eLib = require('../scripts/e2e/lib');

const ROOT = path.resolve(__dirname, '..');
const N8N_VERSION = '2.41.1';

const log = (...a) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...a);

async function waitForQuietMachine(o) {
	const until = Date.now() + o.loadWaitMin * 60000;
	for (;;) {
		const l = loadavg();
		if (l.one < o.maxLoad) return { ...l, waitedS: 0, quiet: true };
		if (Date.now() > until) {
			log(`load ${l.one} still above ${o.maxLoad} after ${o.loadWaitMin} min: measuring anyway (noted in the report)`);
			return { ...l, quiet: false };
		}
		log(`1-min load ${l.one} >= ${o.maxLoad}: waiting`);
		await sleep(15000);
	}
}

function sh(cmd, args, opts = {}) {
	return execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/** B5: the built package as `npm pack` makes it (scripts/e2e/lib.js); size, files, runtime dependencies. */
async function packPackage() {
	await e2eLib.buildAll();
	const { tarball, files, unpackedSize } = await e2eLib.packPackage(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pack-')));
	const pkg = JSON.parse(sh('tar', ['-xzOf', tarball, 'package/package.json']));
	return {
		tarball,
		b5: {
			tarballBytes: fs.statSync(tarball).size,
			unpackedBytes: unpackedSize,
			files: files.length,
			dependencies: Object.keys(pkg.dependencies || {}),
			peerDependencies: Object.keys(pkg.peerDependencies || {}),
		},
	};
}

/** Our credential (the one way: scripts/e2e/lib.js) and a header credential for the HTTP Request node. */
async function createCredentials(n8n, sandbox, url = sandbox.url) {
	const recruiting = await e2eLib.createCredential(
		n8n,
		{ url, companyId: sandbox.info.companyId, token: sandbox.info.token },
		'Recruiting sandbox',
	);
	const header = await n8n.api('POST', '/credentials', {
		name: 'Sandbox bearer header',
		type: 'httpHeaderAuth',
		data: { name: 'Authorization', value: `Bearer ${sandbox.info.token}` },
	});
	return { recruiting, header };
}

async function deploy(n8n, workflow) {
	const created = await n8n.api('POST', '/workflows', workflow);
	await n8n.api('POST', `/workflows/${created.id}/activate`);
	return created.id;
}

async function postWebhook(n8n, p, body) {
	const t0 = performance.now();
	const res = await fetch(`${n8n.webhookUrl}/webhook/${p}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body ?? {}),
	});
	const text = await res.text();
	const ms = performance.now() - t0;
	if (res.status !== 200) throw new Error(`POST /webhook/${p} -> ${res.status} ${text.slice(0, 500)}`);
	return ms;
}

async function waitForWebhook(n8n, p) {
	for (let i = 0; i < 100; i++) {
		const res = await fetch(`${n8n.webhookUrl}/webhook/${p}`, { method: 'HEAD' }).catch(() => null);
		if (res && res.status !== 404) return;
		await sleep(100);
	}
}

async function latestExecution(n8n, workflowId, { includeData = false, after = null } = {}) {
	for (let i = 0; i < 100; i++) {
		const list = await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=1&includeData=${includeData}`);
		const e = list.data && list.data[0];
		if (e && e.stoppedAt && (after === null || Number(e.id) > Number(after))) return e;
		await sleep(50);
	}
	throw new Error(`no finished execution of workflow ${workflowId}`);
}

async function executionsSince(n8n, workflowId, afterId, includeData) {
	const out = [];
	let cursor = null;
	for (;;) {
		const q = `/executions?workflowId=${workflowId}&limit=250&includeData=${includeData}${cursor ? `&cursor=${cursor}` : ''}`;
		const list = await n8n.api('GET', q);
		let older = false;
		for (const e of list.data) {
			if (Number(e.id) > Number(afterId)) out.push(e);
			else older = true;
		}
		if (older || !list.nextCursor) return out;
		cursor = list.nextCursor;
	}
}

const runDataOf = (e) => (e.data && e.data.resultData && e.data.resultData.runData) || {};
const nodeTime = (e, name) => (runDataOf(e)[name] || []).reduce((s, r) => s + (r.executionTime || 0), 0);
const nodeItems = (e, name) => {
	const runs = runDataOf(e)[name] || [];
	return runs.length ? (runs[0].data.main[0] || []).length : 0;
};
const execMs = (e) => Date.parse(e.stoppedAt) - Date.parse(e.startedAt);

/** One call of the Candidate picker's search as the editor makes it (n8n's resource-locator endpoint). */
async function searchCandidates(n8n, creds, filter, paginationToken) {
	const r = await n8n.rest('POST', '/dynamic-node-parameters/resource-locator-results', {
		path: 'parameters.candidateId',
		nodeTypeAndVersion: { name: 'n8n-nodes-recruiting.recruiting', version: 1.1 },
		currentNodeParameters: { resource: 'candidate', operation: 'get' },
		methodName: 'searchCandidates',
		credentials: { recruitingApi: { id: creds.recruiting.id, name: creds.recruiting.name } },
		filter,
		...(paginationToken && { paginationToken }),
	});
	return r.data && Array.isArray(r.data.results) ? r.data : r;
}

async function candidateIds(sandbox, n) {
	const ids = new Set();
	for (let page = 1; ids.size < n; page++) {
		const r = await fetch(`${sandbox.info.apiBase}/applications?page=${page}&page_size=100`, {
			headers: { authorization: `Bearer ${sandbox.info.token}` },
		});
		const env = await r.json();
		for (const a of env.items) if (ids.size < n) ids.add(a.candidate.id);
		if (!env.meta.has_next_page) break;
	}
	if (ids.size < n) throw new Error(`only ${ids.size} candidates`);
	return [...ids];
}

module.exports = { N8N_VERSION, log, waitForQuietMachine, sh, packPackage, createCredentials, deploy, postWebhook, waitForWebhook, latestExecution, executionsSince, runDataOf, nodeTime, nodeItems, execMs, searchCandidates, candidateIds };
