/**
 * A hostile review of the Recruiting Polling Trigger (issue 31): scenarios a real user or a hostile
 * service hits, each of which failed against the first version of the trigger.
 * Sandbox scenarios use usePollingFixture; page-boundary scenarios use a tiny fake service (test/harness/fakeServices.ts)
 * (the sandbox has no way to delete an application or act between two page reads of one poll).
 */
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { LOOK_BACK_MS } from '../../nodes/RecruitingPollingTrigger/cursor';
import { stageChanges } from '../../nodes/RecruitingPollingTrigger/stages';
import type { Application, Feedback } from '../../sandbox';
import { pollHarness } from '../harness';
import { useFakeListService } from '../harness/fakeServices';
import { application, at, ids, MINUTE } from './fakeKit';
import { apiGet, usePollingFixture, warningsDuring } from './fixture';

const fx = usePollingFixture();
const NEW_APPLICATION = { event: 'application.created' };

describe('fake service', () => {
	const fake = useFakeListService();
	// A token of its own per test: a 429's pause or pace (kept per credential) must not carry into the next test.
	let token = '';
	let tokens = 0;
	beforeEach(() => {
		token = `tok_SECRET_review31_${++tokens}`;
	});
	const trigger = (parameters: IDataObject) =>
		pollHarness(new RecruitingPollingTrigger(), { options: {}, ...parameters } as never, {
			typeVersion: 1, // Job IDs as version 1's text
			credentials: { recruitingApi: { baseUrl: fake.url, companyId: 'co_fake', accessToken: token } },
			credentialTypes: [new RecruitingApi()],
		});

	it('newest first: an application deleted from page 1 while page 2 is read does not make another one missed', async () => {
		const apps = { items: [] as IDataObject[], order: 'newestFirst' as const, field: 'applied_at' };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i)));
		const t = trigger(NEW_APPLICATION);
		expect(await t.activate()).toEqual({ emitted: [] });
		// 150 applications arrived over 150 minutes while n8n was busy/stopped (one poll, two pages).
		const added = Array.from({ length: 150 }, (_, i) => application(`app_new${String(i).padStart(3, '0')}`, at(-(150 - i) * MINUTE)));
		apps.items.push(...added);
		// Between the poll's page 1 and page 2, the candidate of the newest application is deleted (GDPR).
		fake.beforePage = (path, page) => {
			if (path === '/applications' && page === 2) {
				apps.items.splice(apps.items.indexOf(added[149]), 1);
				fake.beforePage = undefined;
			}
		};
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		// The list shrank while it was read: read again. Every application that still exists, exactly once.
		expect(emitted.sort()).toEqual(added.slice(0, 149).map((a) => String(a.id)).sort());
	});

	it('oldest first (job notes): a note deleted while the next page is read does not make a new note missed', async () => {
		const notes = { items: [] as IDataObject[], order: 'oldestFirst' as const, field: 'date_created' };
		fake.lists.set('/jobs/job_1/notes', notes);
		const note = (id: string, date: string) => ({ id, date_created: date, text: id });
		for (let i = 0; i < 100; i++) notes.items.push(note(`jnote_old${String(i).padStart(3, '0')}`, at(-3 * 24 * 60 * MINUTE + i * 1000)));
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		const added = Array.from({ length: 150 }, (_, i) => note(`jnote_new${String(i).padStart(3, '0')}`, at(-(150 - i) * MINUTE)));
		notes.items.push(...added);
		// An old note is deleted while the poll reads its pages (after page 2, before page 3).
		fake.beforePage = (path, page) => {
			if (path === '/jobs/job_1/notes' && page === 3) {
				notes.items.splice(0, 1);
				fake.beforePage = undefined;
			}
		};
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		expect(emitted.sort()).toEqual(added.map((n) => n.id).sort());
	});

	it('holds: numeric application ids are emitted once each', async () => {
		const apps = { items: [] as IDataObject[], order: 'newestFirst' as const, field: 'applied_at' };
		fake.lists.set('/applications', apps);
		apps.items.push({ ...application('x', at(-MINUTE)), id: 1 });
		const t = trigger(NEW_APPLICATION);
		await t.activate();
		apps.items.push({ ...application('x', at(0)), id: 2 });
		expect(ids((await t.tick()).emitted)).toEqual(['2']);
		expect((await t.tick()).emitted).toEqual([]);
	});

	it('an application without an id is not silently skipped: n8n\'s log says so', async () => {
		const apps = { items: [application('app_1', at(-MINUTE))] as IDataObject[], order: 'newestFirst' as const, field: 'applied_at' };
		fake.lists.set('/applications', apps);
		const t = trigger(NEW_APPLICATION);
		await t.activate();
		const { id: _drop, ...withoutId } = application('ignored', at(0));
		apps.items.push(withoutId);
		const warnings = await warningsDuring(() => t.tick());
		expect(warnings).toEqual([expect.stringContaining('1 entries of /applications have no ID or no time the trigger can read')]);
	});

	it('applications whose applied_at the trigger cannot read (renamed or null): n8n\'s log says so at every poll', async () => {
		const apps = { items: [application('app_1', at(-MINUTE))] as IDataObject[], order: 'newestFirst' as const, field: 'applied_at' };
		fake.lists.set('/applications', apps);
		const t = trigger(NEW_APPLICATION);
		await t.activate();
		apps.items.unshift({ ...application('app_2', at(0)), applied_at: null });
		const warnings = await warningsDuring(async () => [await t.tick(), await t.tick()]);
		expect(warnings).toHaveLength(2);
		expect(warnings[0]).toContain('have no ID or no time the trigger can read');
	});

	it('holds: the static data holds no token', async () => {
		const apps = { items: [application('app_1', at(0))], order: 'newestFirst' as const, field: 'applied_at' };
		fake.lists.set('/applications', apps);
		const t = trigger(NEW_APPLICATION);
		await t.activate();
		expect(JSON.stringify(t.staticData)).not.toContain('tok_SECRET_review31');
	});
});

