/**
 * Review 42 (hostile): new ways the Recruiting Polling Trigger breaks "each event exactly once".
 * Each test asserts the right behaviour; each failed when written (the defect is real).
 */
import type { IDataObject } from 'n8n-workflow';

import { useFakeListService } from '../harness/fakeServices';
import { application, at, burstOf150, ids, MINUTE, triggerOn } from './fakeKit';

const fake = useFakeListService();
const onFake = triggerOn(fake, 'tok_review42');
const trigger = (parameters: IDataObject, engine: 'default' | 'durable' = 'default') => onFake(parameters, { engine });

/** Moves n8n's clock and the service's (the fake's Date header follows Date.now) by `ms`. */
function later(ms: number) {
	jest.setSystemTime(Date.now() + ms);
}
const fakeClock = () =>
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });

const afterBurst = () => burstOf150(fake, (parameters) => trigger(parameters));

describe('the look-back window and the poll interval', () => {
	afterEach(() => jest.useRealTimers());

	it('control (holds): every-minute polls: an entry 2½ min late, below page 1, is reported', async () => {
		const { apps, t } = await afterBurst();
		fakeClock();
		apps.items.push(application('app_late', at(-151_000))); // 2½ min late, older than the whole burst: page 2
		later(MINUTE);
		const emitted = [...ids((await t.tick()).emitted)];
		later(MINUTE);
		emitted.push(...ids((await t.tick()).emitted));
		expect(emitted).toEqual(['app_late']);
	});

	it('hourly polls: an application that turns up 2½ min after its own time, right after a poll, below page 1, is reported at the next poll', async () => {
		const { apps, t } = await afterBurst();
		fakeClock();
		// Just after the burst poll, an application turns up 2½ min after its own time (within the promised 5 min): page 2.
		apps.items.push(application('app_late', at(-151_000)));
		later(60 * MINUTE); // the next poll, an hour later (Poll Times: every hour)
		const emitted = [...ids((await t.tick()).emitted)];
		later(60 * MINUTE);
		emitted.push(...ids((await t.tick()).emitted));
		expect(emitted).toEqual(['app_late']);
	});
});

describe('Application Stage Changed: an application removed from a job while its list is read', () => {
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
});

describe('the trigger node renamed on a published workflow (n8n keeps node static data under `node:<name>`)', () => {
	let workflows = 0;
	/** The same workflow and node (same IDs, same stored static data), the node renamed, republished. */
	function renamed(t: ReturnType<typeof trigger>, workflowId: string, parameters: IDataObject) {
		t.stop();
		return onFake(parameters, { workflowId, nodeName: 'New applications (renamed)', staticData: t.store });
	}
	const named = (parameters: IDataObject, workflowId: string) => onFake(parameters, { workflowId });

	it('with Start From: renaming the node does not deliver again what was already reported', async () => {
		const workflowId = `review42-rename-${++workflows}`;
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i * MINUTE)));
		const parameters = { event: 'application.created', options: { startFrom: at(-3 * 24 * 60 * MINUTE) } };
		const t = named(parameters, workflowId);
		expect(ids((await t.activate()).emitted)).toHaveLength(5);
		apps.items.push(application('app_new', at(0)));
		expect(ids((await t.tick()).emitted)).toEqual(['app_new']);
		const r = renamed(t, workflowId, parameters);
		const again = [...ids((await r.activate('update')).emitted), ...ids((await r.tick()).emitted)];
		expect(again).toEqual([]);
	});

	it('without Start From: an application that arrived after the last poll before the rename is reported after it', async () => {
		const workflowId = `review42-rename-${++workflows}`;
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i * MINUTE)));
		const parameters = { event: 'application.created' };
		const t = named(parameters, workflowId);
		expect(await t.activate()).toEqual({ emitted: [] });
		apps.items.push(application('app_1', at(-2000)));
		expect(ids((await t.tick()).emitted)).toEqual(['app_1']);
		apps.items.push(application('app_2', at(-1000))); // arrives; before the next poll, the user renames the node
		const r = renamed(t, workflowId, parameters);
		const after = [...ids((await r.activate('update')).emitted), ...ids((await r.tick()).emitted)];
		expect(after).toEqual(['app_2']);
	});
});

describe('the first poll (seed) and an entry stamped ahead of the clock', () => {
	it('an application stamped 3 hours ahead (a time-zone slip) at publishing: the applications already there are not reported as new', async () => {
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		apps.items.push(application('app_before1', at(-2 * MINUTE)), application('app_before2', at(-MINUTE)));
		apps.items.push(application('app_future', at(3 * 60 * MINUTE)));
		const t = trigger({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		apps.items.push(application('app_after', at(0)));
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		expect(emitted).toEqual(['app_after']);
	});
});

describe('a followed job deleted, restored (same ID), deleted again', () => {
	it('New Job Note: the second deletion is reported too (a failed execution naming the job), as the first was', async () => {
		const notes1 = { items: [{ id: 'jnote_a', date_created: at(-MINUTE), text: 'a' }] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const };
		const notes2 = { items: [] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const };
		fake.lists.set('/jobs/job_1/notes', notes1);
		fake.lists.set('/jobs/job_2/notes', notes2);
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1, job_2' });
		expect(await t.activate()).toEqual({ emitted: [] });
		fake.lists.delete('/jobs/job_1/notes'); // deleted
		await t.tick();
		expect(t.failures).toHaveLength(1);
		fake.lists.set('/jobs/job_1/notes', notes1); // restored (undo, or re-imported with its ID)
		notes1.items.push({ id: 'jnote_b', date_created: at(0), text: 'b' });
		expect(ids((await t.tick()).emitted)).toEqual(['jnote_b']);
		fake.lists.delete('/jobs/job_1/notes'); // deleted again
		await t.tick();
		expect(t.failures).toHaveLength(2);
	});
});

describe('the fixes of review 42, further cases', () => {
	afterEach(() => jest.useRealTimers());

	it('hourly polls, an oldest-first list (New Job Note): a note that turns up 2½ min late just after a poll, on an earlier page, is reported at the next poll', async () => {
		const notes = { items: [] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const };
		fake.lists.set('/jobs/job_1/notes', notes);
		for (let i = 0; i < 5; i++) notes.items.push({ id: `jnote_old${i}`, date_created: at(-2 * 24 * 60 * MINUTE + i), text: 'old' });
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		for (let i = 0; i < 150; i++) notes.items.push({ id: `jnote_b${String(i).padStart(3, '0')}`, date_created: at(-150_000 + i * 1000), text: 'burst' });
		expect((await t.tick()).emitted).toHaveLength(150);
		fakeClock();
		notes.items.push({ id: 'jnote_late', date_created: at(-151_000), text: 'late' }); // page 1 of 2, oldest first
		later(60 * MINUTE);
		const emitted = [...ids((await t.tick()).emitted)];
		later(60 * MINUTE);
		emitted.push(...ids((await t.tick()).emitted));
		expect(emitted).toEqual(['jnote_late']);
	});

	it('Application Stage Changed: an application added while page 2 is read: the poll reads the job again, fails nothing and invents nothing', async () => {
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

	it('Application Stage Changed: a job whose applications change at every page of three reads fails the poll as temporarily unavailable, naming the list; the next poll goes on', async () => {
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
