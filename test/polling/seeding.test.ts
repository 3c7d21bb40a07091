/**
 * The first poll (the seed): where the account stands when the trigger is published, Start From,
 * the activation poll under a rate limit, and the activation poll known as such. Against the sandbox
 * through n8n-core's PollContext (usePollingFixture). An entry stamped ahead of the clock at the
 * first poll is in cursorAndLateEntries.test.ts.
 * POLLING_CONTROL=1 runs the cases that read it without their fault (a control: the same setup).
 */
import { PollContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { pollHarness } from '../harness';
import { TriggerWorkflow } from '../harness/triggerWorkflow';
import { at, ids, noteIds } from './fakeKit';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();
const { note, twoJobs } = fx;
const NEW_APPLICATION = { event: 'application.created' };

describe('the first poll', () => {
	it('records where the account stands and emits nothing, in one request', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		const first = await trigger.activate();
		expect(first).toEqual({ emitted: [] });
		expect(fx.applicationRequests()).toHaveLength(1);
		expect(trigger.executions).toEqual([]);
		// Saved at activation (n8n's ActiveWorkflowManager saves static data after the first poll).
		expect(JSON.stringify(trigger.staticData)).toContain(fx.seeded[0].id);
	});

	it('an empty first page at activation (a transient glitch) does not flood the whole history at the next poll', async () => {
		fx.sandbox.setFaults([{ kind: 'empty_page', path: 'applications', page: 1, times: 1 }]);
		const trigger = fx.trigger(NEW_APPLICATION);
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const added = fx.apply(at(0));
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
	});
});

describe('Start From', () => {
	it('reports everything from that time at the first poll, oldest first', async () => {
		const since = fx.seeded[4].applied_at;
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { startFrom: since } });
		const { emitted } = await trigger.activate();
		expect(ids(emitted)).toEqual(fx.seeded.slice(0, 5).map((a) => a.id).reverse());
	});

	it('clearing Start From later: the application added while unpublished is not missed', async () => {
		const since = fx.seeded[2].applied_at;
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { startFrom: since } });
		expect((await trigger.activate()).emitted).toHaveLength(3);
		trigger.stop();
		const whileUnpublished = fx.apply(at(0));
		trigger.setParameters({ ...NEW_APPLICATION, options: {} });
		expect(ids((await trigger.activate('update')).emitted)).toEqual([whileUnpublished.id]);
	});

	it('moving Start From later: what was already emitted is not emitted again', async () => {
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { startFrom: fx.seeded[4].applied_at } });
		expect((await trigger.activate()).emitted).toHaveLength(5);
		trigger.stop();
		trigger.setParameters({ ...NEW_APPLICATION, options: { startFrom: fx.seeded[1].applied_at } });
		expect(ids((await trigger.activate('update')).emitted)).toEqual([]);
	});

	it('counts once, at the trigger\'s first poll: a job added to Job IDs later is seeded (no backlog); removed and added back, nothing is delivered again', async () => {
		const [jobA, jobB] = twoJobs();
		for (let i = 0; i < 3; i++) note(`jnote_b_old${i}`, jobB, at(-7 * 86_400_000 + i * 1000));
		const startFrom = at(-30 * 86_400_000);
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: jobA, options: { startFrom } });
		await trigger.activate();
		trigger.stop();
		trigger.setParameters({ event: 'job.note.created', jobIds: `${jobA},${jobB}`, options: { startFrom } });
		expect((await trigger.activate('update')).emitted).toEqual([]);
		const fresh = 'jnote_b_fresh';
		note(fresh, jobB);
		expect(noteIds((await trigger.tick()).emitted)).toEqual([`${jobB}:${fresh}`]);
		trigger.stop();
		trigger.setParameters({ event: 'job.note.created', jobIds: jobA, options: { startFrom } });
		await trigger.activate('update');
		trigger.stop();
		trigger.setParameters({ event: 'job.note.created', jobIds: `${jobA},${jobB}`, options: { startFrom } });
		expect((await trigger.activate('update')).emitted).toEqual([]);
		const all = trigger.executions.flat().map((i) => String(i.messageId));
		expect(all.length).toBe(new Set(all).size);
	});

	it('counts once: the event switched away and back: nothing delivered again', async () => {
		const NEW_APPLICATION = { event: 'application.created', options: { startFrom: fx.seeded[4].applied_at } };
		const trigger = fx.trigger(NEW_APPLICATION);
		expect((await trigger.activate()).emitted).toHaveLength(5);
		trigger.stop();
		trigger.setParameters({ ...NEW_APPLICATION, event: 'feedback.submitted' });
		await trigger.activate('update');
		trigger.stop();
		trigger.setParameters(NEW_APPLICATION);
		expect((await trigger.activate('update')).emitted).toEqual([]);
		const added = fx.apply(at(0));
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
	});

	it('a workflow deleted and imported again (same IDs, no static data) with Start From: its first poll reports from Start From', async () => {
		const workflowId = `reimported-${Date.now()}`;
		const make = (parameters: IDataObject) =>
			pollHarness(new RecruitingPollingTrigger(), { options: {}, ...parameters } as never, {
				engine: 'durable',
				workflowId,
				credentials: { recruitingApi: { baseUrl: fx.sandbox.url, companyId: fx.sandbox.companyId, get accessToken() { return fx.sandbox.token; } } },
				credentialTypes: [new RecruitingApi()],
			});
		const first = make({ event: 'application.created' });
		await first.activate();
		if (!process.env.POLLING_CONTROL) await first.tick();
		first.stop();
		// Deleted; later imported again (n8n import:workflow keeps the workflow's and the node's IDs), with Start From.
		const reimported = make({ event: 'application.created', options: { startFrom: fx.seeded[4].applied_at } });
		expect(reimported.staticData).toEqual({});
		const { emitted } = await reimported.activate();
		expect(ids(emitted).sort()).toEqual(fx.seeded.slice(0, 5).map((a) => a.id).sort());
	});
});