// ---------------------------------------------------------------------------------------------
// Sandbox scenarios
// ---------------------------------------------------------------------------------------------
describe('New Application: cursor and floor', () => {
	it('one application whose applied_at is ahead of the clock (clock skew) does not hide the applications after it', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		// The service (or an import) stamps one application 2 hours ahead (a time-zone slip).
		const skewed = fx.apply(at(2 * 60 * MINUTE));
		expect(ids((await trigger.tick()).emitted)).toEqual([skewed.id]);
		const normal = fx.apply(at(0));
		expect(ids((await trigger.tick()).emitted)).toEqual([normal.id]);
	});

	it('an empty first page at activation (a transient glitch) does not flood the whole history at the next poll', async () => {
		fx.sandbox.setFaults([{ kind: 'empty_page', path: 'applications', page: 1, times: 1 }]);
		const trigger = fx.trigger(NEW_APPLICATION);
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const added = fx.apply(at(0));
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
	});

	it('an empty page in the middle of a newest-first read (has_next_page true) does not lose the older new applications', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		// 150 applications over 150 minutes (n8n was stopped, or the poll interval is long).
		const added = Array.from({ length: 150 }, (_, i) => fx.apply(at(-(150 - i) * MINUTE)));
		fx.sandbox.setFaults([{ kind: 'empty_page', path: 'applications', page: 2, times: 1 }]);
		const emitted = [...ids((await trigger.tick()).emitted), ...ids((await trigger.tick()).emitted)];
		expect(emitted.sort()).toEqual(added.map((a) => a.id).sort());
	});

	it('a rate limit longer than Max Wait at activation does not fail the activation', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: 1 }]);
		const { error } = await fx.trigger(NEW_APPLICATION).activate();
		expect(error?.message).toBeUndefined();
	});
});

describe('New Application: Start From changed between publishes', () => {
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
});

describe('New Application: Job IDs filter', () => {
	it('the Job IDs filter of New Application (no per-job cost, no limit stated in its description) accepts 21 jobs', async () => {
		const jobIds = Array.from({ length: 21 }, (_, i) => `job_${i}`).join(',');
		const { error } = await fx.trigger({ ...NEW_APPLICATION, options: { jobIds } }).activate();
		expect(error?.message).toBeUndefined();
	});

	it('Fetch Test Event with a job filter reads no more than a few pages on a large account', async () => {
		for (let i = 0; i < 400; i++) fx.apply(at(-i * 1000));
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { jobIds: 'job_without_applications' } });
		fx.sandbox.clearRequests();
		await trigger.manual();
		// The API filters applications by job (the stage trigger sends job_id); one request would do.
		expect(fx.applicationRequests().length).toBeLessThanOrEqual(2);
	});
});

