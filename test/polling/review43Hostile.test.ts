/**
 * Review 43 (hostile): new ways the Recruiting Polling Trigger breaks "each event exactly once".
 * Each test not marked "control" asserts the right behaviour and failed when written (the defect is
 * real); each "control" passes and shows the same setup without the fault. Six were fixed (the
 * answers without a Date header, the list in no order changed between pages, a note shifted during a read, a length that lies); the
 * rest are `test.failing`, each a KNOWN LIMIT said in docs/polling-trigger.md: fixed, it fails, to be made a test.
 */
import type { IDataObject } from 'n8n-workflow';

import { useFakeListService } from '../harness/fakeServices';
import { application, at, ids, MINUTE, triggerOn } from './fakeKit';

const fake = useFakeListService();
const trigger = triggerOn(fake, 'tok_review43');

/** Moves n8n's clock (and any Date header, which follows Date.now) by `ms`. */
function later(ms: number) {
	jest.setSystemTime(Date.now() + ms);
}
const fakeClock = () =>
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });


describe('(4) New Job Note (oldest-first list): an old note deleted while a new one is added, between two pages', () => {
	/** 200 old notes (2 pages), seeded; then a note S 8 min ago (polls every 10 min). */
	async function seeded() {
		const notes = { items: [] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const };
		fake.lists.set('/jobs/job_1/notes', notes);
		for (let i = 0; i < 200; i++) notes.items.push({ id: `jnote_old${String(i).padStart(3, '0')}`, date_created: at(-2 * 24 * 60 * MINUTE + i * MINUTE), text: 'old' });
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		notes.items.push({ id: 'jnote_S', date_created: at(-8 * MINUTE), text: 'S' }); // position 201: page 3
		return { notes, t };
	}

	it('control (holds): no deletion: the note written 8 min ago and one written during the poll are both reported', async () => {
		const { notes, t } = await seeded();
		fake.beforePage = (path, page) => {
			if (path === '/jobs/job_1/notes' && page === 3) {
				notes.items.push({ id: 'jnote_N', date_created: at(0), text: 'N' });
				fake.beforePage = undefined;
			}
		};
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		expect(emitted.sort()).toEqual(['jnote_N', 'jnote_S']);
	});

	// What a user sees: a note written 8 min before the poll never starts the workflow (the one written during the poll does).
	// Holds because the note added during the read is ahead of the read's clock, so it does not lift the floor and the next
	// poll finds the shifted note. A deletion and an addition before the read that leave the length unchanged stay a known limit.
	it('the note written 8 min ago, shifted onto page 2 (already read) by the deletion, is still reported', async () => {
		const { notes, t } = await seeded();
		// While the poll reads page 2 → 3: someone deletes the oldest note and someone adds one: the length stays 201.
		fake.beforePage = (path, page) => {
			if (path === '/jobs/job_1/notes' && page === 3) {
				notes.items.splice(0, 1);
				notes.items.push({ id: 'jnote_N', date_created: at(0), text: 'N' });
				fake.beforePage = undefined;
			}
		};
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		expect(emitted.sort()).toEqual(['jnote_N', 'jnote_S']);
	});
});

/** A second fake service: its answers may come without a Date header, its lists in no order. */
const svc = useFakeListService();
const onSvc = triggerOn(svc, 'tok_review43_svc');

describe('(4c) New Job Note: a notes list whose length (meta.total_items) lies', () => {
	async function run(totalItems: (length: number) => number) {
		const notes = { items: [] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const, totalItems };
		fake.lists.set('/jobs/job_1/notes', notes);
		for (let i = 0; i < 250; i++) notes.items.push({ id: `jnote_old${String(i).padStart(3, '0')}`, date_created: at(-2 * 24 * 60 * MINUTE + i * MINUTE), text: 'old' });
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
		const activation = await t.activate();
		if (activation.error) return { emitted: [], errors: [`activation: ${activation.error.message}`] };
		notes.items.push({ id: 'jnote_new', date_created: at(0), text: 'new' });
		const outcomes = [await t.tick(), await t.tick(), await t.tick()];
		return { emitted: outcomes.flatMap((o) => ids(o.emitted)), errors: outcomes.filter((o) => o.error).map((o) => o.error!.message) };
	}

	it('control (holds): a length capped at 100: the new note is reported once', async () => {
		expect(await run((length) => Math.min(length, 100))).toEqual({ emitted: ['jnote_new'], errors: [] });
	});

	it('control (holds): a length that counts 60 fewer (notes it hides from the count): the new note is reported once', async () => {
		expect(await run((length) => length - 60)).toEqual({ emitted: ['jnote_new'], errors: [] });
	});

	// A last page short of the list's length is asked for once more; short again, the length is taken to lie.
	it('a length one more than the notes listed: the new note is still reported', async () => {
		expect(await run((length) => length + 1)).toEqual({ emitted: ['jnote_new'], errors: [] });
	});
});

