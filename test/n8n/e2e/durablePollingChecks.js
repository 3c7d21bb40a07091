'use strict';
/**
 * The polling trigger on n8n 2.41.1's durable polling engine, past what a poll may take (issue 41):
 *
 * 1. A poll past the poll timeout: the run sets N8N_SCHEDULER_POLL_TIMEOUT (seconds, @n8n/config's
 *    scheduler.config.js) to POLL_TIMEOUT_S; the sandbox holds the poll's list requests (HOLDS_MS:
 *    two attempts past the trigger's own 30 s timeout, the third answered after SLOW_MS, so the poll
 *    runs ~85 s, past the one-minute interval: check 3). n8n's PollTriggerTaskHandler gives up
 *    waiting at the timeout ("Poll exceeded its timeout and was abandoned"), records a
 *    `temporarily-unavailable` failure and lets the poll run on in its staging scope, whose cursor
 *    and items it never commits nor emits. The applications added before and while it ran must
 *    come once, at a later poll.
 * 2. Back-off as the service asks: the list answers 429 with Retry-After: RETRY_AFTER_S; the trigger
 *    declares `failure: { cause: 'rate-limited', retryAfterMs }`; n8n (PollBackoffService) sets
 *    the poller state's backoffUntil and skips the occurrences before it. Polls come every minute:
 *    without the back-off a poll would come 60 s after the refused one; with it, none before
 *    RETRY_AFTER_S (so the next one is the occurrence after that, ~120 s). Then the applications
 *    added since step 1 come once.
 * 3. A poll run twice (checked last, when all is emitted): n8n does not start an abandoned poll
 *    again before its next occurrence, so two polls of the trigger overlap when one outlasts the
 *    interval, as step 1's does. The sandbox's request log shows the held poll's span (its three
 *    attempts, each begun when the trigger gave up the one before, and no other list request);
 *    n8n's log shows the next occurrence (another task) inside that span, which polled nothing
 *    (the trigger's overlap guard, state.ts `exclusively`: "Poll returned no new data"). Each
 *    application added before and during the held poll is emitted once, by a poll after it.
 *    Cost: step 1's poll outlasts a minute, so step 2 meets the occurrence after: one minute
 *    (~60 s) more for the durable run; step 3 itself only reads the logs (~1 s).
 *
 * Reads n8n's own log (N8N_LOG_LEVEL=debug, N8N_LOG_FORMAT=json, set by the run) for what n8n did.
 */
const assert = require('assert');
const fs = require('fs');
const { waitFor, sleep, log } = require('../../../scripts/e2e/lib');

/** What the durable run sets for n8n (see run.js's DURABLE_POLLING_ENV). */
const POLL_TIMEOUT_S = 10;
const DURABLE_CHECK_ENV = { N8N_SCHEDULER_POLL_TIMEOUT: String(POLL_TIMEOUT_S), N8N_LOG_LEVEL: 'debug', N8N_LOG_FORMAT: 'json' };
/** The trigger's timeout per attempt of a request (the transport's DEFAULT_POLICY.timeoutMs). */
const ATTEMPT_TIMEOUT_MS = 30_000;
/** Past the timeout, under the trigger's per-attempt timeout: an attempt answered late. */
const SLOW_MS = 25_000;
/**
 * Step 1's poll, one hold per attempt of its list request (a GET is tried 1 + maxRetries = 3 times):
 * the first two held past the trigger's timeout (it tries again at once), the third answered late,
 * with what was added. ~85 s: past the next occurrence at +60 s by ~25 s.
 */
const HOLDS_MS = [ATTEMPT_TIMEOUT_MS + 5000, ATTEMPT_TIMEOUT_MS + 5000, SLOW_MS];
const INTERVAL_MS = 60_000;
const ABANDONED = 'Poll exceeded its timeout and was abandoned';
const POLL_RUN_TWICE =
	'polling (durable): a poll run twice: the held poll outlasts the 1-minute interval -> n8n starts the next occurrence while it runs, that one polls nothing; the 4 added before and during it emitted once, later';
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
 * @param ctx.names        the first two checks' names (the third is POLL_RUN_TWICE)
 */