describe('the seed on the durable engine', () => {
	it('a first scheduled poll whose result n8n discards (republished meanwhile) does not make its entries lost', async () => {
		const trigger = fx.trigger({ event: 'application.created' }, 'durable');
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const added = fx.apply(at(0));
		// The first scheduled poll runs; the user republishes while it runs: n8n discards its items and commits nothing.
		const running = process.env.POLLING_CONTROL ? Promise.resolve({ emitted: [] }) : trigger.tick();
		trigger.stop();
		expect((await running).emitted).toEqual([]);
		expect(trigger.executions).toEqual([]);
		// Published again: the application that was never emitted must come now or at the next poll.
		await trigger.activate('update');
		await trigger.tick();
		expect(ids(trigger.executions.flat())).toEqual([added.id]);
	});
});

describe('the activation poll under a rate limit', () => {
	it('a rate limit longer than Max Wait at activation does not fail the activation', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: 1 }]);
		const { error } = await fx.trigger(NEW_APPLICATION).activate();
		expect(error?.message).toBeUndefined();
	});

	it('a first poll rate-limited past its short wait does not fail the activation; the next poll reports what came since', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 120, times: -1 }]);
		const trigger = fx.trigger(NEW_APPLICATION);
		const first = await trigger.activate();
		expect(first).toEqual({ emitted: [] });
		fx.sandbox.setFaults([]);
		// A new token, so a credential without the pause the service asked for (the harness has no way to wait two minutes).
		fx.sandbox.rotateToken();
		const added = fx.apply(at(0));
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
		expect((await trigger.tick()).emitted).toEqual([]);
	}, 60_000);

	it.each(['activate', 'init', 'update', 'leadershipChange'] as const)(
		'%s of a published workflow under a long rate limit: the activation succeeds, the next poll catches up',
		async (mode) => {
			const trigger = fx.trigger({ event: 'application.created' });
			expect(await trigger.activate()).toEqual({ emitted: [] });
			trigger.stop();
			fx.sandbox.rotateToken();
			fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: -1 }]);
			const added = fx.apply(at(0));
			expect(await trigger.activate(mode)).toEqual({ emitted: [] });
			fx.sandbox.setFaults([]);
			fx.sandbox.rotateToken();
			expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
		},
		60_000,
	);

	/** Job A followed; job B added to Job IDs and republished (the notes rate-limited for an hour, or not); a note on job B: what the next two polls report. */
	async function jobBAddedThenNoted(rateLimited: boolean) {
		const [jobA, jobB] = twoJobs();
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: jobA });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		trigger.stop();
		trigger.setParameters({ event: 'job.note.created', jobIds: `${jobA}, ${jobB}` });
		if (rateLimited) {
			fx.sandbox.rotateToken();
			fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'notes', retryAfter: 3600, times: -1 }]);
		}
		expect(await trigger.activate('update')).toEqual({ emitted: [] });
		if (rateLimited) {
			fx.sandbox.setFaults([]);
			fx.sandbox.rotateToken();
		}
		note('jnote_b1', jobB);
		const emitted = [...noteIds((await trigger.tick()).emitted), ...noteIds((await trigger.tick()).emitted)];
		return { emitted, jobB };
	}

	/**
	 * User-visible scenario: the trigger follows job A. The user adds job B and republishes while the
	 * account is rate-limited (another workflow on the same credential is busy): publishing succeeds.
	 * A recruiter writes a note on job B a minute later: it starts the workflow.
	 */
	it('a job added to Job IDs in a republish under a rate limit: the first note on the added job after publishing is reported', async () => {
		const { emitted, jobB } = await jobBAddedThenNoted(true);
		expect(emitted).toEqual([`${jobB}:jnote_b1`]);
	}, 60_000);

	it('a job added to Job IDs in a republish without a rate limit: the first note on it is reported', async () => {
		const { emitted, jobB } = await jobBAddedThenNoted(false);
		expect(emitted).toEqual([`${jobB}:jnote_b1`]);
	}, 60_000);
});

