/**
 * What a poll costs in requests: an idle poll (1 per list), a burst and the look-back after it,
 * and Fetch Test Event (it stops at the first match). The cost of a list in another order than
 * asked for is in listReading.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { useFakeListService } from '../harness/fakeServices';
import { application, at, fakeClock, ids, MINUTE, triggerOn } from './fakeKit';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();
const NEW_APPLICATION = { event: 'application.created' };

describe('an idle poll', () => {
	it('New Application: one request', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		fx.sandbox.clearRequests();
		for (let i = 0; i < 3; i++) expect((await trigger.tick()).emitted).toEqual([]);
		expect(fx.applicationRequests()).toHaveLength(3);
	});

	const listRequests = () => fx.sandbox.requests.filter((r) => r.method === 'GET');

	it('one request per chosen job for stage changes and job notes, one for feedback', async () => {
		const jobs = [...new Set(fx.seeded.map((a) => a.job.id))].slice(0, 2);
		for (const parameters of [
			{ event: 'application.stage.updated', jobIds: jobs.join(',') },
			{ event: 'job.note.created', jobIds: jobs.join(',') },
			{ event: 'feedback.submitted' },
		]) {
			const trigger = fx.trigger(parameters);
			await trigger.activate();
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect([parameters.event, listRequests().length]).toEqual([parameters.event, 'jobIds' in parameters ? 2 : 1]);
		}
	});

	it('stage changes read full pages: a job of 95 applications is one request per idle poll', async () => {
		const job = fx.seeded[0].job;
		const have = fx.seeded.filter((a) => a.job.id === job.id).length;
		for (let i = have; i < 95; i++) fx.apply(at(-i * 1000), { job });
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: job.id });
		await trigger.activate();
		fx.sandbox.clearRequests();
		expect((await trigger.tick()).emitted).toEqual([]);
		expect(fx.applicationRequests().map((r) => r.query.page_size)).toEqual(['100']);
	});
});

describe('after a burst', () => {
	it('250 new applications between two polls: all 250, none twice, in the pages that hold them', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const base = Date.now();
		const added = Array.from({ length: 250 }, (_, i) => fx.apply(new Date(base + i * 10).toISOString()));
		fx.sandbox.clearRequests();
		const { emitted } = await trigger.tick();
		expect(ids(emitted)).toEqual(added.map((a) => a.id));
		expect(new Set(ids(emitted)).size).toBe(250);
		// Pages of 100, newest first: 100 + 100 + 50 new and the seeded ones after them on page 3.
		expect(fx.applicationRequests()).toHaveLength(3);
		// All 250 are within the look-back: an idle poll reads the pages that hold it (one per 100 entries).
		fx.sandbox.clearRequests();
		expect((await trigger.tick()).emitted).toEqual([]);
		expect(fx.applicationRequests()).toHaveLength(3);
	});

	it('after 250 at once, an idle poll is one request once a poll has read the list a look-back after the newest', async () => {
		const trigger = fx.trigger({ event: 'application.created' });
		await trigger.activate();
		const base = Date.parse(fx.seeded[0].applied_at) + 1000;
		for (let i = 0; i < 250; i++) fx.apply(new Date(base + i * 100).toISOString());
		expect((await trigger.tick()).emitted).toHaveLength(250);
		// Within the look-back an entry may still turn up late among them: their pages are read.
		fx.sandbox.clearRequests();
		expect((await trigger.tick()).emitted).toEqual([]);
		expect(fx.applicationRequests()).toHaveLength(3);
		// Six minutes on (n8n's clock and the service's Date header; timers stay real).
		fakeClock();
		try {
			jest.setSystemTime(Date.now() + 6 * MINUTE);
			// The last read was 6 minutes ago: an entry may have turned up, 5 minutes late, just after it.
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect(fx.applicationRequests()).toHaveLength(3);
			for (let poll = 0; poll < 2; poll++) {
				jest.setSystemTime(Date.now() + MINUTE);
				fx.sandbox.clearRequests();
				expect((await trigger.tick()).emitted).toEqual([]);
				expect(fx.applicationRequests()).toHaveLength(1);
			}
		} finally {
			jest.useRealTimers();
		}
	});

	it('job notes: after 150 notes at once, an idle poll reads one page once a poll has read the list a look-back after the newest', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: jobId });
		await trigger.activate();
		for (let i = 0; i < 150; i++) {
			fx.sandbox.put('jobNotes', { id: `jnote_burst${String(i).padStart(3, '0')}`, job_id: jobId, date_created: at(-150_000 + i * 1000), text: 'x', creator: { name: 'T' }, files: [], mentioned_users: [], restricted: false });
		}
		expect((await trigger.tick()).emitted).toHaveLength(150);
		// Six minutes on (n8n's clock and the sandbox's Date header; timers stay real).
		fakeClock();
		try {
			const noteRequests = () => fx.sandbox.requests.filter((r) => r.segments[r.segments.length - 1] === 'notes');
			jest.setSystemTime(Date.now() + 6 * 60_000);
			// The last read was 6 minutes ago: a note may have turned up, 5 minutes late, just after it.
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect(noteRequests().length).toBeGreaterThan(1);
			jest.setSystemTime(Date.now() + 60_000);
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect(noteRequests()).toHaveLength(1);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe('Fetch Test Event', () => {
	it('stops at the first page with a match', async () => {
		const now = Date.now();
		for (let i = 0; i < 400; i++) fx.apply(new Date(now - 20 * MINUTE - i * 1000).toISOString());
		const hired = fx.apply(new Date(now - 10 * MINUTE).toISOString(), { stage: { ...fx.seeded[0].stage, parent_stage: 'hired' } });
		fx.apply(new Date(now).toISOString());
		const trigger = fx.trigger({ event: 'application.created', options: { parentStages: ['hired'] } });
		fx.sandbox.clearRequests();
		expect(ids((await trigger.manual()).emitted)).toEqual([hired.id]);
		expect(fx.applicationRequests()).toHaveLength(1);
	});

	it('with a job filter reads no more than a few pages on a large account', async () => {
		for (let i = 0; i < 400; i++) fx.apply(at(-i * 1000));
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { jobIds: 'job_without_applications' } });
		fx.sandbox.clearRequests();
		await trigger.manual();
		// The API filters applications by job (the stage trigger sends job_id); one request would do.
		expect(fx.applicationRequests().length).toBeLessThanOrEqual(2);
	});
});

const fake = useFakeListService();
const trigger = triggerOn(fake, 'tok_costs');

describe('cost of an idle poll when the answers carry no Date header (a proxy that drops it)', () => {
	async function idleRequests(dateless: boolean) {
		fake.dateless = dateless;
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i)));
		const t = trigger({ event: 'application.created' });
		expect(await t.activate()).toEqual({ emitted: [] });
		// 150 applications over the last 50 minutes (an ordinary busy hour), none in the last 5.
		for (let i = 0; i < 150; i++) apps.items.push(application(`app_h${String(i).padStart(3, '0')}`, at(-50 * MINUTE + i * 18_000)));
		expect((await t.tick()).emitted).toHaveLength(150);
		fake.requests.length = 0;
		expect((await t.tick()).emitted).toEqual([]);
		return fake.requests.filter((r) => r.startsWith('/applications')).length;
	}

	it('with a Date header, an idle poll is one request', async () => {
		expect(await idleRequests(false)).toBe(1);
	});

	it('without a Date header, an idle poll is still one request (entries of the last 5 minutes do not fill page 1)', async () => {
		expect(await idleRequests(true)).toBe(1);
	});
});