async function durablePollingChecks(checks, n8n, sb, wf, { apply, emittedRuns, nextPollMs, names }) {
	const { control } = sb;
	const logFile = n8n.logFile;
	const listRequests = async (since) => (await control.requests()).filter((r) => r.method === 'GET' && r.path === LIST && r.at >= since);
	const ofWorkflow = (lines) => lines.filter((l) => l.meta.workflowId === wf.id);
	const successes = async () => (await emittedRuns(n8n, wf.id)).filter((r) => r.status === 'success');
	let before;
	let expected = [];
	/** Step 1's held poll, for step 3: { offset, taskId, requests, apps }. */
	let held;
	await checks.check(names[0], async () => {
		const offset = fs.statSync(logFile).size;
		before = await emittedRuns(n8n, wf.id);
		const t0 = Date.now();
		expected = [await apply('slow1'), await apply('slow2')];
		await control.setFaults(HOLDS_MS.map((delayMs) => ({ kind: 'slow', method: 'GET', path: '/applications', delayMs, times: 1 })));
		const slow = await waitFor('the next poll to meet the slow list', async () => (await listRequests(t0)).find((r) => r.status === 0), {
			timeoutMs: nextPollMs,
			intervalMs: 500,
		});
		// Added while that poll waits for its answer: the held request reads them when it is answered.
		expected.push(await apply('slow3'), await apply('slow4'));
		const abandoned = await waitFor(
			"n8n's log: the poll abandoned",
			() => ofWorkflow(logLines(logFile, offset)).find((l) => l.message === ABANDONED),
			{ timeoutMs: POLL_TIMEOUT_S * 1000 + 20_000, intervalMs: 500 },
		);
		log(`n8n: ${quote(abandoned)}`);
		assert.strictEqual(abandoned.meta.pollTimeoutMs, POLL_TIMEOUT_S * 1000);
		const backoff = ofWorkflow(logLines(logFile, offset)).find((l) => l.message === 'Poll failed; backing off');
		assert.ok(backoff, "n8n's log: no 'Poll failed; backing off' after the abandoned poll");
		log(`n8n: ${quote(backoff)}`);
		assert.strictEqual(backoff.meta.cause, 'temporarily-unavailable');
		// The abandoned poll runs on: its last attempt is answered (with the 4), and nothing is emitted from it.
		const requests = await waitFor('the held poll\'s last attempt to be answered', async () => {
			const rs = (await listRequests(slow.at)).slice(0, HOLDS_MS.length);
			return rs.length === HOLDS_MS.length && rs.every((r) => r.answeredAt) && rs;
		}, { timeoutMs: HOLDS_MS.reduce((a, b) => a + b) + 15_000, intervalMs: 500 });
		const answered = requests[requests.length - 1];
		log(`the held poll's list requests: ${requests.map((r) => `in at +${((r.at - t0) / 1000).toFixed(1)}s, answered ${r.status} after ${((r.answeredAt - r.at) / 1000).toFixed(1)}s`).join('; ')}; n8n gave up after ${POLL_TIMEOUT_S}s`);
		assert.strictEqual(answered.status, 200);
		held = { offset, taskId: abandoned.meta.taskId, requests, apps: [...expected] };
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

	await checks.check(POLL_RUN_TWICE, async () => {
		assert.ok(held, 'the first check\'s held poll did not run to its end');
		const { requests } = held;
		const start = requests[0].at;
		const end = requests[requests.length - 1].answeredAt;
		// One poll: each attempt begun when the trigger gave up the one before; no other list request meanwhile.
		const during = (await listRequests(start)).filter((r) => r.at <= end);
		assert.deepStrictEqual(during.map((r) => r.at), requests.map((r) => r.at), 'another list request while the held poll ran');
		for (let i = 1; i < requests.length; i++) {
			const gap = requests[i].at - requests[i - 1].at;
			assert.ok(gap >= ATTEMPT_TIMEOUT_MS - 500 && gap < ATTEMPT_TIMEOUT_MS + 3000, `attempt ${i + 1} began ${gap} ms after attempt ${i}: not a retry of the same poll`);
		}
		log(`the held poll ran ${((end - start) / 1000).toFixed(1)}s (its list requests ${requests.map((r) => new Date(r.at).toISOString()).join(', ')}; its last answered ${new Date(end).toISOString()})`);
		assert.ok(end - start > INTERVAL_MS, `the held poll ran ${end - start} ms, not past the interval`);
		// n8n's side: the occurrences (tasks) logged while it ran: the held one's abandonment, and the next one.
		const lines = ofWorkflow(logLines(logFile, held.offset)).filter((l) => l.meta.taskId !== undefined);
		const within = lines.filter((l) => Date.parse(l.timestamp) > start && Date.parse(l.timestamp) < end);
		for (const l of within) log(`n8n: ${quote(l)}`);
		const second = within.filter((l) => l.meta.taskId !== held.taskId);
		assert.strictEqual(second.length, 1, `occurrences while the held poll ran, besides it: ${second.map(quote).join(' | ') || 'none'}`);
		assert.strictEqual(second[0].message, 'Poll returned no new data; nothing to hand off');
		// Once each: the held poll's applications in all that was emitted, by a poll after it.
		const ids = (await successes()).flatMap((r) => r.ids);
		assert.deepStrictEqual(held.apps.map((id) => ids.filter((x) => x === id).length), held.apps.map(() => 1), `emitted: ${JSON.stringify(ids.filter((x) => held.apps.includes(x)))}`);
		const handedOff = lines.filter((l) => /^Poll returned new data/.test(l.message));
		for (const l of handedOff) log(`n8n: ${quote(l)}`);
		assert.ok(handedOff.length >= 1 && handedOff.every((l) => Date.parse(l.timestamp) > end), 'a poll handed data on while the held poll ran');
		const fresh = (await emittedRuns(n8n, wf.id)).slice(before.length).flatMap((r) => r.ids);
		assert.deepStrictEqual([...fresh].sort(), [...expected].sort(), 'since the held poll: not exactly the applications added, each once');
	});
}

module.exports = { durablePollingChecks, DURABLE_CHECK_ENV };
