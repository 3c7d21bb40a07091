/**
 * Review of issue 41: the stage snapshot's encoding, its moves count, and Fetch Test Event for stage changes.
 */
import type { IDataObject } from 'n8n-workflow';

import { stageChanges } from '../../nodes/RecruitingPollingTrigger/stages';
import type { Application } from '../../sandbox';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();

describe('stage snapshot encoding', () => {
	it('unit: a custom stage ID holding "|" is no move at the next poll', () => {
		const application = { id: 'app_1', stage: { parent_stage: 'screening', custom_stage: { id: 'cs|7', name: 'Phone' } } } as IDataObject;
		const byJob = new Map([['job_1', [application]]]);
		const first = stageChanges(byJob, undefined, 'x');
		const second = stageChanges(byJob, first.stages, 'y');
		expect(second.items).toEqual([]);
	});

	it('a custom stage whose ID holds "|" (as the service sends it): no stage change is invented at each poll', async () => {
		const application = fx.seeded[0];
		const jobId = application.job.id;
		fx.sandbox.put('applications', { ...application, stage: { parent_stage: 'screening', custom_stage: { id: 'cs|phone', name: 'Phone screen' } } } as unknown as Application);
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		expect((await trigger.tick()).emitted).toEqual([]);
		expect((await trigger.tick()).emitted).toEqual([]);
	});
});

describe('stage change messageId', () => {
	it('a job removed from Job IDs and added back: a later, different move does not reuse an earlier move\'s messageId', async () => {
		const jobA = fx.seeded[0].job.id;
		const jobB = fx.seeded.find((a) => a.job.id !== jobA)!.job.id;
		const application = fx.seeded.find((a) => a.job.id === jobA)!;
		const move = (parent: string) =>
			fx.sandbox.put('applications', { ...(fx.sandbox.get('applications', application.id) as Application), stage: { parent_stage: parent, custom_stage: null } } as unknown as Application);
		move('new');
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobA });
		await trigger.activate();
		move('screening');
		await trigger.tick();
		move('interviewing');
		await trigger.tick();
		trigger.stop();
		trigger.setParameters({ event: 'application.stage.updated', jobIds: jobB });
		await trigger.activate('update');
		trigger.stop();
		trigger.setParameters({ event: 'application.stage.updated', jobIds: `${jobB}, ${jobA}` });
		await trigger.activate('update');
		move('screening');
		await trigger.tick();
		const messageIds = trigger.executions.flat().map((i) => String(i.messageId));
		expect(messageIds).toHaveLength(3);
		// interviewing → screening is another change than new → screening: it must not carry the same messageId.
		expect(new Set(messageIds).size).toBe(3);
	});
});

describe('Fetch Test Event for stage changes', () => {
	it('with Parent Stages, the sample is an application in one of them (or nothing to show)', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId, options: { parentStages: ['hired'] } });
		const { emitted } = await trigger.manual();
		const stages = emitted.map((item) => (item.object as { stage: { parent_stage: string } }).stage.parent_stage);
		expect(stages.filter((stage) => stage !== 'hired')).toEqual([]);
	});
});
