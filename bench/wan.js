'use strict';
/**
 * `npm run bench -- --wan`: the nodes where users are. Loopback hides what a request costs, so
 * n8n 2.41.1 reaches the sandbox through a TLS front (a throwaway CA made here, trusted by n8n
 * through NODE_EXTRA_CA_CERTS; nothing is committed) behind a userland delay proxy that holds
 * every chunk half a round trip each way and a new connection's first bytes one round trip more
 * (the TCP handshake): this kernel has no traffic shaping. Medians of --runs rounds per round trip.
 *
 *   npm run bench -- --wan [--rtt 0,20,50] [--runs 3] [--applications 20000] [--items 1000]
 *        [--max-load 1.0] [--load-wait-min 10] [--out BENCHMARKS.md] [--json file]
 */
const fs = require('fs');
const os = require('os');
const net = require('net');
const tls = require('tls');
const path = require('path');
const { parseCliArgs } = require('../scripts/cliArgs');
const { execFileSync } = require('child_process');
const { startN8n } = require('../scripts/n8n/instance');
const { freePort } = require('../scripts/n8n/cache');
const { median, loadavg, startSandboxProcess, fmt } = require('./lib');
const wf = require('./workflows');

const ROOT = path.resolve(__dirname, '..');
const log = (...a) => console.log(`[wan ${new Date().toISOString().slice(11, 19)}]`, ...a);
const START = '<!-- wan:start -->';
const END = '<!-- wan:end -->';

/** A CA and a server certificate for 127.0.0.1, made with openssl in a temporary folder. */
function throwawayCa(dir) {
	const ssl = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=n8n-nodes-recruiting bench CA');
	ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
	fs.writeFileSync(path.join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
	ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.cnf');
	return {
		caFile: path.join(dir, 'ca.pem'),
		key: fs.readFileSync(path.join(dir, 'server.key')),
		cert: fs.readFileSync(path.join(dir, 'server.pem')),
	};
}

/** Writes what `from` sends to `to` `delayMs` later, in order; the first chunk `extraMs` later still. */
function delayedPipe(from, to, delayMs, extraMs) {
	if (delayMs <= 0 && extraMs <= 0) return void from.pipe(to);
	const queue = [];
	let timer = null;
	let lastAt = 0;
	const pump = () => {
		timer = null;
		const now = performance.now();
		while (queue.length > 0 && queue[0].at <= now + 0.5) {
			const { chunk } = queue.shift();
			if (chunk === null) to.end();
			else to.write(chunk);
		}
		if (queue.length > 0) timer = setTimeout(pump, queue[0].at - now);
	};
	const push = (chunk) => {
		lastAt = Math.max(performance.now() + delayMs + extraMs, lastAt);
		extraMs = 0;
		queue.push({ at: lastAt, chunk });
		if (timer === null) timer = setTimeout(pump, lastAt - performance.now());
	};
	from.on('data', push);
	from.on('end', () => push(null));
}

/**
 * client → delay proxy (`rttMs`, changeable between rounds) → TLS front → sandbox; one sandbox
 * connection per client connection, so the sandbox's connection count is the client's.
 */
async function startWanFront(target, certs) {
	const front = tls.createServer({ key: certs.key, cert: certs.cert }, (secure) => {
		const backend = net.connect(target.port, target.host);
		secure.pipe(backend).pipe(secure);
		const close = () => (secure.destroy(), backend.destroy());
		secure.on('error', close);
		backend.on('error', close);
	});
	await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve));
	const state = { rttMs: 0 };
	const proxy = net.createServer((client) => {
		const upstream = net.connect(front.address().port, '127.0.0.1');
		const half = state.rttMs / 2;
		delayedPipe(client, upstream, half, state.rttMs);
		delayedPipe(upstream, client, half, 0);
		const close = () => (client.destroy(), upstream.destroy());
		client.on('error', close);
		upstream.on('error', close);
		client.on('close', () => upstream.end());
	});
	await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	return {
		url: `https://127.0.0.1:${proxy.address().port}`,
		setRtt: (ms) => (state.rttMs = ms),
		close: () => (proxy.close(), front.close()),
	};
}

