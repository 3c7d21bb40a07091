/**
 * Review of issue 41: the first poll's seed (pollState.ts, kept in the workflow's global static data) on n8n's durable polling engine.
 */
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { pollHarness } from '../harness';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const ids = (items: IDataObject[]) => items.map((item) => String((item.object as { id: string }).id));

describe('seed memo (durable engine)', () => {
	it('a first scheduled poll whose result n8n discards (republished meanwhile) does not make its entries lost', async () => {
		const trigger = fx.trigger({ event: 'application.created' }, 'durable');
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const added = fx.apply(at(0));
		// The first scheduled poll runs; the user republishes while it runs: n8n discards its items and commits nothing.
		const running = process.env.REVIEW41_CONTROL ? Promise.resolve({ emitted: [] }) : trigger.tick();
		trigger.stop();
		expect((await running).emitted).toEqual([]);
		expect(trigger.executions).toEqual([]);
		// Published again: the application that was never emitted must come now or at the next poll.
		await trigger.activate('update');
		await trigger.tick();
		expect(ids(trigger.executions.flat())).toEqual([added.id]);
	});

	it('a workflow deleted and imported again (same IDs, no static data) with Start From: its first poll reports from Start From', async () => {
		const workflowId = `review41-reimported-${Date.now()}`;
		const make = (parameters: IDataObject) =>
			pollHarness(new RecruitingPollingTrigger(), { options: {}, ...parameters } as never, {
				engine: 'durable',
				workflowId,
				credentials: { recruitingApi: { baseUrl: fx.sandbox.url, companyId: fx.sandbox.companyId, get accessToken() { return fx.sandbox.token; } } },
				credentialTypes: [new RecruitingApi()],
			});
		const first = make({ event: 'application.created' });
		await first.activate();
		if (!process.env.REVIEW41_CONTROL) await first.tick();
		first.stop();
		// Deleted; later imported again (n8n import:workflow keeps the workflow's and the node's IDs), with Start From.
		const reimported = make({ event: 'application.created', options: { startFrom: fx.seeded[4].applied_at } });
		expect(reimported.staticData).toEqual({});
		const { emitted } = await reimported.activate();
		expect(ids(emitted).sort()).toEqual(fx.seeded.slice(0, 5).map((a) => a.id).sort());
	});
});
