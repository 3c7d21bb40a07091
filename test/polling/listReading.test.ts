/**
 * Reading a list: one that changes while it is read (entries added, deleted, reopened or reordered
 * between two pages), one in another order than asked for (or in none), a length
 * (`meta.total_items`) that is not trusted, and empty pages. Every entry once, and what it costs.
 * Mostly against the fake list service (test/harness/fakeServices.ts): the sandbox has no way to
 * delete an application or act between two page reads of one poll.
 */
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { LOOK_BACK_MS } from '../../nodes/RecruitingPollingTrigger/cursor';
import { pollHarness } from '../harness';
import { startFakeListService, useFakeListService } from '../harness/fakeServices';
import { application, at, burstOf150, fakeClock, ids, later, MINUTE, triggerOn } from './fakeKit';
import { usePollingFixture, warningsDuring } from './fixture';

const fx = usePollingFixture();
const NEW_APPLICATION = { event: 'application.created' };
const fake = useFakeListService();
const onFake = triggerOn(fake, 'tok_lists');
const trigger = (parameters: IDataObject, engine: 'default' | 'durable' = 'default') => onFake(parameters, { engine });
const noteRequests = () => fake.requests.filter((r) => r.startsWith('/jobs/job_1/notes?'));
const afterBurst = (engine: 'default' | 'durable' = 'default', totalItems?: (length: number) => number) =>
	burstOf150(fake, (parameters) => trigger(parameters, engine), totalItems);