/** The variants: a workflow each (Return All, 1,000 × Get) or the picker search. */
function variantsOf(creds, apiBase, o) {
	const all = `Return All ${o.applications / 1000}k`;
	const gets = `${o.items.toLocaleString('en')} × Candidate Get`;
	return [
		{ key: 'returnAll', label: `${all}: ours (default)`, workflow: (p) => wf.b1Ours(p, creds.recruiting) },
		{ key: 'returnAll4', label: `${all}: ours, Pages in Flight 4 (the old default)`, workflow: (p) => wf.b1Ours(p, creds.recruiting, { requestOptions: { pagesInFlight: 4 } }) },
		{ key: 'returnAllHttp', label: `${all}: HTTP Request path (page parameter) + Split Out`, workflow: (p) => wf.b1Http(p, creds.header, apiBase, 'page') },
		{ key: 'picker', label: `Candidate picker: one e-mail among ${o.applications / 1000}k applications (until found)` },
		{ key: 'get', label: `${gets}: ours (default)`, workflow: (p) => wf.b2Ours(p, creds.recruiting), ids: true },
		{ key: 'getHttp', label: `${gets}: HTTP Request node`, workflow: (p) => wf.b2Http(p, creds.header, apiBase), ids: true },
	];
}

/** n8n's API answers 503 "Database is not ready" now and then on a busy machine: ask again. */
async function retried(call) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await call();
		} catch (error) {
			if (attempt >= 5 || !/-> 503/.test(String(error && error.message))) throw error;
			log(`n8n answered 503, asking again (${attempt})`);
			await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
		}
	}
}

