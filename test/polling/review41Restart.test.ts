/**
 * Review of issue 41: the durable engine's window between publishing and the first scheduled poll,
 * when the process that published is not the one that polls next (a restart, a new leader in multi-main).
 */
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import type { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { pollHarness, RestartableProcess } from '../harness';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const ids = (items: IDataObject[]) => items.map((item) => String((item.object as { id: string }).id));

describe.each(['init', 'leadershipChange'] as const)('durable engine, %s before the first scheduled poll', (mode) => {
	it('an application added after publishing is reported once', async () => {
		const n8n = new RestartableProcess(() => {
			const { RecruitingPollingTrigger: Node } = require('../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node') as { RecruitingPollingTrigger: typeof RecruitingPollingTrigger };
			return new Node();
		});
		const trigger = pollHarness(n8n.node as never, { event: 'application.created', options: {} } as never, {
			engine: 'durable',
			credentials: { recruitingApi: { baseUrl: fx.sandbox.url, companyId: fx.sandbox.companyId, get accessToken() { return fx.sandbox.token; } } },
			credentialTypes: [new RecruitingApi()],
		});
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const added = fx.apply(at(0));
		// n8n restarts (or another main takes over) before the first scheduled poll.
		trigger.stop();
		if (!process.env.REVIEW41_CONTROL) n8n.restart();
		await trigger.activate(mode);
		await trigger.tick();
		await trigger.tick();
		expect(ids(trigger.executions.flat())).toEqual([added.id]);
	});
});
