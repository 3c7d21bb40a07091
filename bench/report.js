'use strict';
/** Renders the JSON report of run.js as BENCHMARKS.md. */
const { median, fmt } = require('./lib');

const med = (rows, key) => median(rows.map((r) => r[key]));
const list = (rows, key, d = 0) => rows.map((r) => fmt(r[key], d)).join(', ');
const ok = (cond) => (cond === null ? 'n/a' : cond ? '**met**' : '**missed**');
/** A ratio with 2 decimals, or 3 when 2 would round onto the target and hide which side it is on. */
const ratio = (x, target) => (fmt(x, 2) === fmt(target, 2) ? fmt(x, 3) : fmt(x, 2)) + '×';

function table(head, rows) {
	return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function b1Section(b1) {
	const out = [];
	for (const [mode, r] of Object.entries(b1)) {
		const label = Object.fromEntries(r.variants.map((v) => [v.key, v.label]));
		out.push(`#### Execution data saving ${mode === 'on' ? 'on (n8n default)' : 'off (`EXECUTIONS_DATA_SAVE_ON_SUCCESS=none`)'}`);
		out.push('');
		out.push(
			table(
				['variant', 'execution ms (n8n) — median', 'POST → answer ms — median', 'requests', 'TCP connections', 'peak RSS of n8n main, MB — median'],
				Object.entries(r.results).map(([k, rows]) => [
					label[k],
					mode === 'on' || k.startsWith('bare') ? fmt(med(rows, 'execMs')) : 'not recorded',
					k.startsWith('bare') ? '—' : fmt(med(rows, 'wallMs')),
					[...new Set(rows.map((x) => x.requests))].join('/'),
					[...new Set(rows.map((x) => x.connections))].join('/'),
					k.startsWith('bare') ? '—' : fmt(med(rows, 'peakRssMb')),
				]),
			),
		);
		out.push('');
		if (r.fresh) {
			out.push('Peak RSS of n8n\'s main process in a **fresh** n8n (one run of one workflow; VmHWM reset before it, so the startup peak is not counted):');
			out.push('');
			out.push(
				table(
					['variant', 'RSS before the run MB', 'peak RSS during the run MB', 'POST → answer ms'],
					Object.entries(r.fresh).map(([k, x]) => [label[k] || k, fmt(x.idleMb), fmt(x.peakMb), fmt(x.wallMs)]),
				),
			);
			out.push('');
		}
		out.push('Raw, in run order:');
		out.push('');
		for (const [k, rows] of Object.entries(r.results)) {
			const parts = [];
			if (mode === 'on' || k.startsWith('bare')) parts.push(`execution ms ${list(rows, 'execMs')}`);
			if (!k.startsWith('bare')) parts.push(`POST→answer ms ${list(rows, 'wallMs')}`, `peak RSS MB ${list(rows, 'peakRssMb')}`, `RSS before MB ${list(rows, 'rssBeforeMb')}`);
			parts.push(`connections ${list(rows, 'connections')}`);
			out.push(`- ${k}: ${parts.join('; ')}`);
		}
		out.push('');
	}
	return out.join('\n');
}

function b2Section(b2) {
	const out = [];
	for (const [mode, r] of Object.entries(b2)) {
		const label = Object.fromEntries(r.variants.map((v) => [v.key, v.label]));
		out.push(`#### Execution data saving ${mode === 'on' ? 'on (n8n default)' : 'off'} — ${r.items} input items`);
		out.push('');
		out.push(
			table(
				['variant', "node's executionTime ms (n8n) — median", 'execution ms — median', 'POST → answer ms — median', 'requests', 'TCP connections', 'peak RSS MB'],
				Object.entries(r.results).map(([k, rows]) => [
					label[k],
					mode === 'on' ? fmt(med(rows, 'nodeMs')) : 'not recorded',
					mode === 'on' ? fmt(med(rows, 'execMs')) : 'not recorded',
					fmt(med(rows, 'wallMs')),
					[...new Set(rows.map((x) => x.requests))].join('/'),
					[...new Set(rows.map((x) => x.connections))].join('/'),
					fmt(med(rows, 'peakRssMb')),
				]),
			),
		);
		out.push('');
		for (const [k, rows] of Object.entries(r.results)) {
			out.push(`- ${k}: ${mode === 'on' ? `node ms ${list(rows, 'nodeMs')}; execution ms ${list(rows, 'execMs')}; ` : ''}POST→answer ms ${list(rows, 'wallMs')}`);
		}
		out.push('');
	}
	return out.join('\n');
}

/** B7: one row per recipe, counts from test/n8n/reliability/queueLoad.js. */
function b7Section(b7) {
	const out = ['## B7 — exactly once under load in queue mode', ''];
	const first = b7.variants[0];
	out.push(
		`n8n ${first.n8nVersion} in queue mode: Redis, a private PostgreSQL, main, one worker, two \`n8n webhook\` processes behind a round-robin proxy on one URL (127.0.0.1). Per recipe a fresh stack; ${fmt(first.messages)} signed deliveries from ${first.senders} concurrent senders through the proxy; every 20th is delivered again right after its 2xx (same \`webhook-id\` and body, fresh signature) straight to the other webhook process. Every execution is read back through the public API. *Lost*: a message answered 2xx that no execution recorded; *duplicated*: recorded by more than one execution. Load average (1 min) before B7: ${b7.loadBefore.one}.`,
	);
	out.push('');
	out.push(
		table(
			['recipe', 'requests (re-delivered)', 'answered 2xx', 'executions (failed)', 'recorded', 'dropped by the recipe / the trigger', 'lost', 'duplicated', 'deliveries/s accepted', 'messages/s to the last execution', 'answer p50 / p99 ms', 'time'],
			b7.variants.map((v) => {
				const c = v.counts;
				return [
					v.label,
					`${fmt(c.requests)} (${fmt(c.redelivered)})`,
					fmt(c.answered2xx),
					`${fmt(c.executions)} (${fmt(c.executionsFailed)})`,
					fmt(c.recorded),
					`${fmt(c.droppedByRecipe)} / ${fmt(c.droppedByTrigger)}`,
					`**${fmt(c.lost)}**`,
					`**${fmt(c.duplicated)}**`,
					fmt(c.acceptedPerSecond, 1),
					fmt(c.messagesPerSecondEndToEnd, 1),
					`${fmt(v.throughput.answerMsP50)} / ${fmt(v.throughput.answerMsP99)}`,
					`${fmt(v.durationMs / 1000)} s`,
				];
			}),
		),
	);
	out.push('');
	for (const v of b7.variants) {
		const reasons = Object.entries(v.failureReasons || {});
		if (reasons.length) out.push(`- ${v.key}: failed executions: ${reasons.map(([why, n]) => `${n} × ${why}`).join('; ')}`);
		if (v.non2xx && v.non2xx.length) out.push(`- ${v.key}: answers other than 2xx (each retried): ${v.non2xx.map((a) => `${a.status ?? a.error} (${a.kind}, attempt ${a.attempt}, ${a.ms} ms)`).join('; ')}`);
		for (const note of v.notes || []) out.push(`- ${v.key}: ${note}`);
	}
	out.push('');
	return out.join('\n');
}

function targets(r) {
	const rows = [];
	const b1 = r.b1 && r.b1.on;
	if (b1) {
		const e = (k) => med(b1.results[k] || [], 'execMs');
		// Fresh-instance peaks where measured (ours4, http); else the shared instance's medians.
		const p = (m, k) => {
			const b = r.b1[m];
			if (!b) return NaN;
			if (b.fresh && b.fresh[k] && b.fresh.http) return b.fresh[k].peakMb;
			return med(b.results[k] || [], 'peakRssMb');
		};
		const reqs = (k) => [...new Set((b1.results[k] || []).map((x) => x.requests))];
		for (const k of ['ours4', 'ours']) {
			if (!b1.results[k]) continue;
			const tag = k === 'ours4' ? 'default, the read window' : 'Pages in Flight 1';
			rows.push([`B1 (${tag}): HTTP Request node time ÷ ours`, fmt(e('http') / e(k), 2) + '×', '≥ 3×', ok(e('http') / e(k) >= 3)]);
			rows.push([`B1 (${tag}): ours ÷ bare serial fetch loop`, ratio(e(k) / e('bare'), 1.25), '≤ 1.25×', ok(e(k) / e('bare') <= 1.25)]);
			rows.push([`B1 (${tag}): requests`, reqs(k).join('/'), `= ${b1.expectedPages}`, ok(reqs(k).length === 1 && reqs(k)[0] === b1.expectedPages)]);
			for (const m of Object.keys(r.b1)) {
				// RSS is compared on fresh instances only (a shared one mostly shows earlier runs' heap).
				if (!(r.b1[m].fresh && r.b1[m].fresh[k])) continue;
				const ratio = p(m, k) / p(m, 'http');
				rows.push([`B1 (${tag}): peak RSS ours ÷ HTTP Request path, saving ${m} (fresh n8n)`, fmt(ratio, 2) + '×', '≤ 0.8×', ok(ratio <= 0.8)]);
				const f = r.b1[m].fresh;
				const growth = (f[k].peakMb - f[k].idleMb) / (f.http.peakMb - f.http.idleMb);
				rows.push([`B1 (${tag}): RSS growth during the run (peak − before) ours ÷ HTTP Request path, saving ${m}`, fmt(growth, 2) + '×', '(for reference)', '']);
			}
		}
	}
	if (b1 && b1.results.simple) {
		// Simplify's targets: what the user waits for (POST → answer, execution saved) and memory.
		const w = (k) => med(b1.results[k] || [], 'wallMs');
		const x = w('simple') / w('http');
		rows.push(['B1 Simplify on: POST → answer ours ÷ HTTP Request + Split Out (saving on)', ratio(x, 0.5), '≤ 0.5×', ok(x <= 0.5)]);
		for (const m of Object.keys(r.b1)) {
			const f = r.b1[m].fresh;
			if (!(f && f.simple && f.http)) continue;
			const y = f.simple.peakMb / f.http.peakMb;
			rows.push([`B1 Simplify on: peak RSS of n8n main ours ÷ HTTP Request path, saving ${m} (fresh n8n)`, ratio(y, 0.7), '≤ 0.7×', ok(y <= 0.7)]);
		}
	}
	const off = r.b1 && r.b1.off;
	if (off && off.results.ours4) {
		const w = (k) => med(off.results[k] || [], 'wallMs');
		rows.push(['B1 saving off (no execution record): HTTP Request POST→answer ÷ ours (default, the read window)', fmt(w('http') / w('ours4'), 2) + '×', '(≥ 3×)', ok(w('http') / w('ours4') >= 3)]);
		rows.push(['B1 saving off: ours (default, the read window) POST→answer ÷ bare serial fetch loop', fmt(w('ours4') / med(off.results.bare, 'execMs'), 2) + '×', '(≤ 1.25×)', ok(w('ours4') / med(off.results.bare, 'execMs') <= 1.25)]);
	}
	const b2 = r.b2 && r.b2.on;
	if (b2) {
		const n = (k) => med(b2.results[k] || [], 'nodeMs');
		for (const k of ['ours4', 'ours']) {
			if (!b2.results[k]) continue;
			const x = n(k) / n('http');
			rows.push([`B2 (${k === 'ours4' ? 'Concurrency 4' : 'default, the read window'}): ours ÷ HTTP Request node (node executionTime)`, ratio(x, 0.5), '≤ 0.5×', ok(x <= 0.5)]);
		}
	}
	if (r.b3) {
		const ten = r.b3.find((x) => x.label === '10 KB');
		rows.push(['B3: µs per delivery at 10 KB', fmt(ten.usPerDelivery, 1) + ' µs', '≤ 20 µs', ok(ten.usPerDelivery <= 20)]);
	}
	if (r.b4) {
		const p50 = (k) => median(r.b4.latency[k].map((x) => x.p50));
		const thr = (k) => median(r.b4.throughput[k].map((x) => x.perSecond));
		rows.push(['B4: p50 latency trigger ÷ Webhook node', fmt(p50('trigger') / p50('webhook'), 2) + '×', '≤ 1.1×', ok(p50('trigger') / p50('webhook') <= 1.1)]);
		rows.push(['B4: throughput trigger ÷ Webhook node', fmt(thr('trigger') / thr('webhook'), 2) + '×', '≥ 0.9×', ok(thr('trigger') / thr('webhook') >= 0.9)]);
		if (r.b4.latency.webhookAuth) {
			// Reference only: the same limits against a Webhook node that also uses a credential.
			const p = p50('trigger') / p50('webhookAuth');
			const t = thr('trigger') / thr('webhookAuth');
			rows.push(['B4 (reference): p50 latency trigger ÷ Webhook node with Header Auth', fmt(p, 2) + '×', '(≤ 1.1×)', p <= 1.1 ? 'within' : 'outside']);
			rows.push(['B4 (reference): throughput trigger ÷ Webhook node with Header Auth', fmt(t, 2) + '×', '(≥ 0.9×)', t >= 0.9 ? 'within' : 'outside']);
		}
	}
	if (r.b6) {
		const e = r.b6.runs.byEmail;
		rows.push([`B6: picker, one e-mail among ${fmt(r.b6.applications)} applications`, `${fmt(median(e.map((x) => x.ms)))} ms, ${[...new Set(e.map((x) => x.calls))].join('/')} calls, ${[...new Set(e.map((x) => x.requests))].join('/')} requests`, '(report)', e.every((x) => x.found) ? 'found' : '**not found**']);
		const f = r.b6.runs.byFirstName;
		rows.push([`B6: picker, first screen for a common first name ("${r.b6.firstName}")`, `${fmt(median(f.map((x) => x.ms)))} ms, ${[...new Set(f.map((x) => x.requests))].join('/')} requests, ${f[0].results} results`, '(report)', '']);
	}
	if (r.b7) {
		for (const v of r.b7.variants) {
			const c = v.counts;
			const asserted = v.key === 'idempotencyTable';
			rows.push([
				`B7: queue mode, ${c.messages} messages, ${c.redelivered} re-delivered to the other webhook process — lost / duplicated, ${v.key === 'idempotencyTable' ? 'idempotency table (the README\'s recipe)' : v.key === 'removeDuplicates' ? 'Remove Duplicates, worker concurrency 10' : 'Remove Duplicates, worker concurrency 1'}`,
				`${c.lost} / ${c.duplicated}`,
				asserted ? '0 / 0' : '(for the record)',
				asserted ? ok(c.lost === 0 && c.duplicated === 0 && v.counts.checksFailed === 0) : '',
			]);
		}
	}
	if (r.b8) rows.push(...require('./b8-agent').b8Targets(r.b8).rows);
	if (r.b5) {
		rows.push(['B5: runtime dependencies', String(r.b5.dependencies.length), '0', ok(r.b5.dependencies.length === 0)]);
		rows.push(['B5: tarball size', `${fmt(r.b5.tarballBytes / 1024, 1)} KB`, '≤ 150 KB', ok(r.b5.tarballBytes <= 150 * 1024)]);
	}
	return table(['comparison (same run)', 'result', 'target', ''], rows);
}

function renderReport(r) {
	const o = r.options;
	const lines = [];
	lines.push('# Benchmarks');
	lines.push('');
	lines.push(
		'Written by `npm run bench` (`node bench/run.js`; not part of CI). Everything below comes from one invocation; rerun it to refresh this file. The analysis at the end is from profiling during development.',
	);
	lines.push('');
	lines.push(
		'Options: `npm run bench -- [--runs 5] [--only B1,B2,B3,B4,B5,B6,B7,B8] [--saving on,off] [--max-load 1.0] [--load-wait-min 10] [--json report.json] [--profile]`; `node bench/run.js --render report.json` rewrites this file from a saved report. It needs the cached n8n 2.41.1 (`node scripts/n8n/install.js 2.41.1`) and takes about 9 minutes; it waits (up to `--load-wait-min`) until the 1-minute load average is below `--max-load` before measuring.',
	);
	lines.push('');
	lines.push('## This run');
	lines.push('');
	lines.push(`- Date: ${r.startedAt}; git ${r.git}; ${r.totalSeconds} s in all.`);
	lines.push(`- Machine: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memGiB} GiB, Linux ${r.machine.kernel}; shared with other work.`);
	lines.push(
		`- Load average (1/5/15 min) before measuring: ${r.loadBefore.one}/${r.loadBefore.five}/${r.loadBefore.fifteen}${r.loadBefore.quiet ? '' : ` — above the ${o.maxLoad} threshold after waiting ${o.loadWaitMin} min: figures are noisier than on a quiet machine`}; after: ${r.loadAfter.one}/${r.loadAfter.five}/${r.loadAfter.fifteen}.`,
	);
	if (r.n8n) lines.push(`- n8n ${r.n8n.version} (\`n8n start\`, sqlite, Node ${r.n8n.node}); our package installed from its own \`npm pack\` tarball into \`~/.n8n/nodes\` (community-style). Bench driver and bare loops: Node ${r.machine.benchNode}.`);
	if (r.sandbox) lines.push(`- Sandbox (own process): ${r.sandbox.applications} applications (one page of 100 = ${fmt(r.sandbox.pageBytes / 1024)} KB of JSON), ${r.sandbox.candidates} candidates.`);
	if (o.profile) lines.push("- n8n's main process ran under `--cpu-prof` (`--profile`): the profiler costs CPU time, so these figures are slower than an unprofiled run's.");
	lines.push(`- ${o.runs} measured rounds per comparison after one warm-up round; variants alternate within each round and the order rotates from round to round; tables show medians.`);
	lines.push('');
	lines.push('## Targets');
	lines.push('');
	lines.push(targets(r));
	lines.push('');
	if (r.b1 && r.b1.on && r.b1.on.results.bare4) {
		const e = (k) => med(r.b1.on.results[k], 'execMs');
		lines.push(
			`For scale (B1, saving on): being 3× faster than the HTTP Request path (${fmt(e('http'))} ms) means ≤ ${fmt(e('http') / 3)} ms, while a bare Node.js client with 4 pages in flight, which pays none of n8n's per-request costs, took ${fmt(e('bare4'))} ms in this run; ours with its default read window took ${fmt(e('ours4'))} ms.`,
		);
		lines.push('');
	}
	lines.push('## Method');
	lines.push('');
	lines.push(
		[
			'- Every n8n workflow starts with a Webhook node answering when the last node finished (`responseMode: lastNode`, no data), so a POST starts one execution in the running `n8n start`; the same trigger is in every variant.',
			'- **Execution ms** is n8n\'s own: `stoppedAt − startedAt` of the execution from the public API (`GET /api/v1/executions`). n8n sets `stoppedAt` before it saves the execution data, so saving is *not* in it; **POST → answer** includes it (and the webhook overhead). With saving off n8n keeps no execution record: only POST → answer and RSS are measured there.',
			'- B2\'s **node executionTime** is the `executionTime` n8n records for the node in the run data.',
			'- **Requests** are counted at the sandbox (its request log), **TCP connections** at the sandbox\'s server (`server.on(\'connection\')`, `GET /__sandbox/connections`), control calls excluded.',
			'- **Peak RSS** of n8n\'s main process per run: VmHWM after resetting it (`echo 5 > /proc/<pid>/clear_refs`) before the POST, cross-checked by sampling VmRSS every 10 ms. n8n is one long-lived process shared by all variants, so "RSS before" is listed too.',
			'- B1 HTTP Request path: HTTP Request node 4.2, GET `/applications?page_size=100`, header auth, pagination "Response Contains Next URL" = `{{ $response.body.links.next }}`, complete when `{{ !$response.body.meta.has_next_page }}`, then Split Out `items`. The bare loops use Node\'s `fetch` (keep-alive) and `JSON.parse` every page into one array.',
			'- B2: the POST body carries the candidate ids; Split Out turns them into items; then Candidate → Get, or HTTP Request GET `/candidates/{{ $json.id }}` (header auth, default options).',
			`- B3: \`verifyWebhookSignature\` from \`dist/nodes/shared/signature.js\`, in-process, median of 7 batches of ≥ 200 ms each.`,
			`- B4: the workflows active in the same n8n; the Recruiting Trigger (webhook \`${'wh_demo'}\`) and a Webhook node (\`responseMode: onReceived\`) get the same signed Standard Webhooks delivery; the reference variant is the same Webhook node with Header Auth (an \`httpHeaderAuth\` credential, the delivery carries the header), because n8n runs a credential check with a database query before every execution of a workflow with a credentialed node. Latency: ${o.b4Latency} deliveries one at a time (50 ms apart), each from \`fetch\` start (sub-millisecond) to the execution's \`stoppedAt\` (whole milliseconds); throughput: ${o.b4Throughput} deliveries from ${o.b4Senders} concurrent senders, divided by the time from the first send to the last \`stoppedAt\`.`,
		].join('\n'),
	);
	lines.push('');
	if (r.b1) {
		lines.push(`## B1 — Return All of ${o.applications} applications`);
		lines.push('');
		lines.push(b1Section(r.b1));
	}
	if (r.b2) {
		lines.push(`## B2 — ${o.b2Items} input items → Candidate Get`);
		lines.push('');
		lines.push(b2Section(r.b2));
	}
	if (r.b3) {
		lines.push('## B3 — signature verification (in-process)');
		lines.push('');
		lines.push(table(['body', 'µs per delivery (median)', 'batches (µs)'], r.b3.map((x) => [x.label, fmt(x.usPerDelivery, 1), x.raw.map((v) => fmt(v, 1)).join(', ')])));
		lines.push('');
	}
	if (r.b4) {
		const b = r.b4;
		lines.push('## B4 — delivery → execution');
		lines.push('');
		lines.push(
			table(
				['workflow', 'latency p50 ms (median of rounds)', 'latency p90 ms', 'n8n execution p50 ms', 'executions/s (8 senders)', 'accepted/s'],
				b.variants.map((v) => [
					v.label,
					fmt(median(b.latency[v.key].map((x) => x.p50)), 1),
					fmt(median(b.latency[v.key].map((x) => x.p90)), 1),
					fmt(median(b.latency[v.key].map((x) => x.execP50)), 1),
					fmt(median(b.throughput[v.key].map((x) => x.perSecond)), 1),
					fmt(median(b.throughput[v.key].map((x) => x.acceptedPerSecond)), 1),
				]),
			),
		);
		lines.push('');
		for (const v of b.variants) {
			lines.push(`- ${v.key}: p50 per round ${b.latency[v.key].map((x) => fmt(x.p50, 1)).join(', ')} ms; executions/s per round ${b.throughput[v.key].map((x) => fmt(x.perSecond, 1)).join(', ')}`);
		}
		lines.push('');
	}
	if (r.b7) lines.push(b7Section(r.b7));
	if (r.b8) lines.push(require('./b8-agent').b8Section(r.b8, table));
	if (r.b5) {
		lines.push('## B5 — package');
		lines.push('');
		lines.push(
			table(
				['tarball', 'unpacked', 'files', 'runtime dependencies', 'peer dependencies'],
				[[`${fmt(r.b5.tarballBytes / 1024, 1)} KB`, `${fmt(r.b5.unpackedBytes / 1024, 1)} KB`, String(r.b5.files), r.b5.dependencies.length ? r.b5.dependencies.join(', ') : 'none', r.b5.peerDependencies.join(', ')]],
			),
		);
		lines.push('');
	}
	lines.push(require('./analysis').ANALYSIS);
	return lines.join('\n') + '\n';
}

module.exports = { renderReport };
