'use strict';
/**
 * The two triggers as a pair inside a real n8n (examples/instant-with-safety-net.json's shape): the
 * Recruiting Trigger for the three events the Recruiting Polling Trigger also sees, a polling trigger
 * for each of them, and the example's claim of `eventKey` before what the workflow does. While
 * n8n runs, each event comes once, by the webhook, and the polls add nothing. While n8n is stopped,
 * the sandbox's deliveries fail until it gives up; once n8n is back each event comes once within one
 * poll interval, and a delivery retry that lands after the poll reported its event starts nothing
 * downstream.
 */
const assert = require('assert');
const { log, waitFor, executionsOf, sleep } = require('../../../scripts/e2e/lib');
const crypto = require('crypto');
const { recruitingPollingTrigger, recruitingTrigger, workflowNode } = require('../../../scripts/n8n/workflow');
const { fillExample } = require('../../../scripts/e2e/examples');

const EVENTS = ['application.created', 'application.stage.updated', 'feedback.submitted'];
const WEBHOOK = 'Recruiting Trigger';
const POLLS = { 'application.created': 'New application (poll)', 'application.stage.updated': 'Stage changed (poll)', 'feedback.submitted': 'Feedback completed (poll)' };
/** The example's node that claims each key. */
const CLAIM = 'Once per event';
const DOWNSTREAM = 'Downstream';
/** n8n polls at most once a minute; the next poll, its requests and the execution stored. */
const POLL_INTERVAL_MS = 60_000;
const NEXT_POLL_MS = 150_000;
/** The service's retries made short: the first attempt, two retries, then it gives up. */
const GIVE_UP_SOON = [1000, 2000];
/** A retry that waits until the test makes it (POST /__sandbox/delivery-retries/now). */
const RETRY_LATER = [1000, 3_600_000];

/**
 * The pair as examples/instant-with-safety-net.json has it, polling every minute and ending in a No
 * Op: the triggers, then the example's message, its claim of the key in a table with a unique key
 * (`eventsCredential`: a Postgres credential for EVENTS_TABLE) and its "first sighting?" test.
 */
function pairWorkflow(credential, jobId, eventsCredential) {
	const webhook = recruitingTrigger(credential, { webhookId: 'wh_demo', events: EVENTS }, undefined, WEBHOOK);
	const polls = EVENTS.map((event) =>
		recruitingPollingTrigger(credential, { event, ...(event === 'application.stage.updated' ? { jobIds: jobId } : {}) }, POLLS[event]),
	);
	const example = fillExample('safetyNet', { credential, eventsCredential });
	const line = ['Compose message', CLAIM, 'First sighting?'].map((name) => ({ ...example.nodes.find((node) => node.name === name), id: crypto.randomUUID() }));
	const downstream = workflowNode(DOWNSTREAM, 'n8n-nodes-base.noOp', 1);
	const triggers = [webhook, ...polls];
	triggers.forEach((node, i) => (node.position = [0, i * 160]));
	[...line, downstream].forEach((node, i) => (node.position = [300 + i * 240, 200]));
	const to = (node) => ({ main: [[{ node: node.name, type: 'main', index: 0 }]] });
	const chain = [...line, downstream];
	return {
		name: 'E2E: instant, with a safety net',
		nodes: [...triggers, ...chain],
		connections: { ...Object.fromEntries(triggers.map((t) => [t.name, to(line[0])])), ...Object.fromEntries(chain.slice(0, -1).map((node, i) => [node.name, to(chain[i + 1])])) },
		settings: { executionOrder: 'v1' },
	};
}

/** Per execution: which trigger started it, the keys that reached the dedupe and those that went on. */
async function pairRuns(n8n, workflowId) {
	const executions = (await executionsOf(n8n, workflowId)).sort((a, b) => Number(a.id) - Number(b.id));
	return executions.map((execution) => {
		const runData = execution.data?.resultData?.runData ?? {};
		const itemsOf = (name) => (runData[name]?.[0]?.data?.main?.[0] ?? []).map((i) => i.json);
		const trigger = [WEBHOOK, ...Object.values(POLLS)].find((name) => runData[name]);
		return {
			id: execution.id,
			status: execution.status,
			trigger,
			seen: trigger ? itemsOf(trigger).map((item) => item.eventKey) : [],
			passed: itemsOf(DOWNSTREAM).map((item) => item.event_key),
			error: execution.data?.resultData?.error?.message,
		};
	});
}

const countOf = (keys) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map());

/**
 * @param opts.away  n8n away and back (stop, start): the single process, or every process of the queue stack
 * @param opts.eventsCredential  a Postgres credential for the example's table (scripts/e2e/examples.js EVENTS_TABLE)
 */