describe('(2) answers without a Date header (the service 10 min behind n8n)', () => {
	afterEach(() => jest.useRealTimers());

	/**
	 * Service clock 10 min behind n8n's, entries on the service's clock; 5 old applications seeded,
	 * 150 in the 2½ min before (service) now reported; polls every 2 minutes from then on.
	 * `datelessPoll`: the one poll after that whose answers carry no Date header.
	 */
	async function run(datelessPoll: boolean) {
		svc.dateAheadMs = -10 * MINUTE;
		const sat = (ms: number) => at(svc.dateAheadMs + ms); // on the service's clock
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		svc.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, sat(-2 * 24 * 60 * MINUTE + i)));
		const t = onSvc({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		const burstAt = Date.parse(sat(0));
		for (let i = 0; i < 150; i++) apps.items.push(application(`app_b${String(i).padStart(3, '0')}`, new Date(burstAt - 150_000 + i * 1000).toISOString()));
		expect((await t.tick()).emitted).toHaveLength(150);
		fakeClock();
		later(2 * MINUTE);
		svc.dateless = datelessPoll;
		const emitted = ids((await t.tick()).emitted);
		svc.dateless = false;
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
		svc.dateAheadMs = -10 * MINUTE;
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		svc.lists.set('/applications', apps);
		const t = onSvc({ event: 'application.created' });
		svc.dateless = datelessSeed;
		expect(await t.activate()).toEqual({ emitted: [] });
		svc.dateless = false;
		apps.items.push(application('app_first', at(svc.dateAheadMs))); // applied now, on the service's clock
		return [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
	}

	it('control (holds): an empty list seeded with a Date header: the first application is reported', async () => {
		expect(await firstApplication(false)).toEqual(['app_first']);
	});

	// What a user sees: publishing while the service's answers lack a Date header, the first applications (up to the clocks' offset less 5 min) are never reported.
	it('an empty list seeded by an answer without a Date header: the first application is reported', async () => {
		expect(await firstApplication(true)).toEqual(['app_first']);
	});

	it('control (holds): every answer has its Date header: the late application is reported', async () => {
		expect(await run(false)).toEqual(['app_late']);
	});

	// What a user sees: one poll whose answers lacked a Date header (a proxy), and an application that turned up late is never reported.
	it('one poll answered without a Date header: the application that turns up late after it is still reported', async () => {
		expect(await run(true)).toEqual(['app_late']);
	});
});

describe('(3) more than MAX_SEEN_IDS (1000) entries within the look-back window', () => {
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

	it('control (holds): 900 applications in 4 min: one that turns up 230 s late is reported', async () => {
		expect(await run(900)).toEqual(['app_late']);
	});

	// What a user sees: after a busy stretch (an import, a job fair: 1,200 applications in 4 min), an application that turns up a few minutes late is never reported.
	// KNOWN LIMIT: a cursor keeps at most 1,000 IDs; past them the floor moves up inside the look-back.
	test.failing('1,200 applications in 4 min: one that turns up 230 s late (within the look-back) is reported', async () => {
		expect(await run(1200)).toEqual(['app_late']);
	}, 30_000);
});

describe('(1) entries sharing a timestamp split across a page boundary', () => {
	afterEach(() => jest.useRealTimers());

	/**
	 * Polls every 10 min. After the seed, 60 applications imported at once (one applied_at) 8 min
	 * before the next poll, then 90 in its last 90 s: the 60 tied ones span pages 1 and 2.
	 */
	async function setup() {
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i)));
		const t = trigger({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		fakeClock();
		later(2 * MINUTE);
		const tie = at(0);
		const tied = Array.from({ length: 60 }, (_, i) => application(`app_tie${String(i).padStart(2, '0')}`, tie));
		apps.items.push(...tied);
		later(8 * MINUTE);
		for (let i = 0; i < 90; i++) apps.items.push(application(`app_n${String(i).padStart(2, '0')}`, at(-90_000 + i * 1000)));
		return { apps, t, tied };
	}

	it('control (holds): the service keeps one order among the tied entries; one of them more arrives (same time) between the pages: all 151 once', async () => {
		const { apps, t } = await setup();
		fake.beforePage = (path, page) => {
			if (path === '/applications' && page === 2) {
				apps.items.push(application('app_tie_late', apps.items[5].applied_at as string)); // a 61st of the import, turning up late
				fake.beforePage = undefined;
			}
		};
		const emitted = [...ids((await t.tick()).emitted)];
		later(MINUTE);
		emitted.push(...ids((await t.tick()).emitted));
		expect(emitted).toHaveLength(151);
		expect(new Set(emitted).size).toBe(151);
	});

	// What a user sees: of an import of 60 applications sharing one applied_at, 10 never start the workflow (on a database whose order among equal sort keys differs between two queries, as LIMIT/OFFSET without a tie-breaker does).
	// KNOWN LIMIT: page-number paging needs one order; a service that orders entries sharing a time differently per request can hide some from any reader.
	test.failing('the service orders the tied entries differently for page 2 than for page 1: every tied entry is still reported once', async () => {
		const { apps, t, tied } = await setup();
		fake.beforePage = (path, page) => {
			if (path === '/applications' && page === 2) {
				// Same entries, same sort key; the order among the 60 equal keys differs for this query.
				const rest = apps.items.filter((a) => !tied.includes(a as never));
				apps.items.splice(0, apps.items.length, ...rest, ...[...tied].reverse());
				fake.beforePage = undefined;
			}
		};
		const emitted = [...ids((await t.tick()).emitted)];
		later(MINUTE);
		emitted.push(...ids((await t.tick()).emitted));
		later(MINUTE);
		emitted.push(...ids((await t.tick()).emitted));
		expect(emitted.filter((id) => id.startsWith('app_tie')).sort()).toEqual(tied.map((a) => a.id));
	});
});

