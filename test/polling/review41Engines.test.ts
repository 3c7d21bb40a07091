/**
 * Review of issue 41: activation-poll detection and overlapping polls on n8n's durable polling engine.
 */
import { PollContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { TriggerWorkflow } from '../harness/triggerWorkflow';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const ids = (items: IDataObject[]) => items.map((item) => String((item.object as { id: string }).id));

/** Durable polling with N8N_SCHEDULER_POLL_TIMEOUT raised (a slow service): each scheduled poll on a context of its own with that budget. */
function durableWithBudget(parameters: IDataObject, budgetMs: number) {
	const trigger = new TriggerWorkflow(new RecruitingPollingTrigger(), { pollTimes: { item: [{ mode: 'everyMinute' }] }, options: {}, ...parameters } as never, {
		workflowId: `review41-budget-${Date.now()}`,
		credentials: { recruitingApi: { baseUrl: fx.sandbox.url, companyId: fx.sandbox.companyId, get accessToken() { return fx.sandbox.token; } } },
		credentialTypes: [new RecruitingApi()],
	});
	const never = () => {
		throw new Error('n8n hands the result over itself');
	};
	const poll = async (activation: 'activate' | 'update', budget?: number) => {
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
	return { activate: () => poll('activate'), scheduled: () => poll('update', budgetMs) };
}

describe('activation poll detection', () => {
	it('a scheduled poll with a poll budget of 10 min (poll timeout raised) under a long rate limit fails declaring rate-limited', async () => {
		const t = durableWithBudget({ event: 'application.created' }, 10 * 60_000);
		expect(await t.activate()).toEqual([]);
		expect(await t.scheduled()).toEqual([]);
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: -1 }]);
		// Not an activation: n8n must learn it was rate limited (and for how long), to back off.
		await expect(t.scheduled()).rejects.toMatchObject({ failure: { cause: 'rate-limited' } });
	}, 60_000);
});

describe('a poll run twice (durable engine)', () => {
	it('holds (not reproduced): two overlapping runs of one scheduled poll emit a new application once', async () => {
		const trigger = fx.trigger({ event: 'application.created' }, 'durable');
		await trigger.activate();
		await trigger.tick();
		const added = fx.apply(at(0));
		await Promise.all([trigger.tick(), trigger.tick()]);
		await trigger.tick();
		expect(ids(trigger.executions.flat())).toEqual([added.id]);
	});
});
