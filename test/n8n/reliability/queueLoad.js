#!/usr/bin/env node
'use strict';
/**
 * Reliability, part 6: exactly once under load in n8n's queue mode.
 *
 * A real n8n queue-mode stack (Redis, a private PostgreSQL, main, one worker, two `n8n webhook`
 * processes behind a round-robin proxy on one URL, all on 127.0.0.1) with the package installed
 * from its `npm pack` tarball. A workflow Recruiting Trigger → a de-duplication recipe →
 * "Recorded" (or "Duplicate dropped"). Load: signed deliveries (Standard Webhooks, the
 * `standardwebhooks` package) from concurrent senders through the proxy; a share of them is
 * delivered again right after its 2xx — same `webhook-id`, same body, fresh timestamp and
 * signature, as a sender's retry — straight to the OTHER webhook process, where the trigger's
 * in-memory duplicate check cannot see it. Then every execution is read back through the public
 * API and every 2xx answer is accounted for.
 *
 * Recipes (--recipe):
 *   idempotency-table  (default) Postgres node: INSERT the messageId into a table with a primary
 *                      key, ON CONFLICT DO NOTHING RETURNING it; an If node lets only a fresh
 *                      insert through. Atomic in the database, whatever runs concurrently.
 *   remove-duplicates  n8n's Remove Duplicates node (Remove Items Processed in Previous
 *                      Executions, Value to Dedupe On = messageId). Measured for the record: its
 *                      history is read and written back without a lock, so concurrent executions
 *                      race (see docs/RELIABILITY.md).
 *
 *   node test/n8n/reliability/queueLoad.js [--recipe idempotency-table|remove-duplicates]
 *        [--messages 2000] [--senders 16] [--redeliver 0.05] [--worker-concurrency N]
 *        [--version 2.41.1] [--no-build] [--keep] [--out file.json]
 *
 * Prints progress and one line per check; the last line is `N passed, N failed`. Writes
 * build/reliability/queueLoad.json for the default recipe and worker concurrency (the reliability
 * report reads it), queueLoad-<recipe>[-c<N>].json for the others. `npm test` runs the default
 * (1.5–3.5 minutes on 2 shared cores); `npm run bench -- --only B7` runs all three variants.
 */
const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseCliArgs } = require('../../../scripts/cliArgs');
const lib = require('../../../scripts/e2e/lib');
const { claimsDatabase, startQueueStack, queueModePossible } = require('../queue/queue');
const { SERVED_BY } = require('../queue/roundRobinProxy');
const { claimOnce, workflowNode, recruitingTrigger } = require('../../../scripts/n8n/workflow');

const REPORT_DIR = path.join(lib.ROOT, 'build', 'reliability');
const { Webhook: Signer } = require(path.join(lib.ROOT, 'node_modules', 'standardwebhooks'));
const EVENT = 'candidate.updated';
const TABLE = 'recruiting_delivered_messages';
const DEDUPE_DATABASE = 'recipes';
/** Attempts per delivery (the first and the sender's retries after a non-2xx or a network error). */
const MAX_ATTEMPTS = 5;
const REQUEST_TIMEOUT_MS = 30000;
/** No new finished execution for this long while some are missing: stop waiting. */
const STALL_MS = 90000;
const WAIT_LIMIT_MS = 15 * 60000;

function parseArgs(argv) {
	const values = parseCliArgs(
		__filename,
		{
			recipe: { type: 'string', default: 'idempotency-table' },
			messages: { type: 'string', default: '2000' },
			senders: { type: 'string', default: '16' },
			redeliver: { type: 'string', default: '0.05' },
			'worker-concurrency': { type: 'string' },
			version: { type: 'string', default: '2.41.1' },
			'no-build': { type: 'boolean', default: false },
			keep: { type: 'boolean', default: false },
			out: { type: 'string' },
		},
		argv,
	);
	const o = {
		recipe: values.recipe,
		messages: Number(values.messages),
		senders: Number(values.senders),
		redeliver: Number(values.redeliver),
		workerConcurrency: values['worker-concurrency'] === undefined ? null : Number(values['worker-concurrency']),
		version: values.version,
		build: !values['no-build'],
		keep: values.keep,
		out: values.out === undefined ? null : path.resolve(values.out),
	};
	if (!['idempotency-table', 'remove-duplicates'].includes(o.recipe)) throw new Error(`unknown recipe ${o.recipe}`);
	o.out ??= reportFile(o);
	return o;
}

