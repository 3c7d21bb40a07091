'use strict';
/**
 * The polling trigger on n8n 2.41.1's durable polling engine, past what a poll may take (issue 41):
 *
 * 1. A poll past the poll timeout: the run sets N8N_SCHEDULER_POLL_TIMEOUT (seconds, @n8n/config's
 *    scheduler.config.js) to POLL_TIMEOUT_S; the sandbox holds the poll's list request for SLOW_MS.
 *    n8n's PollTriggerTaskHandler gives up waiting at the timeout ("Poll exceeded its timeout and
 *    was abandoned"), records a `temporarily-unavailable` failure and lets the poll run on in its
 *    staging scope, whose cursor and items it never commits nor emits. The applications added
 *    before and while it ran must come once, at a later poll.
 * 2. Back-off as the service asks: the list answers 429 with Retry-After: RETRY_AFTER_S; the trigger
 *    declares `failure: { cause: 'rate-limited', retryAfterMs }`; n8n (PollBackoffService) sets
 *    the poller state's backoffUntil and skips the occurrences before it. Polls come every minute:
 *    without the back-off a poll would come 60 s after the refused one; with it, none before
 *    RETRY_AFTER_S (so the next one is the occurrence after that, ~120 s). Then the applications
 *    added since step 1 come once.
 *
 * Reads n8n's own log (N8N_LOG_LEVEL=debug, N8N_LOG_FORMAT=json, set by the run) for what n8n did.
 */
const assert = require('assert');
const fs = require('fs');
const { waitFor, sleep, log } = require('../../../scripts/e2e/lib');

/** What the durable run sets for n8n (see run.js's DURABLE_POLLING_ENV). */
const POLL_TIMEOUT_S = 10;
const DURABLE_CHECK_ENV = { N8N_SCHEDULER_POLL_TIMEOUT: String(POLL_TIMEOUT_S), N8N_LOG_LEVEL: 'debug', N8N_LOG_FORMAT: 'json' };
/** Past the timeout, under the trigger's 30 s per-attempt timeout: one attempt, answered late. */
const SLOW_MS = 25_000;
/** Past the one-minute interval, short of two: a poll at +60 s says n8n did not back off. */
const RETRY_AFTER_S = 90;
const LIST = '/v1.0/cmp_demo/applications';

/** n8n's JSON log lines after `offset` (bytes): { message, level, timestamp, meta }. */
function logLines(logFile, offset) {
	const text = fs.readFileSync(logFile, 'utf8').slice(offset);
	const out = [];
	for (const line of text.split('\n')) {
		if (!line.startsWith('{')) continue;
		try {
			const j = JSON.parse(line);
			const meta = j.metadata ?? {};
			out.push({ message: String(j.message ?? ''), level: j.level, timestamp: j.timestamp ?? meta.timestamp, meta });
		} catch {
			/* a line that is not n8n's JSON */
		}
	}
	return out;
}

const quote = (l) => `${l.timestamp} ${l.level} "${l.message}" ${JSON.stringify(Object.fromEntries(Object.entries(l.meta).filter(([k]) => !['file', 'function', 'timestamp'].includes(k))))}`;

/**
 * @param ctx.apply        adds an application (pollingChecks' helper; it joins the global count)
 * @param ctx.emittedRuns  (workflowId) → the executions, oldest first, with the ids they emitted
 * @param ctx.names        the two check names
 */
