/**
 * Application Stage Changed: what a change reports, that only a move is a change (a renamed stage, an
 * odd stage ID, a list changing while read invent none), its messageId, and its limits. Against the
 * sandbox, and the fake list service where the list changes between two pages of one read.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_FOLLOWED_APPLICATIONS, stageChanges } from '../../nodes/RecruitingPollingTrigger/stages';
import type { Application } from '../../sandbox';
import { useFakeListService } from '../harness/fakeServices';
import { application, at, ids, MINUTE, triggerOn } from './fakeKit';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();
const fake = useFakeListService();
const trigger = triggerOn(fake, 'tok_stages');
const objectIds = (items: IDataObject[]) => items.map((item) => (item.object as { id: string }).id);

const moved = (application: Application, parent: string, job?: Application['job']): Application => {
	const next = {
		...application,
		...(job && { job }),
		stage: { ...application.stage, parent_stage: parent, custom_stage: { id: `stg_${parent}`, name: `Custom ${parent}` } },
	};
	fx.sandbox.put('applications', next);
	return next;
};

describe('what a stage change reports', () => {
	it('one item per application whose stage changed, with the previous and the new stage', async () => {
		const jobId = fx.seeded[0].job.id;
		const ofJob = fx.seeded.filter((a) => a.job.id === jobId);
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const first = moved(ofJob[0], 'offered');
		const second = moved(ofJob[1], 'hired');
		moved(fx.seeded.find((a) => a.job.id !== jobId)!, 'hired');
		const { emitted } = await trigger.tick();
		expect(objectIds(emitted).sort()).toEqual([first.id, second.id].sort());
		const item = emitted.find((i) => (i.object as Application).id === first.id)!;
		expect(item).toEqual({
			event: 'application.stage.updated',
			timestamp: expect.any(String),
			messageId: expect.stringMatching(/^poll:application\.stage\.updated:/),
			eventKey: `application.stage.updated:${first.id}>offered|${first.stage.custom_stage?.id ?? ''}`,
			deliveryId: null,
			object: expect.objectContaining({ id: first.id, stage: first.stage }),
			previousStage: {
				parent_stage: ofJob[0].stage.parent_stage,
				custom_stage: ofJob[0].stage.custom_stage ? { id: ofJob[0].stage.custom_stage.id, name: ofJob[0].stage.custom_stage.name } : null,
			},
		});
		expect((await trigger.tick()).emitted).toEqual([]);
		// A new application of the job is recorded, not reported; its next move is.
		const fresh = fx.apply(at(0), { job: ofJob[0].job });
		expect((await trigger.tick()).emitted).toEqual([]);
		moved(fresh, 'screening');
		expect(objectIds((await trigger.tick()).emitted)).toEqual([fresh.id]);
	});

	it('Parent Stages keeps the moves into those stages', async () => {
		const jobId = fx.seeded[0].job.id;
		const ofJob = fx.seeded.filter((a) => a.job.id === jobId);
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId, options: { parentStages: ['hired'] } });
		await trigger.activate();
		moved(ofJob[0], 'offered');
		const hired = moved(ofJob[1], 'hired');
		expect(objectIds((await trigger.tick()).emitted)).toEqual([hired.id]);
	});

	it('an application moved from one followed job to another, into a new stage, is reported', async () => {
		const jobA = fx.seeded[0].job;
		const jobB = fx.seeded.find((a) => a.job.id !== jobA.id)!.job;
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: `${jobA.id},${jobB.id}` });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const application = fx.seeded.find((a) => a.job.id === jobA.id)!;
		const next = moved(application, 'interview', jobB);
		expect(ids((await trigger.tick()).emitted)).toEqual([next.id]);
	});

	it('a stage change survives an n8n restart when the application was first seen by a poll that emitted nothing', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
		await trigger.activate();
		const fresh = fx.apply(at(0), { job: fx.seeded[0].job });
		// Recorded in the snapshot by this poll, which returns null: n8n keeps that in memory only.
		expect((await trigger.tick()).emitted).toEqual([]);
		trigger.stop();
		moved(fresh, 'interview');
		const afterRestart = [...ids((await trigger.activate('init')).emitted), ...ids((await trigger.tick()).emitted)];
		expect(afterRestart).toEqual([fresh.id]);
	});

	it('Fetch Test Event: an application of the chosen jobs, without touching the snapshot', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
		const { emitted } = await trigger.manual();
		expect(emitted).toHaveLength(1);
		expect(emitted[0]).toMatchObject({ event: 'application.stage.updated', previousStage: null, object: { job: { id: jobId } } });
		expect(trigger.staticData).toEqual({});
	});

	it('Fetch Test Event with Parent Stages: the sample is an application in one of them (or nothing to show)', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId, options: { parentStages: ['hired'] } });
		const { emitted } = await trigger.manual();
		const stages = emitted.map((item) => (item.object as { stage: { parent_stage: string } }).stage.parent_stage);
		expect(stages.filter((stage) => stage !== 'hired')).toEqual([]);
	});
});

describe('only a move is a change', () => {
	it('renaming a custom stage reports nothing; the next real move is reported with the new name', async () => {
		const jobId = fx.seeded[0].job.id;
		const ofJob = fx.seeded.filter((a) => a.job.id === jobId && a.stage.custom_stage);
		expect(ofJob.length).toBeGreaterThan(0);
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		for (const a of ofJob) {
			const stage = a.stage as unknown as { parent_stage: string; custom_stage: { id: string; name: string } };
			fx.sandbox.put('applications', { ...a, stage: { ...stage, custom_stage: { ...stage.custom_stage, name: `${stage.custom_stage.name} | renamed` } } } as Application);
		}
		expect((await trigger.tick()).emitted).toEqual([]);
		const moved = { ...(fx.sandbox.get('applications', ofJob[0].id) as Application) };
		fx.sandbox.put('applications', { ...moved, stage: { parent_stage: 'hired', custom_stage: null } } as unknown as Application);
		const [item] = (await trigger.tick()).emitted as Array<IDataObject & { previousStage: { custom_stage: { name: string } } }>;
		expect(item.previousStage.custom_stage.name).toMatch(/\| renamed$/);
	});

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

	it('an application deleted from page 1 while page 2 is read: no stage change is invented for the application that shifted onto page 1', async () => {
		fake.lists.set('/jobs/job_1', { items: [], field: 'applied_at', order: 'newestFirst' }); // the job exists
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		// 150 applications of job_1; the 101st newest (first of page 2) has long been in Interview.
		for (let i = 0; i < 150; i++) {
			apps.items.push(application(`app_s${String(i).padStart(3, '0')}`, at(-(i + 1) * MINUTE), i === 100 ? { stage: { parent_stage: 'interview', custom_stage: null } } : {}));
		}
		const t = trigger({ event: 'application.stage.updated', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		// A recruiter deletes (or moves to another job) an application of page 1 while the poll reads page 2.
		fake.beforePage = (path, page) => {
			if (path === '/applications' && page === 2) {
				apps.items.splice(0, 1);
				fake.beforePage = undefined;
			}
		};
		const emitted = [...(await t.tick()).emitted, ...(await t.tick()).emitted, ...(await t.tick()).emitted];
		// Nobody moved: no stage change.
		expect(emitted.map((item) => `${String((item.object as IDataObject).id)} previousStage=${JSON.stringify(item.previousStage)}`)).toEqual([]);
	});

	it('an application added while page 2 is read: the poll reads the job again, fails nothing and invents nothing', async () => {
		fake.lists.set('/jobs/job_1', { items: [], field: 'applied_at', order: 'newestFirst' });
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 150; i++) apps.items.push(application(`app_s${String(i).padStart(3, '0')}`, at(-(i + 1) * MINUTE), i === 99 ? { stage: { parent_stage: 'interview', custom_stage: null } } : {}));
		const t = trigger({ event: 'application.stage.updated', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		fake.beforePage = (path, page) => {
			if (path === '/applications' && page === 2) {
				apps.items.push(application('app_added', at(0)));
				fake.beforePage = undefined;
			}
		};
		const emitted = [...(await t.tick()).emitted, ...(await t.tick()).emitted];
		expect(t.failures).toEqual([]);
		expect(emitted).toEqual([]);
	});

	it('a job whose applications change at every page of three reads fails the poll as temporarily unavailable, naming the list; the next poll goes on', async () => {
		fake.lists.set('/jobs/job_1', { items: [], field: 'applied_at', order: 'newestFirst' });
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 150; i++) apps.items.push(application(`app_s${String(i).padStart(3, '0')}`, at(-(i + 1) * MINUTE)));
		const t = trigger({ event: 'application.stage.updated', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		let added = 0;
		fake.beforePage = (path, page) => {
			if (path === '/applications' && page === 2) apps.items.push(application(`app_added${++added}`, at(0)));
		};
		const error = (await t.tick()).error as (Error & { description?: string; failure?: { cause: string } }) | undefined;
		expect(added).toBe(3);
		expect(error?.message).toMatch(/inconsistent list/);
		expect(error?.description).toMatch(/\/applications: its length changed while it was read, 3 times/);
		expect(error?.failure?.cause).toBe('temporarily-unavailable');
		fake.beforePage = undefined;
		expect(await t.tick()).toEqual({ emitted: [] });
	});
});

describe('a change\'s messageId', () => {
	it('names the application, the stages moved from and to, and its count of moves', () => {
		const application = { id: 'app_1', stage: { parent_stage: 'interview', custom_stage: null } } as IDataObject;
		const first = stageChanges(new Map([['job_1', [application]]]), { job_1: { app_1: [0, 'new', '', ''] as [number, string, string, string] } }, '2026-01-01T00:00:00.000Z').items[0];
		expect(first.messageId).toBe('poll:application.stage.updated:app_1:new|>interview|:1');
	});

	it('the same move found twice has the same messageId; a move back and forth again a new one', () => {
		const application = { id: 'app_1', stage: { parent_stage: 'interview', custom_stage: null } } as IDataObject;
		const byJob = new Map([['job_1', [application]]]);
		const before = { job_1: { app_1: [0, 'new', '', ''] as [number, string, string, string] } };
		const first = stageChanges(byJob, before, '2026-01-01T00:00:00.000Z');
		const again = stageChanges(byJob, before, '2026-01-01T00:01:00.000Z');
		expect(again.items[0].messageId).toBe(first.items[0].messageId);
		const back = stageChanges(new Map([['job_1', [{ ...application, stage: { parent_stage: 'new', custom_stage: null } }]]]), first.stages, 'x');
		const forth = stageChanges(byJob, back.stages, 'y');
		expect(new Set([first.items[0].messageId, back.items[0].messageId, forth.items[0].messageId]).size).toBe(3);
	});

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

describe('the jobs followed', () => {
	it(`more than ${MAX_FOLLOWED_APPLICATIONS} applications in the chosen jobs: a clear error, not silent loss`, async () => {
		const jobId = fx.seeded[0].job.id;
		for (let i = 0; i < MAX_FOLLOWED_APPLICATIONS; i++) fx.apply(at(-i), { job: fx.seeded[0].job });
		const { error } = await fx.trigger({ event: 'application.stage.updated', jobIds: jobId }).activate();
		expect(error?.message).toContain(`more than ${MAX_FOLLOWED_APPLICATIONS} applications`);
		expect((error as { description?: string }).description).toMatch(/^Job IDs: choose fewer jobs/);
	});

	it('no job chosen: an error naming the field, before any request', async () => {
		const { error } = await fx.trigger({ event: 'application.stage.updated', jobIds: '' }).activate();
		expect(error?.message).toMatch(/^Job IDs: enter at least one job ID/);
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});

describe('Application Stage Changed published while the service rate-limits', () => {
	const moved = (app: Application, parent: string): Application => {
		const next = { ...app, stage: { ...app.stage, parent_stage: parent, custom_stage: { id: `stg_${parent}`, name: `Custom ${parent}` } } };
		fx.sandbox.put('applications', next);
		return next;
	};
	async function run(rateLimited: boolean) {
		const jobId = fx.seeded[0].job.id;
		const ofJob = fx.seeded.filter((a) => a.job.id === jobId);
		const t = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
		if (rateLimited) fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: -1 }]);
		expect(await t.activate()).toEqual({ emitted: [] });
		if (rateLimited) {
			fx.sandbox.setFaults([]);
			fx.sandbox.rotateToken();
		}
		// A minute after publishing, a recruiter moves a candidate.
		const m = moved(ofJob[0], ofJob[0].stage.parent_stage === 'offered' ? 'hired' : 'offered');
		const emitted = [...(await t.tick()).emitted, ...(await t.tick()).emitted].map((i) => (i.object as { id: string }).id);
		return { emitted, id: m.id };
	}

	it('published without a rate limit: the move after publishing is reported', async () => {
		const { emitted, id } = await run(false);
		expect(emitted).toEqual([id]);
	}, 60_000);

	// KNOWN LIMIT: stage changes are found by comparing snapshots; a publish the service rate-limits takes
	// none, so a move made before the first poll that reads the job is not seen (docs/polling-trigger.md).
	test.failing('published under a rate limit (the activation succeeds): the move after publishing is reported', async () => {
		const { emitted, id } = await run(true);
		expect(emitted).toEqual([id]);
	}, 60_000);
});