/** Only the default variant feeds the reliability report; the others are kept beside it. */
function reportFile({ recipe = 'idempotency-table', workerConcurrency = null } = {}) {
	const variant = `${recipe}${workerConcurrency ? `-c${workerConcurrency}` : ''}`;
	return path.join(REPORT_DIR, variant === 'idempotency-table' ? 'queueLoad.json' : `queueLoad-${variant}.json`);
}

const link = (node, index = 0) => ({ node: node.name, type: 'main', index });

/** Trigger → recipe → Recorded / Duplicate dropped; the recipe's nodes between. */
function loadWorkflow(name, trigger, recipeNodes, connections) {
	const recorded = workflowNode('Recorded', 'n8n-nodes-base.noOp', 1);
	const dropped = workflowNode('Duplicate dropped', 'n8n-nodes-base.noOp', 1);
	const nodes = [trigger, ...recipeNodes, recorded, dropped];
	nodes.forEach((n, i) => (n.position = [Math.min(i, nodes.length - 2) * 240, n === dropped ? 160 : 0]));
	return { name, nodes, connections: connections(recorded, dropped), settings: { executionOrder: 'v1' } };
}

/** The documented recipe: n8n's Remove Duplicates on `messageId` across executions. */
function removeDuplicatesWorkflow(trigger) {
	const dedupe = workflowNode('Remove Duplicates', 'n8n-nodes-base.removeDuplicates', 2, {
		operation: 'removeItemsSeenInPreviousExecutions',
		logic: 'removeItemsWithAlreadySeenKeyValues',
		dedupeValue: '={{ $json.messageId }}',
		options: {},
	});
	return loadWorkflow('Queue load: Remove Duplicates', trigger, [dedupe], (recorded, dropped) => ({
		[trigger.name]: { main: [[link(dedupe)]] },
		// Remove Duplicates has two outputs: Kept and Discarded.
		[dedupe.name]: { main: [[link(recorded)], [link(dropped)]] },
	}));
}

/** An idempotency table: the first INSERT of a messageId returns it, every later one nothing. */
function idempotencyTableWorkflow(trigger, postgresCredential) {
	const { claim, fresh } = claimOnce({ table: TABLE, column: 'message_id', value: '={{ $json.messageId }}', postgresCredential, name: 'Claim messageId' });
	return loadWorkflow('Queue load: idempotency table', trigger, [claim, fresh], (recorded, dropped) => ({
		[trigger.name]: { main: [[link(claim)]] },
		[claim.name]: { main: [[link(fresh)]] },
		[fresh.name]: { main: [[link(recorded)], [link(dropped)]] },
	}));
}

/** The three Standard Webhooks headers for `body`, signed now. */
function signedHeaders(signer, msgId, body) {
	const at = new Date();
	return {
		'content-type': 'application/json',
		'webhook-id': msgId,
		'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
		'webhook-signature': signer.sign(msgId, at, body),
	};
}

/**
 * Sends every message once through the proxy, from `senders` concurrent loops; after the 2xx of a
 * message picked for re-delivery, sends it again straight to the other webhook process. A non-2xx
 * or a network error is retried (same webhook-id and body, new signature) up to MAX_ATTEMPTS.
 */
