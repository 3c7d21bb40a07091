'use strict';
/**
 * The Recruiting Polling Trigger inside a real n8n (issue 31, point 5): every new application
 * exactly once across n8n's own polls, a restart with applications added while n8n was stopped,
 * unpublish/publish with the trigger renamed, a poll answered 500 (a server error: a 503 is waited out as overload) and 250 applications between two polls; stage changes
 * with the previous and the new stage; a followed job deleted (jobGoneChecks.js). In queue mode the polls run on the main process and the
 * executions on the worker. n8n polls at most once a minute: each step waits for the next poll.
 */
const assert = require('assert');
const { log, waitFor, executionsOf, nodeItems, sleep } = require('../../../scripts/e2e/lib');
const { chain, recruitingPollingTrigger, workflowNode } = require('../../../scripts/n8n/workflow');
const { durablePollingChecks } = require('./durablePollingChecks');
const { jobGoneChecks } = require('./jobGoneChecks');

const NODE = 'Recruiting Polling Trigger';
/** The trigger's name after the unpublish/publish step renames it (n8n keeps node static data by name). */
const RENAMED = 'New applications';
/** Long enough for the next minute's poll, its retries and the execution to be stored. */
const NEXT_POLL_MS = 150_000;

function pollingWorkflow(credential, name, parameters) {
	return chain(name, [recruitingPollingTrigger(credential, parameters, NODE), workflowNode('Received', 'n8n-nodes-base.noOp', 1)]);
}

/** Application ids each successful execution started with, oldest execution first. */
async function emittedRuns(n8n, workflowId) {
	const executions = (await executionsOf(n8n, workflowId)).sort((a, b) => Number(a.id) - Number(b.id));
	const itemsOf = (execution) => nodeItems(execution, execution.data?.resultData?.runData?.[RENAMED] ? RENAMED : NODE);
	return executions.map((execution) => ({
		status: execution.status,
		ids: execution.status === 'success' ? itemsOf(execution).map((item) => item.object.id) : [],
		items: execution.status === 'success' ? itemsOf(execution) : [],
	}));
}

/** Renames the workflow's trigger node as the editor does: nodes and connections, static data untouched. */
async function renameTrigger(n8n, workflowId) {
	const current = await n8n.api('GET', `/workflows/${workflowId}`);
	const nodes = current.nodes.map((node) => (node.name === NODE ? { ...node, name: RENAMED } : node));
	const connections = Object.fromEntries(Object.entries(current.connections).map(([from, to]) => [from === NODE ? RENAMED : from, to]));
	await n8n.api('PUT', `/workflows/${workflowId}`, { name: current.name, nodes, connections, settings: current.settings ?? {} });
}

/**
 * @param opts.restart  also stop n8n, add applications, start it again (single process)
 * @param opts.queue    the executions must have run on the worker
 * @param opts.durable  n8n's durable polling engine: also a poll past the poll timeout and a 429's back-off (durablePollingChecks.js)
 */