async function pairChecks(checks, n8n, sb, credential, { away, eventsCredential }) {
	const { control, seeded } = sb;
	const jobId = seeded.values('applications')[0].job.id;
	const ofJob = seeded.values('applications').filter((a) => a.job.id === jobId);
	const figures = {};
	let wf;
	const expected = [];
	const names = [
		'pair: published -> the webhook takes wh_demo, the three polls record where the account stands; nothing downstream',
		'pair: while n8n runs, 2 applications, a stage move, a completed feedback at once -> each downstream once, by the webhook; the next polls add nothing',
		'pair: n8n stopped; 3 applications, a stage move, a completed feedback, deliveries failing until the sandbox gives up; n8n started -> each downstream once within one poll interval',
		'pair: a delivery retry landing after the poll reported its event -> nothing downstream',
	];
	const activity = {
		apply: async () => (await control.call('POST', '/applications', { jobId })).data,
		move: async () => (await control.call('POST', `/jobs/${encodeURIComponent(jobId)}/stage-moves`)).data,
		feedback: async (applicationId) => (await control.call('POST', '/feedback', { applicationId })).data,
	};
	const key = {
		applied: (a) => `application.created:${a.id}`,
		moved: (a) => `application.stage.updated:${a.id}>${a.stage.parent_stage}|${a.stage.custom_stage?.id || a.stage.custom_stage?.name || ''}`,
		// Without an offset a service time is UTC.
		completed: (f) => `feedback.submitted:${f.id}@${Math.floor(Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(f.date_complete) ? f.date_complete : `${f.date_complete}Z`) / 1000)}`,
	};
	/** Waits until `count` keys went downstream in all; the runs. */
	const downstream = (count, what, timeoutMs = NEXT_POLL_MS) =>
		waitFor(what, async () => {
			const runs = await pairRuns(n8n, wf.id);
			return runs.flatMap((r) => r.passed).length >= count && runs;
		}, { timeoutMs, intervalMs: 1000 });
	const assertOnceEach = (runs) => {
		const failed = runs.filter((r) => r.status !== 'success');
		assert.deepStrictEqual(failed, [], `failed executions: ${JSON.stringify(failed)}`);
		const passed = countOf(runs.flatMap((r) => r.passed));
		const story = () => JSON.stringify(runs.map((r) => [r.id, r.trigger, r.seen.length, r.passed]));
		for (const k of expected) assert.strictEqual(passed.get(k), 1, `${k} went downstream ${passed.get(k) ?? 0} times; executions [id, trigger, items, passed]: ${story()}`);
		assert.strictEqual(passed.size, expected.length, `unexpected keys downstream: ${JSON.stringify([...passed.keys()].filter((k) => !expected.includes(k)))}`);
	};
	if (!eventsCredential) {
		checks.skip(names, 'PostgreSQL is missing (the example claims each key in a table)');
		return figures;
	}
	const deliveriesOf = async (msgIds) => (await control.deliveries()).filter((d) => msgIds.includes(d.msgId));
	try {
		await control.call('PUT', '/delivery-retries', { delaysMs: GIVE_UP_SOON });
		await checks.check(
			names[0],
			async () => {
				wf = await n8n.api('POST', '/workflows', pairWorkflow(credential, jobId, eventsCredential));
				await n8n.api('POST', `/workflows/${wf.id}/activate`);
				await waitFor('wh_demo pointing at n8n', async () => (await control.record('webhooks', 'wh_demo')).endpoint.startsWith(n8n.webhookUrl.replace(/\/$/, '')));
				const hook = await control.record('webhooks', 'wh_demo');
				assert.deepStrictEqual([...hook.subscribed_events].sort(), [...EVENTS].sort());
				await sleep(2000);
				assert.deepStrictEqual(await pairRuns(n8n, wf.id), []);
			},
			{ fatal: true },
		);

		await checks.check(names[1], async () => {
			// At once: their deliveries' executions run at the same moment, and the claim holds for them.
			const applied = [await activity.apply(), await activity.apply()];
			const moved = await activity.move();
			const completed = await activity.feedback(ofJob[0].id);
			expected.push(...applied.map(key.applied), key.moved(moved), key.completed(completed));
			await downstream(expected.length, 'the 4 events downstream by the webhook', 60_000);
			// The next poll of each trigger sees its event again: Remove Duplicates drops it.
			const runs = await waitFor('a poll of each trigger after the events', async () => {
				const all = await pairRuns(n8n, wf.id);
				return Object.values(POLLS).every((name) => all.some((r) => r.trigger === name)) && all;
			}, { timeoutMs: NEXT_POLL_MS, intervalMs: 2000 });
			assertOnceEach(runs);
			assert.ok(runs.filter((r) => r.passed.length > 0).every((r) => r.trigger === WEBHOOK), 'a poll brought an event the webhook had delivered');
			figures.runningDropped = runs.flatMap((r) => r.seen).length - runs.flatMap((r) => r.passed).length;
		});

		let lateMsgId;
		await checks.check(names[2], async () => {
			await away.stop();
			const before = (await control.deliveries()).length;
			const applied = [await activity.apply(), await activity.apply(), await activity.apply()];
			const moved = await activity.move();
			const completed = await activity.feedback(ofJob[1].id);
			expected.push(...applied.map(key.applied), key.moved(moved), key.completed(completed));
			// Every delivery of these five fails until the sandbox gives up on it.
			const made = await waitFor('the sandbox to give up on the 5 deliveries', async () => {
				const records = (await control.deliveries()).slice(before);
				const given = records.filter((d) => d.retryInMs === null);
				return given.length >= 5 && records;
			}, { timeoutMs: 30_000, intervalMs: 500 });
			assert.ok(made.every((d) => d.status !== 200), 'a delivery reached n8n while it was stopped');
			figures.attemptsWhileAway = made.length;
			// One more application whose retry waits: it lands after n8n is back (the last check).
			await control.call('PUT', '/delivery-retries', { delaysMs: RETRY_LATER });
			const late = await activity.apply();
			expected.push(key.applied(late));
			const lateFirst = await waitFor('the late application\'s two failed attempts', async () => {
				const records = (await control.deliveries()).filter((d) => d.event === 'application.created' && JSON.parse(d.body).data.object.id === late.id);
				return records.length >= 2 && records;
			}, { timeoutMs: 30_000, intervalMs: 500 });
			lateMsgId = lateFirst[0].msgId;
			const started = Date.now();
			await away.start();
			const readyAfterMs = Date.now() - started;
			const runs = await downstream(expected.length, 'the 6 events made while n8n was stopped, downstream', POLL_INTERVAL_MS + 60_000);
			figures.delayAfterBackMs = Date.now() - started - readyAfterMs;
			figures.n8nStartMs = readyAfterMs;
			assert.ok(figures.delayAfterBackMs <= POLL_INTERVAL_MS + 30_000, `the last event came ${figures.delayAfterBackMs} ms after n8n was back`);
			await sleep(5000);
			assertOnceEach(await pairRuns(n8n, wf.id));
			figures.madeWhileAway = 6;
			figures.downstreamTotal = runs.flatMap((r) => r.passed).length;
		});

		await checks.check(names[3], async () => {
			assert.ok(lateMsgId, 'no late delivery from the previous check');
			const runsSoFar = await pairRuns(n8n, wf.id);
			const { retried } = await control.call('POST', '/delivery-retries/now');
			assert.ok(retried >= 1, `retried ${retried}`);
			const [landed] = await waitFor('the late retry to land', async () => {
				const done = (await deliveriesOf([lateMsgId])).filter((d) => d.status === 200);
				return done.length > 0 && done;
			}, { timeoutMs: 30_000, intervalMs: 500 });
			assert.ok(landed.attempt >= 3, `attempt ${landed.attempt}`);
			const before = runsSoFar.length;
			const runs = await waitFor('the webhook execution of the late retry', async () => {
				const all = await pairRuns(n8n, wf.id);
				return all.length > before && all.slice(before).some((r) => r.trigger === WEBHOOK) && all;
			}, { timeoutMs: 60_000, intervalMs: 1000 }).catch(async (e) => {
				throw new Error(`${e.message}; executions [id, status, trigger, items, passed]: ${JSON.stringify((await pairRuns(n8n, wf.id)).map((r) => [r.id, r.status, r.trigger, r.seen.length, r.passed]))}`);
			});
			assert.deepStrictEqual(runs.slice(before).map((r) => [r.trigger, r.seen.length, r.passed.length]), [[WEBHOOK, 1, 0]]);
			assertOnceEach(runs);
			const seen = runs.flatMap((r) => r.seen).length;
			figures.droppedInAll = seen - runs.flatMap((r) => r.passed).length;
			log(`pair figures: ${JSON.stringify(figures)}`);
		});
	} finally {
		if (wf) await n8n.api('POST', `/workflows/${wf.id}/deactivate`).catch(() => {});
		// Back to trying once, as the suites' sandbox starts (scripts/e2e/lib.js).
		await control.call('PUT', '/delivery-retries', { delaysMs: [] }).catch(() => {});
	}
	return figures;
}

module.exports = { pairChecks, pairWorkflow };