async function sendLoad({ signer, proxyUrl, webhookUrls, webhookPath, messages, senders }) {
	const answers = [];
	const post = async (msg, base, kind, attempt) => {
		const t = performance.now();
		const answer = { msgId: msg.id, kind, attempt, target: base, status: null, servedBy: null, message: null, ms: 0 };
		try {
			const res = await fetch(`${base}${webhookPath}`, {
				method: 'POST',
				headers: signedHeaders(signer, msg.id, msg.body),
				body: msg.body,
				signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
			});
			answer.status = res.status;
			answer.servedBy = res.headers.get(SERVED_BY);
			const text = await res.text();
			try {
				answer.message = JSON.parse(text).message ?? null;
			} catch {
				answer.message = text.slice(0, 200);
			}
		} catch (error) {
			answer.error = error.message;
		}
		answer.ms = performance.now() - t;
		answer.at = Date.now();
		answers.push(answer);
		return answer;
	};
	const deliver = async (msg, base, kind) => {
		for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			const a = await post(msg, base, kind, attempt);
			if (a.status >= 200 && a.status < 300) return a;
			await lib.sleep(250 * attempt);
		}
		return null;
	};
	let next = 0;
	const startedAt = Date.now();
	await Promise.all(
		Array.from({ length: senders }, async () => {
			while (next < messages.length) {
				const msg = messages[next++];
				const first = await deliver(msg, proxyUrl, 'original');
				if (!first || !msg.redeliver) continue;
				// The proxy says which process answered (backend index): the retry goes to the other.
				msg.firstServedBy = first.servedBy;
				const other = webhookUrls[(Number(first.servedBy) + 1) % webhookUrls.length];
				msg.redeliveredTo = other;
				await deliver(msg, other, 'redelivery');
			}
		}),
	);
	return { answers, startedAt, finishedAt: Date.now() };
}

/** Finished executions of the workflow (no data), all pages. */
async function finishedExecutions(n8n, workflowId) {
	const out = [];
	let cursor;
	do {
		const page = await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${cursor}` : ''}`);
		out.push(...(page.data || []));
		cursor = page.nextCursor;
	} while (cursor);
	return out.filter((e) => e.stoppedAt);
}

/** Waits until `expected` executions finished and no more arrive, or until nothing moves for STALL_MS. */
async function waitForExecutions(n8n, workflowId, expected) {
	const t0 = Date.now();
	let last = -1;
	let movedAt = Date.now();
	for (;;) {
		const n = (await finishedExecutions(n8n, workflowId)).length;
		if (n !== last) {
			lib.log(`executions finished: ${n} of ${expected}`);
			last = n;
			movedAt = Date.now();
		}
		// Reached: wait a little longer so an execution too many would show.
		if (n >= expected && Date.now() - movedAt > 3000) return n;
		if (Date.now() - movedAt > STALL_MS || Date.now() - t0 > WAIT_LIMIT_MS) return n;
		await lib.sleep(1000);
	}
}

/**
 * Every 2xx answer is an execution or a duplicate the trigger dropped; an attempt that got no 2xx
 * (a timeout, a 5xx) may still have started one, so the attempts bound it from above.
 */
const accountedFor = (m) => m.executions + m.triggerDrops >= m.answers2xx && m.executions + m.triggerDrops <= m.attempts;

const ran = (execution, node) => Boolean(execution.data?.resultData?.runData?.[node]);

/** Per message: its answers and executions; and the totals. */
function account(messages, answers, executions) {
	const byId = new Map(messages.map((m) => [m.id, { attempts: 0, answers2xx: 0, triggerDrops: 0, executions: 0, recorded: 0, droppedByRecipe: 0, failed: 0 }]));
	const unknownExecutions = [];
	const failureReasons = {};
	for (const a of answers) {
		const m = byId.get(a.msgId);
		m.attempts++;
		if (!(a.status >= 200 && a.status < 300)) continue;
		m.answers2xx++;
		if (/^Duplicate delivery/.test(a.message || '')) m.triggerDrops++;
	}
	for (const e of executions) {
		let msgId;
		try {
			msgId = lib.nodeItems(e, 'Recruiting Trigger')[0]?.messageId;
		} catch {
			msgId = undefined;
		}
		const m = byId.get(msgId);
		if (!m) {
			unknownExecutions.push(e.id);
			continue;
		}
		m.executions++;
		if (e.status !== 'success') {
			m.failed++;
			const error = e.data?.resultData?.error;
			const reason = `${e.status}: ${error?.node?.name ?? error?.node ?? ''} ${error?.message ?? 'no error recorded'}`;
			failureReasons[reason] = (failureReasons[reason] || 0) + 1;
		}
		if (ran(e, 'Recorded')) m.recorded++;
		if (ran(e, 'Duplicate dropped')) m.droppedByRecipe++;
	}
	const per = [...byId.entries()];
	const sum = (f) => per.reduce((s, [, m]) => s + f(m), 0);
	return {
		per,
		unknownExecutions,
		failureReasons,
		totals: {
			messages: messages.length,
			requests: answers.length,
			answered2xx: answers.filter((a) => a.status >= 200 && a.status < 300).length,
			non2xx: answers.filter((a) => !(a.status >= 200 && a.status < 300)).length,
			redelivered: messages.filter((m) => m.redeliveredTo).length,
			executions: executions.length,
			executionsFailed: sum((m) => m.failed),
			recorded: sum((m) => m.recorded),
			droppedByRecipe: sum((m) => m.droppedByRecipe),
			droppedByTrigger: sum((m) => m.triggerDrops),
			neverAnswered2xx: per.filter(([, m]) => m.answers2xx === 0).length,
			unaccounted: per.filter(([, m]) => !accountedFor(m)).length,
			lost: per.filter(([, m]) => m.answers2xx > 0 && m.recorded === 0).length,
			duplicated: per.filter(([, m]) => m.recorded > 1).length,
		},
	};
}

