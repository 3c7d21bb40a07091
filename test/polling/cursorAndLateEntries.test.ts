/**
 * The cursor: the floor and the 5-minute look-back below the newest entry, entries that turn up
 * late or stamped ahead of the clock, the service's clock (its Date header) against n8n's, entries
 * the trigger cannot read, and an event's identity (its ID and its own time). Entries without an
 * offset are read in offsetlessTimes.test.ts (a Jest environment of their own).
 * POLLING_CONTROL=1 runs the cases that read it without their fault (a control: the same setup).
 */
import type { IDataObject } from 'n8n-workflow';

import { LOOK_BACK_MS } from '../../nodes/RecruitingPollingTrigger/cursor';
import type { Feedback } from '../../sandbox';
import { useFakeListService } from '../harness/fakeServices';
import { application, at, burstOf150, fakeClock, ids, later, MINUTE, noteIds, triggerOn } from './fakeKit';
import { apiGet, usePollingFixture, warningsDuring } from './fixture';

const fx = usePollingFixture();
const { note } = fx;
const NEW_APPLICATION = { event: 'application.created' };
const fake = useFakeListService();
const trigger = triggerOn(fake, 'tok_cursor');
const afterBurst = () => burstOf150(fake, (parameters) => trigger(parameters));

/** A list at `path`, newest first by `field`, holding 5 old entries (`old(i)`), and a trigger of `event` published on it. */
async function publishedOnFiveOld(event: string, path: string, field: string, old: (i: number) => IDataObject) {
	const list = { items: [] as IDataObject[], field, order: 'newestFirst' as const };
	fake.lists.set(path, list);
	for (let i = 0; i < 5; i++) list.items.push(old(i));
	const t = trigger({ event });
	expect(await t.activate()).toEqual({ emitted: [] });
	return { list, t };
}

describe('the cursor is the entries\' own time', () => {
	it('the cursor is the newest item\'s own time, not the time of the request', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		// Applied "in the past" by the service's clock, visible only now: still new.
		const behind = fx.apply(new Date(Date.parse(fx.seeded[0].applied_at) + 1).toISOString());
		expect(ids((await trigger.tick()).emitted)).toEqual([behind.id]);
	});

	it('items sharing a timestamp, or turning up late within the look-back, are found once each', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const time = at(0);
		const a = fx.apply(time);
		expect(ids((await trigger.tick()).emitted)).toEqual([a.id]);
		const sameTime = fx.apply(time);
		const late = fx.apply(new Date(Date.parse(time) - LOOK_BACK_MS / 2).toISOString());
		expect(ids((await trigger.tick()).emitted).sort()).toEqual([sameTime.id, late.id].sort());
		expect((await trigger.tick()).emitted).toEqual([]);
	});
});