async function durablePollingChecks(checks, n8n, sb, wf, { apply, emittedRuns, nextPollMs, names }) {
	const { control } = sb;
	const logFile = n8n.logFile;
	const listRequests = async (since) => (await control.requests()).filter((r) => r.method === 'GET' && r.path === LIST && r.at >= since);
	const ofWorkflow = (lines) => lines.filter((l) => l.meta.workflowId === wf.id);
	const successes = async () => (await emittedRuns(n8n, wf.id)).filter((r) => r.status === 'success');
	let before;
	let expected = [];
	await checks.check(names[0], async () => {
		const offset = fs.statSync(logFile).size;
		before = await emittedRuns(n8n, wf.id);
		const t0 = Date.now();
		expected = [await apply('slow1'), await apply('slow2')];
		await control.setFaults([{ kind: 'slow', method: 'GET', path: '/applications', delayMs: SLOW_MS, times: 1 }]);
		const slow = await waitFor('the next poll to meet the slow list', async () => (await listRequests(t0)).find((r) => r.status === 0), {
			timeoutMs: nextPollMs,
			intervalMs: 500,
		});
		// Added while that poll waits for its answer: the held request reads them when it is answered.
		expected.push(await apply('slow3'), await apply('slow4'));
		const abandoned = await waitFor(
			"n8n's log: the poll abandoned",
			() => ofWorkflow(logLines(logFile, offset)).find((l) => l.message === 'Poll exceeded its timeout and was abandoned'),
			{ timeoutMs: POLL_TIMEOUT_S * 1000 + 20_000, intervalMs: 500 },
		);
		log(`n8n: ${quote(abandoned)}`);
		assert.strictEqual(abandoned.meta.pollTimeoutMs, POLL_TIMEOUT_S * 1000);
		const backoff = ofWorkflow(logLines(logFile, offset)).find((l) => l.message === 'Poll failed; backing off');
		assert.ok(backoff, "n8n's log: no 'Poll failed; backing off' after the abandoned poll");
		log(`n8n: ${quote(backoff)}`);
		assert.strictEqual(backoff.meta.cause, 'temporarily-unavailable');
		// The abandoned poll runs on: its request is answered (with the 4), and nothing is emitted from it.
		const answered = await waitFor('the held list request to be answered', async () => {
			const r = (await listRequests(t0)).find((x) => x.at === slow.at && x.query.page === slow.query.page);
			return r && r.answeredAt && r;
		}, { timeoutMs: SLOW_MS + 10_000, intervalMs: 500 });
		log(`the held list request: in at +${((slow.at - t0) / 1000).toFixed(1)}s, answered ${answered.status} after ${((answered.answeredAt - answered.at) / 1000).toFixed(1)}s; n8n gave up after ${POLL_TIMEOUT_S}s`);
		assert.strictEqual(answered.status, 200);
		await sleep(3000);
		const after = await emittedRuns(n8n, wf.id);
		assert.deepStrictEqual(after.length, before.length, `the abandoned poll started an execution: ${JSON.stringify(after.slice(before.length).map((r) => [r.status, r.ids]))}`);
		const completed = ofWorkflow(logLines(logFile, offset)).filter((l) => /^Poll returned new data/.test(l.message));
		assert.deepStrictEqual(completed.map(quote), [], 'n8n handed the abandoned poll\'s items on');
	});

	await checks.check(names[1], async () => {
		const offset = fs.statSync(logFile).size;
		const t0 = Date.now();
		await control.setFaults([{ kind: 'rate_limit', method: 'GET', path: '/applications', retryAfter: RETRY_AFTER_S, times: -1 }]);
		let refused;
		try {
			expected.push(await apply('limited1'));
			refused = await waitFor('a poll answered 429', async () => (await listRequests(t0)).find((r) => r.status === 429), {
				timeoutMs: nextPollMs,
				intervalMs: 500,
			});
			const declared = await waitFor(
				"n8n's log: the poll's failure and its back-off",
				() => ofWorkflow(logLines(logFile, offset)).find((l) => l.message === 'Poll failed; backing off'),
				{ timeoutMs: 20_000, intervalMs: 500 },
			);
			log(`n8n: ${quote(declared)}`);
			assert.strictEqual(declared.meta.cause, 'rate-limited');
			assert.ok(declared.meta.delayMs >= RETRY_AFTER_S * 1000, `n8n backs off ${declared.meta.delayMs} ms`);
			expected.push(await apply('limited2'));
			// The service refuses for as long as it said; then it answers again.
			await sleep(Math.max(0, refused.at + RETRY_AFTER_S * 1000 - Date.now()));
		} finally {
			await control.setFaults([]);
		}
		const runs = await waitFor('the poll after the back-off to emit', async () => {
			const all = await successes();
			return all.flatMap((r) => r.ids).length >= before.filter((r) => r.status === 'success').flatMap((r) => r.ids).length + expected.length && all;
		}, { timeoutMs: nextPollMs, intervalMs: 1000 });
		const lists = await listRequests(t0);
		// The refused poll's own requests (a retry within it would be at once): then none until the wait is over.
		const polls = lists.filter((r) => r.at > refused.at + 5000);
		const next = polls[0];
		assert.ok(next, 'no poll after the refused one');
		const gapS = (next.at - refused.at) / 1000;
		log(`list requests since the 429 faults: ${lists.map((r) => `+${((r.at - refused.at) / 1000).toFixed(1)}s ${r.status}`).join(', ')}`);
		assert.ok(gapS >= RETRY_AFTER_S - 1, `n8n polled again ${gapS.toFixed(1)} s after the 429 with Retry-After: ${RETRY_AFTER_S}`);
		const skipped = ofWorkflow(logLines(logFile, offset)).filter((l) => l.message === 'Poll is backing off; skipping this occurrence');
		for (const l of skipped) log(`n8n: ${quote(l)}`);
		assert.ok(skipped.length >= 1, "n8n's log: no occurrence skipped while backing off");
		const failed = (await emittedRuns(n8n, wf.id)).slice(before.length).filter((r) => r.status !== 'success');
		log(`executions since the slow poll: ${runs.length - before.filter((r) => r.status === 'success').length} emitted, ${failed.length} failed (${failed.map((r) => r.status).join(', ')})`);
		const fresh = runs.slice(before.filter((r) => r.status === 'success').length);
		assert.deepStrictEqual(fresh.map((r) => [...r.ids].sort()), [[...expected].sort()], 'not exactly the applications added, in one execution');
		return { gapS };
	});
}

module.exports = { durablePollingChecks, DURABLE_CHECK_ENV };