describe('a list that changes while it is read', () => {
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

	it('entries arriving between page 1 and page 2: no false order warning, no full read', async () => {
		const fake = await startFakeListService();
		const items: IDataObject[] = [];
		fake.lists.set('/applications', { items, order: 'newestFirst', field: 'applied_at' });
		try {
			const app = (id: string, appliedAt: string) => ({ id, applied_at: appliedAt, job: { id: 'job_1' }, stage: { parent_stage: 'new', custom_stage: null } });
			// A minute apart: the look-back before the newest holds few of them, so the pages read are the race's.
			for (let i = 0; i < 1000; i++) items.push(app(`app_old${i}`, at(-30 * 24 * 60 * MINUTE + i * MINUTE)));
			const trigger = pollHarness(new RecruitingPollingTrigger(), { event: 'application.created', options: {} }, {
				credentials: { recruitingApi: { baseUrl: fake.url, companyId: 'co_fake', accessToken: 'tok_race' } },
				credentialTypes: [new RecruitingApi()],
			});
			await trigger.activate();
			const added = Array.from({ length: 150 }, (_, i) => app(`app_new${String(i).padStart(3, '0')}`, at(-(150 - i) * MINUTE)));
			items.push(...added);
			const late = [app('app_race1', at(0)), app('app_race2', at(1))];
			fake.beforePage = (_path, page) => {
				if (page !== 2) return;
				items.push(...late);
				fake.beforePage = undefined;
			};
			fake.requests.length = 0;
			let emitted: IDataObject[] = [];
			const warnings = await warningsDuring(async () => {
				emitted = (await trigger.tick()).emitted;
			});
			expect(ids(emitted)).toEqual(added.map((a) => a.id));
			expect(warnings).toEqual([]);
			expect(fake.requests.length).toBeLessThanOrEqual(3);
			expect(ids((await trigger.tick()).emitted)).toEqual(['app_race1', 'app_race2']);
		} finally {
			await fake.close();
		}
	});

	describe('New Job Note (oldest-first list): an old note deleted while a new one is added, between two pages', () => {
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

		it('no deletion: the note written 8 min ago and one written during the poll are both reported', async () => {
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

	describe('entries sharing a timestamp split across a page boundary', () => {
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

		it('the service keeps one order among the tied entries; one of them more arrives (same time) between the pages: all 151 once', async () => {
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

	describe('Feedback Completed: a completed feedback reopened (pending again, no date_complete) while the list is read', () => {
		afterEach(() => jest.useRealTimers());

		/**
		 * Feedback newest first by date_complete, pending (null) last, as the sandbox sorts it. 5 old
		 * ones seeded; polls every 10 min; 150 completed in those 10 min (pages 1 and 2).
		 */
		async function run(reopenBetweenPages: boolean) {
			const feedback = { items: [] as IDataObject[], field: 'date_complete', order: 'asStored' as const };
			fake.lists.set('/feedback', feedback);
			for (let i = 4; i >= 0; i--) feedback.items.push({ id: `fdbk_old${i}`, status: 'complete', date_complete: at(-2 * 24 * 60 * MINUTE + i * MINUTE) });
			const t = trigger({ event: 'feedback.submitted' });
			expect(await t.activate()).toEqual({ emitted: [] });
			fakeClock();
			const start = Date.now();
			const completed = Array.from({ length: 150 }, (_, i) => ({ id: `fdbk_${String(i).padStart(3, '0')}`, status: 'complete', date_complete: new Date(start + 4000 * i).toISOString() }));
			feedback.items.unshift(...[...completed].reverse());
			later(10 * MINUTE);
			if (reopenBetweenPages) {
				fake.beforePage = (path, page) => {
					if (path === '/feedback' && page === 2) {
						// A reviewer reopens fdbk_120 (page 1): pending again, it goes to the end; the list's length is the same.
						const index = feedback.items.findIndex((f) => f.id === 'fdbk_120');
						const [reopened] = feedback.items.splice(index, 1);
						feedback.items.push({ ...reopened, status: 'pending', date_complete: null });
						fake.beforePage = undefined;
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

		it('nothing reopened: the 150 completed feedback are each reported once', async () => {
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
});

describe('a list in another order than asked for, or in none', () => {
	it('a service that ignores the sort, oldest first: notices, says so once, and still finds every new item reading from the last known page', async () => {
		fx.sandbox.setFaults([{ kind: 'ignore_sort', path: 'applications', times: -1 }]);
		const trigger = fx.trigger(NEW_APPLICATION);
		const warnings: string[] = [];
		const { Logger } = await import('@n8n/backend-common');
		const { Container } = await import('@n8n/di');
		const logger = Container.get(Logger);
		const spy = jest.spyOn(logger, 'warn').mockImplementation((message: string) => void warnings.push(message));
		try {
			await trigger.activate();
			// A quarter of the look-back apart: after them, the look-back holds a few, all on the last page.
			const spacing = LOOK_BACK_MS / 4;
			const base = Date.now() - 250 * spacing;
			const added = Array.from({ length: 250 }, (_, i) => fx.apply(new Date(base + i * spacing).toISOString()));
			fx.sandbox.clearRequests();
			const { emitted } = await trigger.tick();
			expect(ids(emitted)).toEqual(added.map((a) => a.id));
			// From the page that held the last known entry (page 1 of 30) to the end: 3 pages of 280.
			expect(fx.applicationRequests()).toHaveLength(3);
			// The order it showed is the order the next polls read in: the last page only.
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect(fx.applicationRequests().map((r) => r.query.page)).toEqual(['3']);
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect(fx.applicationRequests()).toHaveLength(1);
			const late = fx.apply(new Date(Date.parse(added[249].applied_at) - LOOK_BACK_MS / 2).toISOString());
			const latest = fx.apply(at(0));
			expect(ids((await trigger.tick()).emitted)).toEqual([late.id, latest.id]);
			expect(warnings.filter((w) => w.includes('oldest first'))).toHaveLength(1);
		} finally {
			spy.mockRestore();
		}
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

	describe('a service that ignores the sort (the list in no order by time): an entry deleted between two pages', () => {
		afterEach(() => jest.useRealTimers());

		/** 100 old applications in no order by time, seeded; polls every 10 min; X applied 8 min before the poll, Y just before it (both stored after the old ones: page 2). */
		async function run(deleteBetweenPages: boolean | 'add') {
			const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'asStored' as const };
			fake.lists.set('/applications', apps);
			for (let i = 0; i < 100; i++) apps.items.push(application(`app_old${String(i).padStart(3, '0')}`, at(-2 * 24 * 60 * MINUTE + ((i * 37) % 100) * MINUTE)));
			const t = trigger({ event: 'application.created' });
			expect(await t.activate()).toEqual({ emitted: [] });
			fakeClock();
			later(2 * MINUTE);
			apps.items.push(application('app_X', at(0)));
			later(8 * MINUTE);
			apps.items.push(application('app_Y', at(-1000)));
			if (deleteBetweenPages === 'add') {
				// An application arrives while the poll reads page 2 (stored first: the service's order is its own).
				fake.beforePage = (path, page) => {
					if (path === '/applications' && page === 2) {
						apps.items.unshift(application('app_Z', at(0)));
						fake.beforePage = undefined;
					}
				};
			} else if (deleteBetweenPages) {
				// A recruiter deletes an old application while the poll reads page 2: X moves onto page 1, already read.
				fake.beforePage = (path, page) => {
					if (path === '/applications' && page === 2) {
						apps.items.splice(0, 1);
						fake.beforePage = undefined;
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

		it('nothing deleted: X and Y are reported', async () => {
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

	describe('New Job Note on a job with 300 notes (3 pages)', () => {
		afterEach(() => jest.useRealTimers());

		async function idlePollCost(order: 'newestFirst' | 'oldestFirst') {
			const notes = { items: [] as IDataObject[], field: 'date_created', order };
			fake.lists.set('/jobs/job_1/notes', notes);
			for (let i = 0; i < 299; i++) notes.items.push({ id: `jnote_old${String(i).padStart(3, '0')}`, date_created: at(-3 * 24 * 60 * MINUTE + i * MINUTE), text: 'old' });
			const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
			expect(await t.activate()).toEqual({ emitted: [] });
			notes.items.push({ id: 'jnote_new', date_created: at(0), text: 'new' });
			expect(ids((await t.tick()).emitted)).toEqual(['jnote_new']);
			// 300 notes now (3 full pages). Polls a minute apart, from 6 minutes on: nothing is unsettled any more.
			fakeClock();
			later(6 * MINUTE);
			const costs: number[] = [];
			for (let i = 0; i < 5; i++) {
				later(MINUTE);
				fake.requests.length = 0;
				expect((await t.tick()).emitted).toEqual([]);
				costs.push(fake.requests.length);
			}
			return costs;
		}

		/**
		 * User-visible scenario: 20 jobs followed, each with a few hundred notes, listed newest first
		 * (the notes list has no sort parameter). Once the order is known, an idle poll reads one page
		 * per job, not every page of every job (3 requests per job here), which would spend the
		 * credential's rate limit that the user's other workflows share.
		 */
		it('listed newest first: an idle poll reads one page', async () => {
			expect(await idlePollCost('newestFirst')).toEqual([1, 1, 1, 1, 1]);
		});

		it('listed oldest first: an idle poll reads one page', async () => {
			expect(await idlePollCost('oldestFirst')).toEqual([1, 1, 1, 1, 1]);
		});
	});
});

describe('a list\'s length (meta.total_items) is not trusted', () => {
	/**
	 * Why an idle poll reads the look-back's pages after a burst instead of trusting the list's length
	 * (issue 41): a shortcut tried at git e495ddd (stop at page 1 when `meta.total_items` grew by exactly
	 * the new entries read) lost entries in each case below, found by a hostile review, and was
	 * reverted. Each must keep passing: entries found once whatever the length says.
	 */

	describe('a deletion seen by an unsaved idle poll, then a restart / republish, masks a late entry', () => {
		it('no restart: the late entry is found', async () => {
			const { apps, t, burst } = await afterBurst();
			apps.items.splice(apps.items.indexOf(burst[20]), 1);
			expect((await t.tick()).emitted).toEqual([]);
			apps.items.push(application('app_late', at(-151_000)));
			expect(ids((await t.tick()).emitted)).toEqual(['app_late']);
		});

		for (const mode of ['init', 'update'] as const) {
			it(`deletion, idle poll, n8n ${mode === 'init' ? 'restarts' : 'republishes'}; late entry meanwhile: reported once`, async () => {
				const { apps, t, burst } = await afterBurst();
				apps.items.splice(apps.items.indexOf(burst[20]), 1);
				// The idle poll sees the list one shorter, reads the look-back, keeps the length in memory: not saved (nothing emitted).
				expect((await t.tick()).emitted).toEqual([]);
				t.stop();
				apps.items.push(application('app_late', at(-151_000)));
				const emitted = [...ids((await t.activate(mode)).emitted), ...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
				expect(emitted).toEqual(['app_late']);
			});
		}

		it('durable engine: the activation poll at a restart sees the deletion (its cursor is not kept); late entry after it: reported once', async () => {
			const { apps, t, burst } = await afterBurst('durable');
			t.stop();
			apps.items.splice(apps.items.indexOf(burst[20]), 1);
			expect((await t.activate('init')).emitted).toEqual([]);
			apps.items.push(application('app_late', at(-151_000)));
			const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
			expect(emitted).toEqual(['app_late']);
		});
	});

	describe('an entry that gets its time without the length changing (unreadable → readable)', () => {
		it('an application listed with applied_at null (counted), stamped later within the look-back below page 1: reported', async () => {
			// The fake sorts by sort_at (the service's own order); the trigger reads applied_at.
			const apps = { items: [] as IDataObject[], field: 'sort_at', order: 'newestFirst' as const };
			fake.lists.set('/applications', apps);
			const app = (id: string, time: string | null, sortAt: string) => application(id, time, { sort_at: sortAt });
			for (let i = 0; i < 5; i++) { const s = at(-2 * 24 * 60 * MINUTE + i); apps.items.push(app(`app_old${i}`, s, s)); }
			const pending: IDataObject = app('app_pending', null, at(-151_000));
			apps.items.push(pending);
			const t = trigger({ event: 'application.created' });
			expect(await t.activate()).toEqual({ emitted: [] });
			for (let i = 0; i < 150; i++) { const s = at(-150_000 + i * 1000); apps.items.push(app(`app_b${String(i).padStart(3, '0')}`, s, s)); }
			expect((await t.tick()).emitted).toHaveLength(150);
			pending.applied_at = pending.sort_at;
			const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
			expect(emitted).toEqual(['app_pending']);
		});
	});

	/** 5 old applications, their list's length as `totalItems` says, and New Application published on them. */
	async function publishedOnFiveOld(totalItems: (length: number) => number) {
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const, totalItems };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i)));
		const t = trigger({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		return { apps, t };
	}

	describe('a capped length that lands exactly on its cap', () => {
		it('total_items capped at 200: 5 + 195 = 200 is taken as tracking; a late entry below page 1 is reported', async () => {
			const { apps, t } = await publishedOnFiveOld((n) => Math.min(n, 200));
			apps.items.push(...Array.from({ length: 195 }, (_, i) => application(`app_b${String(i).padStart(3, '0')}`, at(-195_000 + i * 1000))));
			expect((await t.tick()).emitted).toHaveLength(195);
			apps.items.push(application('app_late', at(-196_000)));
			const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
			expect(emitted).toEqual(['app_late']);
		});
	});

	describe('a length that lags the list by one poll (a cached count)', () => {
		it('a late entry that turned up 4m11s after its own time (within the promised 5 min) is reported', async () => {
			let frozen: number | undefined;
			const { apps, t } = await publishedOnFiveOld((n) => frozen ?? n);
			apps.items.push(...Array.from({ length: 250 }, (_, i) => application(`app_b${String(i).padStart(3, '0')}`, at(-250_000 + i * 1000))));
			expect((await t.tick()).emitted).toHaveLength(250);
			fakeClock();
			try {
				frozen = apps.items.length; // the count as the burst poll saw it, still cached at the next poll
				apps.items.push(application('app_late', at(-251_000))); // page 3
				const emitted: string[] = [];
				for (let i = 0; i < 3; i++) {
					if (i === 1) frozen = undefined; // the cache refreshes
					jest.setSystemTime(Date.now() + MINUTE);
					fake.requests.length = 0;
					emitted.push(...ids((await t.tick()).emitted));
					console.log(`D poll ${i}: requests ${fake.requests.length}`);
				}
				expect(emitted).toEqual(['app_late']);
			} finally {
				jest.useRealTimers();
			}
		});
	});

	describe('a burst of more than 100 on-time entries in one poll interval, and a deletion of an older entry', () => {
		for (const [n, d] of [[101, 1], [201, 1], [150, 50]] as const) {
			it(`${n} new, ${d} old deleted: all ${n} reported`, async () => {
				const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
				fake.lists.set('/applications', apps);
				for (let i = 0; i < 60; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i)));
				const t = trigger({ event: 'application.created' });
				expect(await t.activate()).toEqual({ emitted: [] });
				apps.items.push(application('app_first', at(-300_000)));
				expect(ids((await t.tick()).emitted)).toEqual(['app_first']); // the length tracks: 60 + 1
				apps.items.push(...Array.from({ length: n }, (_, i) => application(`app_b${String(i).padStart(3, '0')}`, at(-60_000 + i * 100))));
				apps.items.splice(0, d); // a clean-up (GDPR, duplicates merged) removes old applications meanwhile
				const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
				expect(emitted).toHaveLength(n);
			});
		}
	});

	describe('job notes: a note added while the poll reads the next page', () => {
		const setup = async () => {
			const notes = { items: [] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const };
			fake.lists.set('/jobs/job_1/notes', notes);
			const note = (id: string, date: string) => ({ id, date_created: date, text: id });
			for (let i = 0; i < 50; i++) notes.items.push(note(`jnote_old${String(i).padStart(3, '0')}`, at(-3 * 24 * 60 * MINUTE + i * 1000)));
			const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
			expect(await t.activate()).toEqual({ emitted: [] });
			// 50 new notes: the list grew by exactly them (100): its length tracks it.
			for (let i = 0; i < 50; i++) notes.items.push(note(`jnote_a${String(i).padStart(3, '0')}`, at(-100_000 + i * 1000)));
			expect((await t.tick()).emitted).toHaveLength(50);
			for (let i = 0; i < 5; i++) notes.items.push(note(`jnote_b${i}`, at(-40_000 + i * 1000)));
			return { notes, note, t };
		};

		it('one note added while page 2 is read: the poll reads 2 pages (not the list again)', async () => {
			const { notes, note, t } = await setup();
			fake.beforePage = (path, page) => {
				if (path === '/jobs/job_1/notes' && page === 2) {
					notes.items.push(note('jnote_during', at(0)));
					fake.beforePage = undefined;
				}
			};
			fake.requests.length = 0;
			const out = await t.tick();
			expect(out.error).toBeUndefined();
			expect(ids(out.emitted).length).toBeGreaterThanOrEqual(5);
			expect(noteRequests()).toHaveLength(2);
		});

		it('a busy list (a note added at each read of page 2): the poll still succeeds', async () => {
			const { notes, note, t } = await setup();
			let n = 0;
			fake.beforePage = (path, page) => {
				if (path === '/jobs/job_1/notes' && page === 2) notes.items.push(note(`jnote_during${n++}`, at(0)));
			};
			fake.requests.length = 0;
			const out = await t.tick();
			expect(out.error?.message).toBeUndefined();
			expect(noteRequests().length).toBeLessThanOrEqual(2);
		});
	});

	describe('New Job Note: a notes list whose length (meta.total_items) lies', () => {
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

		it('a length capped at 100: the new note is reported once', async () => {
			expect(await run((length) => Math.min(length, 100))).toEqual({ emitted: ['jnote_new'], errors: [] });
		});

		it('a length that counts 60 fewer (notes it hides from the count): the new note is reported once', async () => {
			expect(await run((length) => length - 60)).toEqual({ emitted: ['jnote_new'], errors: [] });
		});

		// A last page short of the list's length is asked for once more; short again, the length is taken to lie.
		it('a length one more than the notes listed: the new note is still reported', async () => {
			expect(await run((length) => length + 1)).toEqual({ emitted: ['jnote_new'], errors: [] });
		});
	});
});

describe('empty pages', () => {
	it('an empty page in the middle of a newest-first read (has_next_page true) does not lose the older new applications', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		// 150 applications over 150 minutes (n8n was stopped, or the poll interval is long).
		const added = Array.from({ length: 150 }, (_, i) => fx.apply(at(-(150 - i) * MINUTE)));
		fx.sandbox.setFaults([{ kind: 'empty_page', path: 'applications', page: 2, times: 1 }]);
		const emitted = [...ids((await trigger.tick()).emitted), ...ids((await trigger.tick()).emitted)];
		expect(emitted.sort()).toEqual(added.map((a) => a.id).sort());
	});
});

const counts = (list: string[]) => list.reduce<Record<string, number>>((acc, id) => ({ ...acc, [id]: (acc[id] ?? 0) + 1 }), {});

describe('oldest-first list (New Job Note): an entry turns up late, inserted before the newest, while the poll reads the next page', () => {
	async function run(insertDuringRead: boolean) {
		const notes = { items: [] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const };
		fake.lists.set('/jobs/job_1/notes', notes);
		const note = (id: string, date: string) => ({ id, date_created: date, text: id });
		for (let i = 0; i < 150; i++) notes.items.push(note(`jnote_old${String(i).padStart(3, '0')}`, at(-3 * 24 * 60 * MINUTE + i * 1000)));
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		// 51 new notes: page 2 = 50 old + 50 new, page 3 = the newest one.
		for (let i = 0; i < 51; i++) notes.items.push(note(`jnote_n${String(i).padStart(3, '0')}`, at(-60_000 + i * 1000)));
		const late = note('jnote_late', at(-60_000 + 48_500)); // stamped between n048 and n049: it turns up a few seconds late
		if (insertDuringRead) {
			fake.beforePage = (path, page) => {
				if (path === '/jobs/job_1/notes' && page === 3) {
					notes.items.push(late);
					fake.beforePage = undefined;
				}
			};
		} else notes.items.push(late);
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		return emitted;
	}

	it('the late note there before the poll: each of the 52 new notes once', async () => {
		const emitted = await run(false);
		expect(emitted).toHaveLength(52);
		expect(Object.values(counts(emitted)).every((n) => n === 1)).toBe(true);
	});

	it('the late note inserted while page 3 is read: no note is delivered twice', async () => {
		const emitted = await run(true);
		expect(Object.entries(counts(emitted)).filter(([, n]) => n > 1)).toEqual([]);
		expect(emitted).toHaveLength(52);
	});
});

describe('a service that ignores the sort (stored order, e.g. by last update): an entry updated while the list is read whole', () => {
	async function run(moveDuringRead: boolean) {
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'asStored' as const };
		fake.lists.set('/applications', apps);
		// 150 old applications in no order by time.
		for (let i = 0; i < 150; i++) apps.items.push(application(`app_old${String(i).padStart(3, '0')}`, at(-2 * 24 * 60 * MINUTE + ((i * 7919) % 150) * MINUTE)));
		const t = trigger({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		apps.items.push(application('app_new', at(-MINUTE)));
		if (moveDuringRead) {
			fake.beforePage = (path, page) => {
				if (path === '/applications' && page === 2) {
					// app_old000 updated (a recruiter edits it): the service now lists it last.
					apps.items.push(...apps.items.splice(0, 1));
					fake.beforePage = undefined;
				}
			};
		}
		const first = await t.tick();
		const second = await t.tick();
		return { errors: [first.error?.message, second.error?.message].filter(Boolean), emitted: [...ids(first.emitted), ...ids(second.emitted)] };
	}

	it('nothing updated during the read: app_new reported, no failed poll', async () => {
		expect(await run(false)).toEqual({ errors: [], emitted: ['app_new'] });
	});

	it('an old application updated (moved in the stored order) between two pages: no failed poll, app_new reported once', async () => {
		expect(await run(true)).toEqual({ errors: [], emitted: ['app_new'] });
	});
});