describe('(5) Feedback Completed: pending feedback that gets its time later', () => {
	it('control (holds): a pending feedback (no date_complete) completed later is reported once, and pending ones never', async () => {
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
});

describe('(6) a service that ignores the sort (the list in no order by time): an entry deleted between two pages', () => {
	afterEach(() => jest.useRealTimers());

	/** 100 old applications in no order by time, seeded; polls every 10 min; X applied 8 min before the poll, Y just before it (both stored after the old ones: page 2). */
	async function run(deleteBetweenPages: boolean | 'add') {
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'asStored' as const };
		svc.lists.set('/applications', apps);
		for (let i = 0; i < 100; i++) apps.items.push(application(`app_old${String(i).padStart(3, '0')}`, at(-2 * 24 * 60 * MINUTE + ((i * 37) % 100) * MINUTE)));
		const t = onSvc({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		fakeClock();
		later(2 * MINUTE);
		apps.items.push(application('app_X', at(0)));
		later(8 * MINUTE);
		apps.items.push(application('app_Y', at(-1000)));
		if (deleteBetweenPages === 'add') {
			// An application arrives while the poll reads page 2 (stored first: the service's order is its own).
			svc.beforePage = (path, page) => {
				if (path === '/applications' && page === 2) {
					apps.items.unshift(application('app_Z', at(0)));
					svc.beforePage = undefined;
				}
			};
		} else if (deleteBetweenPages) {
			// A recruiter deletes an old application while the poll reads page 2: X moves onto page 1, already read.
			svc.beforePage = (path, page) => {
				if (path === '/applications' && page === 2) {
					apps.items.splice(0, 1);
					svc.beforePage = undefined;
				}
			};
		}
		const first = await t.tick();
		expect(first.error?.message).toBeUndefined(); // the docs: a list that changes while it is read is read again
		const emitted = ids(first.emitted);
		expect(JSON.stringify(t.staticData)).toContain('"order":"unordered"'); // the trigger knows the list is in no order
		for (let i = 0; i < 2; i++) {
			later(MINUTE);
			emitted.push(...ids((await t.tick()).emitted));
		}
		return emitted;
	}

	it('control (holds): nothing deleted: X and Y are reported', async () => {
		expect(await run(false)).toEqual(['app_X', 'app_Y']);
	});

	// What a user sees: on a service that ignores the sort, an application deleted while a poll reads the list silently costs another (new) application its execution, forever.
	it('an old application deleted while page 2 is read: X (shifted onto page 1) is still reported', async () => {
		expect(await run(true)).toEqual(['app_X', 'app_Y']);
	});

	// What a user sees: on a busy service that ignores the sort, a poll during which an application arrives fails (a failed execution, the error workflow runs) instead of reading the list again.
	it('an application added while page 2 is read: the poll does not fail, and X, Y and the new one are each reported once', async () => {
		expect((await run('add')).sort()).toEqual(['app_X', 'app_Y', 'app_Z']);
	});
});

describe('(5b) Feedback Completed: a completed feedback reopened (pending again, no date_complete) while the list is read', () => {
	afterEach(() => jest.useRealTimers());

	/**
	 * Feedback newest first by date_complete, pending (null) last, as the sandbox sorts it. 5 old
	 * ones seeded; polls every 10 min; 150 completed in those 10 min (pages 1 and 2).
	 */
	async function run(reopenBetweenPages: boolean) {
		const feedback = { items: [] as IDataObject[], field: 'date_complete', order: 'asStored' as const };
		svc.lists.set('/feedback', feedback);
		for (let i = 4; i >= 0; i--) feedback.items.push({ id: `fdbk_old${i}`, status: 'complete', date_complete: at(-2 * 24 * 60 * MINUTE + i * MINUTE) });
		const t = onSvc({ event: 'feedback.submitted' });
		expect(await t.activate()).toEqual({ emitted: [] });
		fakeClock();
		const start = Date.now();
		const completed = Array.from({ length: 150 }, (_, i) => ({ id: `fdbk_${String(i).padStart(3, '0')}`, status: 'complete', date_complete: new Date(start + 4000 * i).toISOString() }));
		feedback.items.unshift(...[...completed].reverse());
		later(10 * MINUTE);
		if (reopenBetweenPages) {
			svc.beforePage = (path, page) => {
				if (path === '/feedback' && page === 2) {
					// A reviewer reopens fdbk_120 (page 1): pending again, it goes to the end; the list's length is the same.
					const index = feedback.items.findIndex((f) => f.id === 'fdbk_120');
					const [reopened] = feedback.items.splice(index, 1);
					feedback.items.push({ ...reopened, status: 'pending', date_complete: null });
					svc.beforePage = undefined;
				}
			};
		}
		const emitted = ids((await t.tick()).emitted);
		for (let i = 0; i < 2; i++) {
			later(MINUTE);
			emitted.push(...ids((await t.tick()).emitted));
		}
		return emitted;
	}

	it('control (holds): nothing reopened: the 150 completed feedback are each reported once', async () => {
		const emitted = await run(false);
		expect(emitted).toHaveLength(150);
		expect(new Set(emitted).size).toBe(150);
	});

	// What a user sees: a reviewer reopening one feedback while a poll reads the list costs another reviewer's completed feedback its execution, forever.
	// KNOWN LIMIT: an entry moved within the list between two pages (the length unchanged) shifts another onto a page already read.
	test.failing('fdbk_120 reopened while page 2 is read: fdbk_049 (shifted onto page 1, already read) is still reported; each of the 150 once', async () => {
		const emitted = await run(true);
		expect([...emitted].sort()).toEqual(Array.from({ length: 150 }, (_, i) => `fdbk_${String(i).padStart(3, '0')}`));
	});
});