async function pollingChecks(checks, n8n, sb, credential, { restart = false, queue = false, durable = false } = {}) {
	const { control, seeded } = sb;
	const template = seeded.values('applications')[0];
	const jobId = template.job.id;
	let counter = 0;
	const added = [];
	const apply = async (label) => {
		counter += 1;
		// As the service makes them: in the first stage (an application found past it is a stage change).
		const application = {
			...template,
			id: `app_e2epoll_${label}_${counter}`,
			applied_at: new Date().toISOString(),
			stage: { ...template.stage, parent_stage: 'new' },
		};
		await control.put('applications', application);
		added.push(application.id);
		return application.id;
	};
	/** Waits for the executions of `workflowId` to have emitted `count` application ids in all. */
	const emittedCount = async (workflowId, count, what) =>
		await waitFor(what, async () => {
			const runs = await emittedRuns(n8n, workflowId);
			const ids = runs.flatMap((r) => r.ids);
			return ids.length >= count && runs;
		}, { timeoutMs: NEXT_POLL_MS, intervalMs: 1000 });
	const jobGone = jobGoneChecks(n8n, sb, { workflowOf: (name, parameters) => pollingWorkflow(credential, name, parameters), nodeName: NODE, nextPollMs: NEXT_POLL_MS, avoid: jobId });
	let wf;
	let stageWf;
	let stageBefore;
	const names = [
		'polling: activate -> the first poll records where the account stands, no execution',
		'polling: 3 applications added -> the next poll emits exactly those 3',
		'polling: stage changes on a chosen job -> one item per change with the previous and the new stage',
		'polling: New Job Note on two jobs, one deleted at the service -> the other\'s note comes, one failed execution names the deleted job, a later poll adds none',
		'polling: n8n stopped, 2 added, started -> exactly those 2',
		'polling: unpublished, the trigger node renamed, 1 added, published -> exactly that 1 (the state is found by node ID)',
		'polling: polls answered 500 while 250 are added -> no execution, nothing lost: the next poll emits exactly the 250, none twice',
		'polling: every added application exactly once across all of it',
	];
	const durableNames = [
		'polling (durable): a poll held past N8N_SCHEDULER_POLL_TIMEOUT (10 s) -> n8n abandons it, nothing emitted from it',
		'polling (durable): the list answered 429 with Retry-After: 90 -> n8n polls no more for 90 s (1-minute polls); then the 6 added since the slow poll, each once',
	];
	try {
		await checks.check(names[0], async () => {
			wf = await n8n.api('POST', '/workflows', pollingWorkflow(credential, 'E2E: Recruiting Polling Trigger', { event: 'application.created' }));
			stageWf = await n8n.api(
				'POST',
				'/workflows',
				pollingWorkflow(credential, 'E2E: Recruiting Polling Trigger (stages)', { event: 'application.stage.updated', jobIds: jobId }),
			);
			await control.clearRequests();
			await n8n.api('POST', `/workflows/${wf.id}/activate`);
			await n8n.api('POST', `/workflows/${stageWf.id}/activate`);
			await jobGone.start();
			const requests = await waitFor('the first polls', async () => {
				const all = await control.requests();
				const lists = all.filter((r) => r.path === '/v1.0/cmp_demo/applications');
				return lists.some((r) => r.query.sort === '-applied_at') && lists.some((r) => r.query.job_id === jobId) && lists;
			});
			assert.ok(requests.every((r) => r.status === 200), `statuses: ${requests.map((r) => r.status).join(', ')}`);
			await sleep(2000);
			assert.deepStrictEqual(await emittedRuns(n8n, wf.id), []);
			assert.deepStrictEqual(await emittedRuns(n8n, stageWf.id), []);
		});
		await checks.check(names[1], async () => {
			await jobGone.act();
			const three = [await apply('a'), await apply('b'), await apply('c')];
			const ofJob = seeded.values('applications').filter((a) => a.job.id === jobId).slice(0, 2);
			stageBefore = ofJob.map((a) => ({ id: a.id, stage: a.stage }));
			for (const [i, a] of ofJob.entries()) {
				const parent = i === 0 ? 'offered' : 'hired';
				await control.put('applications', { ...a, stage: { ...a.stage, parent_stage: parent } });
			}
			const runs = await emittedCount(wf.id, 3, 'the poll that emits the 3 applications');
			assert.deepStrictEqual(runs.map((r) => r.ids), [three]);
			const item = runs[0].items[0];
			assert.deepStrictEqual(Object.keys(item).sort(), ['deliveryId', 'event', 'eventKey', 'messageId', 'object', 'timestamp']);
			assert.strictEqual(item.event, 'application.created');
			assert.strictEqual(item.eventKey, `application.created:${item.object.id}`);
		});
		await checks.check(names[2], async () => {
			const runs = await emittedCount(stageWf.id, 2, 'the poll that finds the 2 stage changes');
			const items = runs.flatMap((r) => r.items);
			assert.strictEqual(items.length, 2, `items: ${JSON.stringify(items.map((i) => i.object.id))}`);
			for (const before of stageBefore) {
				const item = items.find((i) => i.object.id === before.id);
				assert.ok(item, `no item for ${before.id}`);
				assert.strictEqual(item.event, 'application.stage.updated');
				assert.strictEqual(item.previousStage.parent_stage, before.stage.parent_stage);
				assert.notStrictEqual(item.object.stage.parent_stage, before.stage.parent_stage);
			}
			await n8n.api('POST', `/workflows/${stageWf.id}/deactivate`);
		});
		await checks.check(names[3], () => jobGone.check());
		if (restart) {
			await checks.check(names[4], async () => {
				await n8n.stop();
				const two = [await apply('d'), await apply('e')];
				await n8n.start();
				const runs = await emittedCount(wf.id, 5, 'the first poll after the restart');
				assert.deepStrictEqual(runs.map((r) => r.ids).slice(1), [two]);
			});
		}
		await checks.check(names[5], async () => {
			const before = (await emittedRuns(n8n, wf.id)).flatMap((r) => r.ids).length;
			await n8n.api('POST', `/workflows/${wf.id}/deactivate`);
			await renameTrigger(n8n, wf.id);
			const one = await apply('f');
			await n8n.api('POST', `/workflows/${wf.id}/activate`);
			const runs = await emittedCount(wf.id, before + 1, 'the poll at publishing');
			assert.deepStrictEqual(runs[runs.length - 1].ids, [one]);
			// What n8n kept: its node static data by name (the old name's too), the trigger's copy by node ID.
			const { staticData } = await n8n.api('GET', `/workflows/${wf.id}`);
			log(`static data after the rename: ${Object.keys(staticData ?? {}).join(', ')}; global: ${Object.keys(staticData?.global ?? {}).join(', ')}`);
		});
		await checks.check(names[6], async () => {
			const before = (await emittedRuns(n8n, wf.id)).filter((r) => r.status === 'success').length;
			await control.setFaults([{ kind: 'status', status: 500, path: 'applications', times: -1 }]);
			const many = [];
			for (let i = 0; i < 250; i++) many.push(await apply(`m${i}`));
			// A poll meets the 500s (and its retries): wait until they stop coming, then let the service recover.
			const refused = async () => (await control.requests()).filter((r) => r.status === 500).length;
			await waitFor('a poll answered 500', async () => (await refused()) > 0, { timeoutMs: NEXT_POLL_MS, intervalMs: 1000 });
			let last = -1;
			await waitFor('the failed poll to give up', async () => {
				const now = await refused();
				const settled = now === last;
				last = now;
				return settled;
			}, { timeoutMs: 60_000, intervalMs: 8000 });
			assert.strictEqual((await emittedRuns(n8n, wf.id)).filter((r) => r.status === 'success').length, before, 'an execution started while the service answered 500');
			await control.setFaults([]);
			const runs = await emittedCount(wf.id, added.length, 'the poll after the 500');
			const successes = runs.filter((r) => r.status === 'success');
			assert.strictEqual(successes.length, before + 1, `executions: ${JSON.stringify(runs.map((r) => [r.status, r.ids.length]))}`);
			// Applications added in the same millisecond may come in either order.
			assert.deepStrictEqual([...successes[successes.length - 1].ids].sort(), [...many].sort());
		});
		if (durable) await durablePollingChecks(checks, n8n, sb, wf, { apply, emittedRuns, nextPollMs: NEXT_POLL_MS, names: durableNames });
		await checks.check(names[7], async () => {
			const runs = await emittedRuns(n8n, wf.id);
			const ids = runs.flatMap((r) => r.ids);
			assert.strictEqual(new Set(ids).size, ids.length, 'an application was emitted twice');
			assert.deepStrictEqual([...ids].sort(), [...added].sort());
			if (queue) {
				// Polled on the main process, run on the worker.
				const fs = require('fs');
				const { worker, main } = n8n.processes;
				const executions = (await executionsOf(n8n, wf.id)).filter((e) => e.status === 'success');
				assert.ok(executions.length > 0 && executions.every((e) => e.mode === 'trigger'), 'executions not started by the poller');
				for (const { id } of executions) {
					await waitFor(`the worker to log execution ${id}`, () => new RegExp(`finished execution ${id}\\b`, 'i').test(fs.readFileSync(worker.logFile, 'utf8')), { timeoutMs: 10000 });
					assert.doesNotMatch(fs.readFileSync(main.logFile, 'utf8'), new RegExp(`finished execution ${id}\\b`, 'i'), `main ran execution ${id}`);
				}
			}
		});
	} finally {
		for (const w of [wf, stageWf]) if (w) await n8n.api('POST', `/workflows/${w.id}/deactivate`).catch(() => {});
		await jobGone.stop();
		await control.setFaults([]).catch(() => {});
	}
}

module.exports = { pollingChecks };