/** Durable polling with N8N_SCHEDULER_POLL_TIMEOUT raised (a slow service): each scheduled poll on a context of its own with that budget. */
function durableWithBudget(parameters: IDataObject, budgetMs: number) {
	const trigger = new TriggerWorkflow(new RecruitingPollingTrigger(), { pollTimes: { item: [{ mode: 'everyMinute' }] }, options: {}, ...parameters } as never, {
		workflowId: `activation-budget-${Date.now()}`,
		credentials: { recruitingApi: { baseUrl: fx.sandbox.url, companyId: fx.sandbox.companyId, get accessToken() { return fx.sandbox.token; } } },
		credentialTypes: [new RecruitingApi()],
	});
	const never = () => {
		throw new Error('n8n hands the result over itself');
	};
	const poll = async (activation: 'activate' | 'init' | 'update', budget?: number) => {
		const workflow = trigger.loadWorkflow();
		const node = workflow.getNode(trigger.node.name)!;
		const context =
			budget === undefined
				? new PollContext(workflow, node, trigger.additionalData(), 'trigger', activation)
				: new PollContext(workflow, node, trigger.additionalData(), 'trigger', activation, never, never, async () => {}, async (p) => await p(), () => workflow.getStaticData('node', node), () => budget);
		const result = (await new RecruitingPollingTrigger().poll.call(context)) as INodeExecutionData[][] | null;
		trigger.store.saveFrom(workflow);
		return result === null ? [] : result[0].map((i) => i.json);
	};
	return { activate: (mode: 'activate' | 'init' = 'activate') => poll(mode, budgetMs), scheduled: () => poll('update', budgetMs) };
}

describe('the activation poll is known from n8n\'s mode, not from its time budget', () => {
	it('a scheduled poll with a poll budget of 10 min (poll timeout raised) under a long rate limit fails declaring rate-limited', async () => {
		const t = durableWithBudget({ event: 'application.created' }, 10 * 60_000);
		expect(await t.activate()).toEqual([]);
		expect(await t.scheduled()).toEqual([]);
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: -1 }]);
		// Not an activation: n8n must learn it was rate limited (and for how long), to back off.
		await expect(t.scheduled()).rejects.toMatchObject({ failure: { cause: 'rate-limited' } });
	}, 60_000);

	it.each(['activate', 'init'] as const)('publishing (%s) with a poll budget of 10 min under a long rate limit: the activation succeeds, and what comes after it is reported', async (mode) => {
		const t = durableWithBudget({ event: 'application.created' }, 10 * 60_000);
		fx.sandbox.rotateToken();
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: -1 }]);
		expect(await t.activate(mode)).toEqual([]);
		fx.sandbox.setFaults([]);
		// A new token, so a credential without the pause the service asked for.
		fx.sandbox.rotateToken();
		const added = fx.apply(at(0));
		expect(ids(await t.scheduled())).toEqual([added.id]);
	}, 60_000);
});