describe('entries that turn up late, within the look-back', () => {
	afterEach(() => jest.useRealTimers());

	it('every-minute polls: an entry 2½ min late, below page 1, is reported', async () => {
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
});

describe('more than MAX_SEEN_IDS (1000) entries within the look-back window', () => {
	/** 5 old applications seeded; then `count` in the 4 min before now, reported; then one stamped 230 s ago turns up. */
	async function run(count: number) {
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i)));
		const t = trigger({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		const now = Date.now();
		for (let i = 0; i < count; i++) apps.items.push(application(`app_b${String(i).padStart(4, '0')}`, new Date(now - 240_000 + Math.floor((i * 239_000) / count)).toISOString()));
		expect((await t.tick()).emitted).toHaveLength(count);
		apps.items.push(application('app_late', new Date(now - 230_000).toISOString())); // 230 s late: within the promised 5 min
		return [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
	}

	it('900 applications in 4 min: one that turns up 230 s late is reported', async () => {
		expect(await run(900)).toEqual(['app_late']);
	});

	// What a user sees: after a busy stretch (an import, a job fair: 1,200 applications in 4 min), an application that turns up a few minutes late is never reported.
	// KNOWN LIMIT: a cursor keeps at most 1,000 IDs; past them the floor moves up inside the look-back.
	test.failing('1,200 applications in 4 min: one that turns up 230 s late (within the look-back) is reported', async () => {
		expect(await run(1200)).toEqual(['app_late']);
	}, 30_000);
});

describe('entries stamped ahead of the clock', () => {
	it('one application whose applied_at is ahead of the clock (clock skew) does not hide the applications after it', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		// The service (or an import) stamps one application 2 hours ahead (a time-zone slip).
		const skewed = fx.apply(at(2 * 60 * MINUTE));
		expect(ids((await trigger.tick()).emitted)).toEqual([skewed.id]);
		const normal = fx.apply(at(0));
		expect(ids((await trigger.tick()).emitted)).toEqual([normal.id]);
	});

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

	describe('an application stamped 3 hours ahead (a time-zone slip in an import) is in the list', () => {
		async function published() {
			const { list: apps, t } = await publishedOnFiveOld('application.created', '/applications', 'applied_at', (i) =>
				application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i * MINUTE)),
			);
			return { apps, t };
		}

		/**
		 * User-visible scenario: an imported application carries applied_at 3 h in the future. It is
		 * reported. Right after the next poll, a candidate's application turns up 4½ minutes after its
		 * own applied_at (a slow job board sync, within the promised 5 minutes): it is reported too. The
		 * future entry must not narrow the look-back for the others (the cursor's newest time is capped
		 * a minute ahead of the service's clock, and the look-back is kept below that).
		 */
		it('an application that turns up 4½ min after its own time is reported', async () => {
			const { apps, t } = await published();
			apps.items.push(application('app_future', at(3 * 60 * MINUTE)));
			expect(ids((await t.tick()).emitted)).toEqual(['app_future']);
			apps.items.push(application('app_late', at(-4.5 * MINUTE)));
			const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
			expect(emitted).toEqual(['app_late']);
		});

		it('the same, with an ordinary newest entry instead of the future one: reported', async () => {
			const { apps, t } = await published();
			apps.items.push(application('app_now', at(0)));
			expect(ids((await t.tick()).emitted)).toEqual(['app_now']);
			apps.items.push(application('app_late', at(-4.5 * MINUTE)));
			const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
			expect(emitted).toEqual(['app_late']);
		});
	});
});

describe("the service's clock", () => {
	it('a new job without notes, the service 2 minutes behind n8n: the first note after publishing is reported', async () => {
		const job = fx.sandbox.get('jobs', fx.seeded[0].job.id) as Record<string, unknown>;
		fx.sandbox.put('jobs', { ...job, id: 'job_fresh' });
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: 'job_fresh' });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		note('jnote_first', 'job_fresh', at(-2 * MINUTE));
		expect(noteIds((await trigger.tick()).emitted)).toEqual(['job_fresh:jnote_first']);
	});

	// ../shared/review/polling-3bc95fa/emptySeedSkew.test.ts's contrast: a list that was not empty is seeded from its own newest entry.
	it('a job that already had notes, the service 2 minutes behind n8n: a new note is reported', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: jobId });
		await trigger.activate();
		note('jnote_second', jobId, at(-2 * MINUTE));
		expect((await trigger.tick()).emitted.map((i) => (i.object as { id: string }).id)).toEqual(['jnote_second']);
	});

	it('Date header an hour ahead of the entries\' times: the first note of a job that had none is reported', async () => {
		fake.dateAheadMs = process.env.POLLING_CONTROL ? 0 : 60 * MINUTE;
		const notes = { items: [] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const };
		fake.lists.set('/jobs/job_1/notes', notes);
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		notes.items.push({ id: 'jnote_1', date_created: at(0), text: 'first' });
		expect(ids((await t.tick()).emitted)).toEqual(['jnote_1']);
	});

	it('entry times 10 min behind the Date header: an entry that turns up 2½ min after its own time, below a page of seen ones, is reported', async () => {
		fake.dateAheadMs = process.env.POLLING_CONTROL ? 0 : 10 * MINUTE;
		const { apps, t } = await burstOf150(fake, trigger);
		// Within the cursor's look-back (5 min before the newest entry), older than the whole burst: page 2.
		const late = application('app_late', at(-151_000));
		apps.items.push(late);
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		expect(emitted).toEqual(['app_late']);
	});
});