async function main(argv) {
	const a = parseCliArgs(
		__filename,
		{
			rtt: { type: 'string', default: '0,20,50' },
			runs: { type: 'string', default: '3' },
			applications: { type: 'string', default: '20000' },
			items: { type: 'string', default: '1000' },
			'max-load': { type: 'string', default: '1.0' },
			'load-wait-min': { type: 'string', default: '10' },
			out: { type: 'string', default: path.join(ROOT, 'BENCHMARKS.md') },
			json: { type: 'string' },
			only: { type: 'string' },
		},
		argv,
	);
	const run = require('./setup');
	const o = { rtts: a.rtt.split(',').map(Number), runs: Number(a.runs), applications: Number(a.applications), items: Number(a.items), maxLoad: Number(a['max-load']), loadWaitMin: Number(a['load-wait-min']) };
	const report = { startedAt: new Date().toISOString(), git: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim(), options: o };
	log('building and packing');
	// What goes into the tarball when the work tree differs from the commit: a digest of that diff.
	const diff = execFileSync('git', ['diff', 'HEAD', '--', 'nodes', 'credentials', 'package.json'], { cwd: ROOT, encoding: 'utf8' });
	report.dirty = diff.trim() === '' ? false : `diff ${require('crypto').createHash('sha256').update(diff).digest('hex').slice(0, 10)}`;
	const { tarball } = await run.packPackage();
	report.loadBefore = await run.waitForQuietMachine(o);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-wan-'));
	const certs = throwawayCa(dir);
	const sandbox = await startSandboxProcess({ root: ROOT, port: await freePort(), seed: { applications: o.applications, candidates: o.items } });
	const wan = await startWanFront({ host: '127.0.0.1', port: Number(new URL(sandbox.url).port) }, certs);
	const apiBase = wan.url + sandbox.info.apiBase.slice(sandbox.url.length);
	const n8n = await startN8n({
		version: run.N8N_VERSION,
		communityTarballs: [tarball],
		env: { N8N_LOG_LEVEL: 'warn', EXECUTIONS_DATA_PRUNE: 'false', NODE_EXTRA_CA_CERTS: certs.caFile },
	});
	try {
		const creds = await run.createCredentials(n8n, sandbox, wan.url);
		const ids = await run.candidateIds(sandbox, o.items);
		const lastPage = Math.ceil(o.applications / 100);
		const page = await (await fetch(`${sandbox.info.apiBase}/applications?page=${lastPage}&page_size=100`, { headers: { authorization: `Bearer ${sandbox.info.token}` } })).json();
		const target = page.items[page.items.length - 1].candidate;
		let variants = variantsOf(creds, apiBase, o);
		if (a.only) variants = variants.filter((v) => a.only.split(',').includes(v.key));
		for (const v of variants) {
			if (!v.workflow) continue;
			v.path = `wan-${v.key}`;
			v.id = await run.deploy(n8n, v.workflow(v.path));
			await run.waitForWebhook(n8n, v.path);
		}
		const once = async (v) => {
			await sandbox.control('DELETE', '/requests');
			const c0 = await sandbox.connections();
			const t0 = performance.now();
			let r;
			if (v.key === 'picker') {
				let token;
				let calls = 0;
				let found = false;
				do {
					const result = await run.searchCandidates(n8n, creds, target.email, token);
					calls++;
					found = result.results.some((x) => x.value === target.id);
					token = result.paginationToken;
				} while (!found && token);
				if (!found) throw new Error('picker: the candidate was not found');
				r = { ms: performance.now() - t0, calls };
			} else {
				await run.postWebhook(n8n, v.path, v.ids ? { ids } : {});
				const e = await retried(() => run.latestExecution(n8n, v.id, { after: v.lastExec ?? null }));
				v.lastExec = e.id;
				if (e.status !== 'success') throw new Error(`${v.key}: execution ${e.id} ${e.status}`);
				r = { ms: run.execMs(e), wallMs: performance.now() - t0 };
			}
			r.requests = (await sandbox.control('GET', '/requests')).length;
			r.connections = (await sandbox.connections()) - c0 - 2;
			return r;
		};
		report.results = {};
		for (const rtt of o.rtts) {
			wan.setRtt(rtt);
			report.results[rtt] = Object.fromEntries(variants.map((v) => [v.key, []]));
			// One warm-up round (not counted) at the first round trip: JIT, n8n's caches.
			if (rtt === o.rtts[0]) for (const v of variants) log(`warm-up ${v.key}: ${fmt((await once(v)).ms)} ms`);
			for (let round = 0; round < o.runs; round++) {
				const k = round % variants.length;
				for (const v of [...variants.slice(k), ...variants.slice(0, k)]) {
					const r = await once(v);
					report.results[rtt][v.key].push(r);
					log(`${rtt} ms #${round + 1} ${v.key}: ${fmt(r.ms)} ms, ${r.requests} requests, ${r.connections} connections`);
				}
			}
		}
		report.variants = variants.map((v) => ({ key: v.key, label: v.label }));
		report.n8n = run.N8N_VERSION;
	} finally {
		await n8n.stop();
		fs.rmSync(n8n.userFolder, { recursive: true, force: true });
		wan.close();
		sandbox.stop();
		fs.rmSync(dir, { recursive: true, force: true });
	}
	report.loadAfter = loadavg();
	if (a.json) fs.writeFileSync(a.json, JSON.stringify(report, null, 2));
	const old = fs.existsSync(a.out) ? fs.readFileSync(a.out, 'utf8') : '# Benchmarks\n';
	report.previous = previousRun(old);
	fs.writeFileSync(a.out, withWanSection(old, renderWan(report)));
	log(`wrote the WAN section of ${path.relative(ROOT, a.out)}`);
}