async function main() {
	const o = parseArgs(process.argv.slice(2));
	if (!queueModePossible()) {
		const why = 'redis-server/PostgreSQL are missing and installing them needs root';
		if (process.env.CI === 'true') {
			// CI must run what the README quotes: a left-out suite fails it (.ci/run installs both first).
			const checks = new lib.Checks();
			await checks.check('queue load runs under CI=true', () => {
				throw new Error(`queue load cannot run: ${why}`);
			});
			process.stdout.write(`${checks.passed} passed, ${checks.failed} failed\n`);
			process.exitCode = 1;
			return;
		}
		lib.log(`queue load left out: ${why}`);
		process.stdout.write('0 passed, 0 failed\n');
		return;
	}
	const started = Date.now();
	const checks = new lib.Checks();
	const loadBefore = os.loadavg();
	const report = { counts: {}, notes: [] };
	let sb;
	let stack;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-queue-load-'));
	try {
		let wf;
		let signer;
		let webhookPath;
		await checks.check(
			`setup: queue stack (redis, postgres, main, worker, 2 webhook processes behind a round-robin proxy), recipe ${o.recipe}, workflow published`,
			async () => {
				if (o.build) await lib.buildAll();
				const { tarball } = await lib.packPackage();
				sb = await lib.startSandbox({ seed: { applications: 5, jobs: 2, candidates: 5 } });
				stack = await startQueueStack({
					version: o.version,
					userFolder,
					communityTarballs: [tarball],
					webhookProcesses: 2,
					env: { EXECUTIONS_DATA_PRUNE: 'false' },
					workerEnv: o.workerConcurrency ? { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(o.workerConcurrency) } : {},
				});
				const credential = await lib.createCredential(stack, sb.sandbox);
				const nodeWebhookId = crypto.randomUUID();
				const trigger = recruitingTrigger(credential, { webhookId: 'wh_demo', events: [EVENT] }, nodeWebhookId);
				let workflow;
				if (o.recipe === 'remove-duplicates') workflow = removeDuplicatesWorkflow(trigger);
				else {
					const pgCredential = await claimsDatabase(stack, {
						database: DEDUPE_DATABASE,
						create: `CREATE TABLE ${TABLE} (message_id text PRIMARY KEY, received_at timestamptz NOT NULL DEFAULT now())`,
					});
					workflow = idempotencyTableWorkflow(trigger, pgCredential);
				}
				wf = await stack.api('POST', '/workflows', workflow);
				await stack.api('POST', `/workflows/${wf.id}/activate`);
				webhookPath = `/webhook/${nodeWebhookId}/webhook`;
				const hook = await lib.waitFor('wh_demo to point at the proxy', async () => {
					const w = await sb.control.record('webhooks', 'wh_demo');
					return w.endpoint === `${stack.webhookUrl}${webhookPath}` && w;
				});
				signer = new Signer(hook.signing_key);
			},
			{ fatal: true },
		);

		const messages = Array.from({ length: o.messages }, (_, i) => {
			const id = `msg_${crypto.randomBytes(12).toString('hex')}`;
			const object = { id: `can_load_${i}`, first_name: 'Load', last_name: `Test ${i}`, email: `load${i}@mail.example` };
			const body = JSON.stringify({ id: `evt_${id}`, version: 1, type: EVENT, timestamp: new Date().toISOString(), data: { object } });
			// Every 1/redeliver-th message, spread over the run.
			const every = o.redeliver > 0 ? Math.round(1 / o.redeliver) : 0;
			return { id, body, redeliver: every > 0 && i % every === every - 1 };
		});
		lib.log(`sending ${messages.length} deliveries from ${o.senders} senders (${messages.filter((m) => m.redeliver).length} re-delivered to the other process), recipe ${o.recipe}`);
		const load = await sendLoad({ signer, proxyUrl: stack.webhookUrl, webhookUrls: stack.webhookUrls, webhookPath, messages, senders: o.senders });
		const sendSeconds = (load.finishedAt - load.startedAt) / 1000;
		const answered = load.answers.filter((a) => a.status >= 200 && a.status < 300);
		const expected = answered.filter((a) => !/^Duplicate delivery/.test(a.message || '')).length;
		lib.log(`${load.answers.length} requests in ${sendSeconds.toFixed(1)}s, ${answered.length} answered 2xx; waiting for ${expected} executions`);
		await waitForExecutions(stack, wf.id, expected);
		const executions = await lib.executionsOf(stack, wf.id);
		const { per, totals, unknownExecutions, failureReasons } = account(messages, load.answers, executions);
		report.failureReasons = failureReasons;
		// What a sender saw instead of a 2xx (then retried): kept for the report.
		report.non2xx = load.answers
			.filter((a) => !(a.status >= 200 && a.status < 300))
			.map((a) => ({ kind: a.kind, attempt: a.attempt, servedBy: a.servedBy, status: a.status, message: a.message, error: a.error, ms: Math.round(a.ms) }));
		for (const a of report.non2xx.slice(0, 10)) lib.log(`not 2xx: ${JSON.stringify(a)}`);
		for (const [reason, n] of Object.entries(failureReasons)) lib.log(`${n} execution(s) failed with ${reason}`);
		const lastStop = Math.max(...executions.map((e) => Date.parse(e.stoppedAt)).filter(Number.isFinite));
		const endToEndSeconds = (lastStop - load.startedAt) / 1000;
		const latencies = answered.map((a) => a.ms).sort((a, b) => a - b);
		const quantile = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
		Object.assign(report.counts, totals, {
			itemsLost: totals.lost,
			duplicateWrites: totals.duplicated,
			acceptedPerSecond: Math.round((answered.length / sendSeconds) * 10) / 10,
			messagesPerSecondEndToEnd: Math.round((o.messages / endToEndSeconds) * 10) / 10,
		});
		report.throughput = {
			sendSeconds,
			endToEndSeconds,
			answerMsP50: Math.round(quantile(0.5)),
			answerMsP99: Math.round(quantile(0.99)),
			servedByProxy: stack.proxy.served,
		};
		const summary = `sent ${totals.messages} messages (${totals.requests} requests, ${totals.redelivered} re-delivered to the other process), ${totals.answered2xx} answered 2xx, ${totals.non2xx} not; executions ${totals.executions} (${totals.executionsFailed} failed), recorded ${totals.recorded}, dropped by the recipe ${totals.droppedByRecipe}, by the trigger ${totals.droppedByTrigger}; lost ${totals.lost}, duplicated ${totals.duplicated}`;
		lib.log(summary);
		lib.log(`throughput: ${report.counts.acceptedPerSecond} deliveries/s accepted (${answered.length} in ${sendSeconds.toFixed(1)}s, answer p50 ${report.throughput.answerMsP50} ms, p99 ${report.throughput.answerMsP99} ms), ${report.counts.messagesPerSecondEndToEnd} messages/s to the last finished execution (${endToEndSeconds.toFixed(1)}s); proxy forwarded ${stack.proxy.served.join(' / ')}`);

		const bad = (pred, what) => {
			const list = per.filter(([, m]) => pred(m)).slice(0, 5);
			return `${per.filter(([, m]) => pred(m)).length} ${what}, e.g. ${JSON.stringify(list)}`;
		};
		await checks.check(`load: ${o.messages} messages from ${o.senders} senders each answered 2xx (${totals.non2xx} non-2xx answers retried)`, () => {
			assert.strictEqual(totals.neverAnswered2xx, 0, bad((m) => m.answers2xx === 0, 'messages never answered 2xx'));
		});
		await checks.check(`load: both webhook processes took deliveries through the proxy, and ${totals.redelivered} re-deliveries went to the other one`, () => {
			assert.ok(stack.proxy.served.every((n) => n > 0), `proxy forwarded ${stack.proxy.served.join(' / ')}`);
			assert.strictEqual(totals.redelivered, messages.filter((m) => m.redeliver).length);
			for (const m of messages.filter((x) => x.redeliveredTo)) {
				assert.notStrictEqual(m.firstServedBy, null, `${m.id}: the proxy did not say which process answered`);
				assert.notStrictEqual(stack.webhookUrls[Number(m.firstServedBy)], m.redeliveredTo, `${m.id} re-delivered to the same process`);
			}
			for (const [i, proc] of stack.processes.webhooks.entries()) {
				const enqueued = (fs.readFileSync(proc.logFile, 'utf8').match(/enqueued execution/gi) || []).length;
				assert.ok(enqueued > 0, `webhook process ${i + 1} enqueued no execution`);
			}
		});
		await checks.check('accounting: every 2xx answer is one execution or one duplicate the trigger dropped; no execution beyond the attempts', () => {
			assert.strictEqual(totals.unaccounted, 0, bad((m) => !accountedFor(m), 'messages not accounted for'));
			assert.deepStrictEqual(unknownExecutions, [], 'executions of no message sent');
		});
		await checks.check('executions: every one finished with success', () => {
			assert.strictEqual(totals.executionsFailed, 0, bad((m) => m.failed > 0, 'messages with a failed execution'));
		});
		await checks.check(`exactly once: one execution per message passed the de-duplication (${o.recipe}): 0 lost, 0 duplicated`, () => {
			assert.strictEqual(totals.lost, 0, bad((m) => m.answers2xx > 0 && m.recorded === 0, 'messages lost'));
			assert.strictEqual(totals.duplicated, 0, bad((m) => m.recorded > 1, 'messages recorded more than once'));
			assert.strictEqual(totals.recorded, o.messages);
		});
		report.notes.push(summary);
	} catch (error) {
		if (!(error instanceof lib.FatalCheck)) {
			checks.fail('setup or load run', error);
		}
	} finally {
		if (stack) await stack.stop().catch((e) => lib.log(`stop: ${e.message}`));
		if (sb) await sb.sandbox.close().catch(() => {});
		if (!o.keep) fs.rmSync(userFolder, { recursive: true, force: true });
		else lib.log(`kept ${userFolder}`);
	}
	const seconds = (Date.now() - started) / 1000;
	const loadAfter = os.loadavg();
	report.notes.push(
		`n8n ${o.version} queue mode: main, 1 worker (concurrency ${o.workerConcurrency || 'n8n default, 10'}), 2 webhook processes behind a round-robin proxy, Redis, PostgreSQL; ${o.senders} senders; ${os.cpus().length} cores, 1-min load ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after`,
	);
	fs.mkdirSync(path.dirname(o.out), { recursive: true });
	fs.writeFileSync(
		o.out,
		JSON.stringify(
			{
				part: 'queueLoad',
				recipe: o.recipe,
				workerConcurrency: o.workerConcurrency,
				messages: o.messages,
				senders: o.senders,
				finishedAt: new Date().toISOString(),
				durationMs: Math.round(seconds * 1000),
				n8nVersion: o.version,
				counts: { ...report.counts, checksPassed: checks.passed, checksFailed: checks.failed },
				throughput: report.throughput,
				failureReasons: report.failureReasons,
				non2xx: report.non2xx,
				notes: report.notes,
			},
			null,
			2,
		) + '\n',
	);
	process.stdout.write(`queue load (${o.recipe}) in ${seconds.toFixed(0)}s\n`);
	process.stdout.write(`${checks.passed} passed, ${checks.failed} failed\n`);
	process.exit(checks.failed > 0 ? 1 : 0);
}


if (require.main === module) main();