describe('answers without a Date header (the service 10 min behind n8n)', () => {
	afterEach(() => jest.useRealTimers());

	/**
	 * Service clock 10 min behind n8n's, entries on the service's clock; 5 old applications seeded,
	 * 150 in the 2½ min before (service) now reported; polls every 2 minutes from then on.
	 * `datelessPoll`: the one poll after that whose answers carry no Date header.
	 */
	async function run(datelessPoll: boolean) {
		fake.dateAheadMs = -10 * MINUTE;
		const sat = (ms: number) => at(fake.dateAheadMs + ms); // on the service's clock
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, sat(-2 * 24 * 60 * MINUTE + i)));
		const t = trigger({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		const burstAt = Date.parse(sat(0));
		for (let i = 0; i < 150; i++) apps.items.push(application(`app_b${String(i).padStart(3, '0')}`, new Date(burstAt - 150_000 + i * 1000).toISOString()));
		expect((await t.tick()).emitted).toHaveLength(150);
		fakeClock();
		later(2 * MINUTE);
		fake.dateless = datelessPoll;
		const emitted = ids((await t.tick()).emitted);
		fake.dateless = false;
		// Right after that poll, an application turns up 4½ min after its own time (within the promised 5): below the burst, page 2.
		apps.items.push(application('app_late', new Date(burstAt - 151_000).toISOString()));
		for (let i = 0; i < 3; i++) {
			later(2 * MINUTE);
			emitted.push(...ids((await t.tick()).emitted));
		}
		return emitted;
	}

	/** An empty list seeded with the service 10 min behind n8n; `datelessSeed`: the seed's answer carries no Date header. */
	async function firstApplication(datelessSeed: boolean) {
		fake.dateAheadMs = -10 * MINUTE;
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		const t = trigger({ event: 'application.created' });
		fake.dateless = datelessSeed;
		expect(await t.activate()).toEqual({ emitted: [] });
		fake.dateless = false;
		apps.items.push(application('app_first', at(fake.dateAheadMs))); // applied now, on the service's clock
		return [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
	}

	it('an empty list seeded with a Date header: the first application is reported', async () => {
		expect(await firstApplication(false)).toEqual(['app_first']);
	});

	// What a user sees: publishing while the service's answers lack a Date header, the first applications (up to the clocks' offset less 5 min) are never reported.
	it('an empty list seeded by an answer without a Date header: the first application is reported', async () => {
		expect(await firstApplication(true)).toEqual(['app_first']);
	});

	it('every answer has its Date header: the late application is reported', async () => {
		expect(await run(false)).toEqual(['app_late']);
	});

	// What a user sees: one poll whose answers lacked a Date header (a proxy), and an application that turned up late is never reported.
	it('one poll answered without a Date header: the application that turns up late after it is still reported', async () => {
		expect(await run(true)).toEqual(['app_late']);
	});
});

describe('entries without an ID or a time the trigger can read', () => {
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

	it('a feedback marked complete without date_complete is not silently skipped: n8n\'s log says so', async () => {
		const template = (await apiGet<{ items: Feedback[] }>(fx.sandbox, '/feedback?page_size=1')).items[0];
		const trigger = fx.trigger({ event: 'feedback.submitted' });
		await trigger.activate();
		fx.sandbox.put('feedback', { ...template, id: 'fdbk_nodate', status: 'complete', date_complete: null });
		const warnings = await warningsDuring(() => trigger.tick());
		expect(warnings).toEqual([expect.stringContaining('1 entries of /feedback have no ID or no time the trigger can read')]);
	});
});

describe('an event\'s identity: its entry and the entry\'s own time', () => {
	it('numeric application ids are emitted once each', async () => {
		const apps = { items: [] as IDataObject[], order: 'newestFirst' as const, field: 'applied_at' };
		fake.lists.set('/applications', apps);
		apps.items.push({ ...application('x', at(-MINUTE)), id: 1 });
		const t = trigger(NEW_APPLICATION);
		await t.activate();
		apps.items.push({ ...application('x', at(0)), id: 2 });
		expect(ids((await t.tick()).emitted)).toEqual(['2']);
		expect((await t.tick()).emitted).toEqual([]);
	});

	it('a pending feedback (no date_complete) completed later is reported once, and pending ones never', async () => {
		const feedback = { items: [] as IDataObject[], field: 'date_complete', order: 'newestFirst' as const };
		fake.lists.set('/feedback', feedback);
		for (let i = 0; i < 5; i++) feedback.items.push({ id: `fdbk_old${i}`, status: 'complete', date_complete: at(-2 * 24 * 60 * MINUTE + i) });
		const pending = { id: 'fdbk_p', status: 'pending', date_complete: null as string | null };
		feedback.items.push(pending, { id: 'fdbk_p2', status: 'pending', date_complete: null });
		const t = trigger({ event: 'feedback.submitted' });
		expect(await t.activate()).toEqual({ emitted: [] });
		expect((await t.tick()).emitted).toEqual([]);
		Object.assign(pending, { status: 'complete', date_complete: at(0) });
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		expect(emitted).toEqual(['fdbk_p']);
	});

	describe('a feedback completed, reopened by its reviewer, and completed again with other answers', () => {
		async function published() {
			const { list: feedback, t } = await publishedOnFiveOld('feedback.submitted', '/feedback', 'date_complete', (i) => ({
				id: `fdbk_old${i}`,
				status: 'complete',
				date_complete: at(-2 * 24 * 60 * MINUTE + i * MINUTE),
				answers: 'old',
			}));
			return { feedback, t };
		}

		/**
		 * User-visible scenario: a reviewer submits a scorecard (the workflow copies the score to the
		 * HRIS), notices a mistake, reopens it and submits it again two minutes later with the corrected
		 * score. The corrected submission starts the workflow too (seen by ID only, it would not, and the
		 * HRIS would keep the wrong score).
		 */
		it('completed again 2 min after the first completion: the second completion is reported', async () => {
			const { feedback, t } = await published();
			const f: IDataObject = { id: 'fdbk_F', status: 'complete', date_complete: at(-2 * MINUTE), answers: 'score 2' };
			feedback.items.push(f);
			expect(ids((await t.tick()).emitted)).toEqual(['fdbk_F']);
			Object.assign(f, { status: 'pending', date_complete: null });
			expect((await t.tick()).emitted).toEqual([]);
			Object.assign(f, { status: 'complete', date_complete: at(0), answers: 'score 4' });
			const again = [...(await t.tick()).emitted, ...(await t.tick()).emitted];
			expect(again.map((item) => (item.object as IDataObject).answers)).toEqual(['score 4']);
		});

		/**
		 * The same re-completion with another feedback completed more than 5 minutes after the first
		 * completion (the first one's ID has left the cursor): reported, and under a messageId of its own
		 * (an event is the entry and its own time), so a workflow that de-duplicates on messageId keeps it.
		 */
		it('with another feedback completed in between: reported, but under a messageId of its own', async () => {
			const { feedback, t } = await published();
			const f: IDataObject = { id: 'fdbk_F', status: 'complete', date_complete: at(-20 * MINUTE), answers: 'score 2' };
			feedback.items.push(f);
			const first = (await t.tick()).emitted;
			expect(ids(first)).toEqual(['fdbk_F']);
			feedback.items.push({ id: 'fdbk_G', status: 'complete', date_complete: at(-10 * MINUTE), answers: 'other' });
			expect(ids((await t.tick()).emitted)).toEqual(['fdbk_G']);
			Object.assign(f, { status: 'complete', date_complete: at(0), answers: 'score 4' });
			const again = (await t.tick()).emitted;
			expect(again.map((item) => (item.object as IDataObject).answers)).toEqual(['score 4']);
			expect(again[0].messageId).not.toEqual(first[0].messageId); // not the first completion's
		});
	});
});

describe('an import stamped ahead (time-zone slip) of more than MAX_SEEN_IDS applications', () => {
	async function run(imported: number) {
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i)));
		const t = trigger({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		for (let i = 0; i < imported; i++) apps.items.push(application(`app_imp${String(i).padStart(4, '0')}`, at(3 * 60 * MINUTE + i * 100)));
		expect((await t.tick()).emitted).toHaveLength(imported);
		apps.items.push(application('app_now', at(0)));
		return [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
	}

	it('999 applications imported 3 h ahead: the next ordinary application is reported', async () => {
		expect(await run(999)).toEqual(['app_now']);
	}, 30_000);

	it('1,001 applications imported 3 h ahead: the next ordinary application is reported', async () => {
		expect(await run(1001)).toEqual(['app_now']);
	}, 30_000);
});