function renderWan(r) {
	const rtts = Object.keys(r.results);
	const cell = (rows) => (rows.length === 0 ? '—' : `${fmt(median(rows.map((x) => x.ms)) / 1000, 2)} s`);
	const at = (rtt, key) => median(r.results[rtt][key].map((x) => x.ms));
	const lines = [
		START,
		'## Where users are: over TLS with an emulated round trip (`npm run bench -- --wan`)',
		'',
		`Run of ${r.startedAt}, git ${r.git}${r.dirty ? ` plus the uncommitted changes to nodes/ of that moment (${r.dirty} of \`git diff HEAD -- nodes credentials package.json\`), as built into the tarball` : ''}; load average (1/5/15 min) before ${r.loadBefore.one}/${r.loadBefore.five}/${r.loadBefore.fifteen}, after ${r.loadAfter.one}/${r.loadAfter.five}/${r.loadAfter.fifteen} (2 cores shared with other work). n8n ${r.n8n} reaches the sandbox (${r.options.applications} applications) through a TLS front with a throwaway CA made at bench time (trusted through \`NODE_EXTRA_CA_CERTS\`) behind a userland delay proxy: half the round trip each way on every chunk, one more round trip before a new connection's first bytes (the TCP handshake). Median of ${r.options.runs} rounds per round trip; execution time is n8n's own (picker: the editor's calls, until the candidate is found).`,
		'',
		`| | ${rtts.map((t) => `${t} ms`).join(' | ')} | requests / connections |`,
		`|---|${rtts.map(() => '---').join('|')}|---|`,
		...r.variants.map((v) => {
			const first = r.results[rtts[0]][v.key][0] || {};
			return `| ${v.label} | ${rtts.map((t) => cell(r.results[t][v.key])).join(' | ')} | ${first.requests ?? '—'} / ${first.connections ?? '—'} |`;
		}),
		'',
	];
	const last = rtts[rtts.length - 1];
	const has = (...keys) => keys.every((k) => r.results[last][k] && r.results[last][k].length > 0);
	const targets = [];
	if (has('returnAll', 'returnAllHttp')) {
		const x = at(last, 'returnAllHttp') / at(last, 'returnAll');
		targets.push(`Return All ≥ 5× faster than the HTTP Request path: ${fmt(x, 1)}× (${x >= 5 ? 'met' : 'missed'})`);
	}
	if (has('get', 'getHttp')) {
		const x = at(last, 'get') / at(last, 'getHttp');
		targets.push(`${r.options.items.toLocaleString('en')} × Candidate Get no slower than the HTTP Request node: ${fmt(x, 2)}× its time (${x <= 1 ? 'met' : 'missed'})`);
	}
	if (has('picker')) targets.push(`picker search ≤ 2 s: ${fmt(at(last, 'picker') / 1000, 2)} s (${at(last, 'picker') <= 2000 ? 'met' : 'missed'})`);
	if (targets.length > 0) lines.push(`Targets at ${last} ms: ${targets.join('; ')}.`, '');
	if (r.previous) lines.push(`The run before this one (${r.previous.run}): ${r.previous.targets}`, '');
	lines.push('Raw (ms, in run order): ' + rtts.map((t) => `${t} ms: ` + r.variants.map((v) => `${v.key} ${r.results[t][v.key].map((x) => fmt(x.ms)).join('/')}`).join(', ')).join('; ') + '.', '', END);
	return lines.join('\n');
}

/** The run date, commit and targets line of the WAN section in `text` (the figures this run replaces). */
function previousRun(text) {
	const start = text.indexOf(START);
	const end = text.indexOf(END);
	if (start < 0 || end < start) return null;
	const section = text.slice(start, end);
	const run = /Run of (\S+), git (\w+)/.exec(section);
	const targets = /^Targets at .*$/m.exec(section);
	return run && targets ? { run: `${run[1]}, git ${run[2]}`, targets: targets[0] } : null;
}

/** `text` with its WAN section replaced by `section` (appended when it has none). */
function withWanSection(text, section) {
	const start = text.indexOf(START);
	const end = text.indexOf(END);
	if (start < 0 || end < start) return `${text.trimEnd()}\n\n${section}\n`;
	return text.slice(0, start) + section + text.slice(end + END.length);
}

/** The full bench rewrites BENCHMARKS.md: it keeps the WAN section of the file it replaces. */
function keepWanSection(file, rendered) {
	const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	const start = old.indexOf(START);
	const end = old.indexOf(END);
	return start < 0 || end < start ? rendered : withWanSection(rendered, old.slice(start, end + END.length));
}

module.exports = { main, keepWanSection, startWanFront, throwawayCa };