describe('Application Stage Changed', () => {
	const moved = (application: Application, parent: string, job?: Application['job']): Application => {
		const next = {
			...application,
			...(job && { job }),
			stage: { ...application.stage, parent_stage: parent, custom_stage: { id: `stg_${parent}`, name: `Custom ${parent}` } },
		};
		fx.sandbox.put('applications', next);
		return next;
	};

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

	it('a Job ID that does not exist is an error naming it (as New Job Note does), not an empty job followed forever', async () => {
		const { error } = await fx.trigger({ event: 'application.stage.updated', jobIds: 'job_typo' }).activate();
		expect(error?.message).toContain('job_typo');
	});

	it('a change\'s messageId names the application, the stages moved from and to, and its count of moves', () => {
		const application = { id: 'app_1', stage: { parent_stage: 'interview', custom_stage: null } } as IDataObject;
		const first = stageChanges(new Map([['job_1', [application]]]), { job_1: { app_1: '0:["new","",""]' } }, '2026-01-01T00:00:00.000Z').items[0];
		expect(first.messageId).toBe('poll:application.stage.updated:app_1:new|>interview|:1');
	});
});

describe('Feedback Completed', () => {
	it('a feedback marked complete without date_complete is not silently skipped: n8n\'s log says so', async () => {
		const template = (await apiGet<{ items: Feedback[] }>(fx.sandbox, '/feedback?page_size=1')).items[0];
		const trigger = fx.trigger({ event: 'feedback.submitted' });
		await trigger.activate();
		fx.sandbox.put('feedback', { ...template, id: 'fdbk_nodate', status: 'complete', date_complete: null });
		const warnings = await warningsDuring(() => trigger.tick());
		expect(warnings).toEqual([expect.stringContaining('1 entries of /feedback have no ID or no time the trigger can read')]);
	});
});

void LOOK_BACK_MS;

describe('more scenarios', () => {
	const note = (id: string, jobId: string, date: string) =>
		fx.sandbox.put('jobNotes', { id, job_id: jobId, date_created: date, text: `Note ${id}`, creator: { name: 'Test' }, files: [], mentioned_users: [], restricted: false });

	it('holds: a poll failing on the second of two jobs leaves no cursor half-advanced; the next poll emits each note once', async () => {
		const [jobA, jobB] = [fx.seeded[0].job.id, fx.seeded.find((a) => a.job.id !== fx.seeded[0].job.id)!.job.id];
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: `${jobA}, ${jobB}` });
		await trigger.activate();
		note('jnote_a1', jobA, at(-1000));
		note('jnote_b1', jobB, at(0));
		fx.sandbox.setFaults([{ kind: 'status', status: 500, path: `${jobB}/notes`, times: -1 }]);
		expect((await trigger.tick()).error).toBeDefined();
		fx.sandbox.setFaults([]);
		expect(ids((await trigger.tick()).emitted)).toEqual(['jnote_a1', 'jnote_b1']);
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('holds: a job ID with odd characters (/ ? % #) is percent-encoded and its notes found', async () => {
		const job = fx.sandbox.get('jobs', fx.seeded[0].job.id) as IDataObject;
		const oddId = 'job/odd?x=1%20#y';
		fx.sandbox.put('jobs', { ...job, id: oddId });
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: oddId });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		note('jnote_odd', oddId, at(0));
		const { emitted } = await trigger.tick();
		expect(emitted.map((i) => [i.jobId, (i.object as { id: string }).id])).toEqual([[oddId, 'jnote_odd']]);
	});

	it('one page served in the wrong order (a transient glitch) does not make every later idle poll read the whole list', async () => {
		// 300 applications older than the seeded ones' look-back: an idle poll is one request.
		const oldest = Date.parse(fx.seeded[fx.seeded.length - 1].applied_at);
		for (let i = 0; i < 300; i++) fx.apply(new Date(oldest - (i + 1) * MINUTE).toISOString());
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		fx.sandbox.setFaults([{ kind: 'ignore_sort', path: 'applications', page: 1, times: 1 }]);
		await trigger.tick();
		fx.sandbox.setFaults([]);
		await trigger.tick();
		fx.sandbox.clearRequests();
		await trigger.tick();
		expect(fx.applicationRequests()).toHaveLength(1);
	});

	it('republished (event changed) while the old version still polls: the new version still records where the account stands at publishing', async () => {
		const trigger = fx.trigger({ event: 'feedback.submitted' });
		await trigger.activate();
		// The old version's poll hangs on a slow answer (a long rate-limit wait would do the same).
		fx.sandbox.setFaults([{ kind: 'slow', path: 'feedback', delayMs: 1500, times: 1 }]);
		const inFlight = trigger.tick();
		await new Promise((resolve) => setTimeout(resolve, 200));
		trigger.stop();
		trigger.setParameters(NEW_APPLICATION);
		expect(await trigger.activate('update')).toEqual({ emitted: [] });
		await inFlight;
		// Applied after the new version was published: it must be emitted.
		const added = fx.apply(at(0));
		const emitted = [...ids((await trigger.tick()).emitted), ...ids((await trigger.tick()).emitted)];
		expect(emitted).toEqual([added.id]);
	});
});
