/**
 * The polling contract for New Application (issue 31, point 2), each point against the sandbox
 * through n8n-core's PollContext, with static data kept and lost as n8n keeps and loses it.
 */
import { LOOK_BACK_MS, MAX_SEEN_IDS } from '../../nodes/RecruitingPollingTrigger/cursor';
import { apiGet, usePollingFixture } from './fixture';

const fx = usePollingFixture();
const NEW_APPLICATION = { event: 'application.created' };
const ids = (items: Array<{ object?: unknown }>) => items.map((item) => (item.object as { id: string }).id);
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('first poll', () => {
	it('records where the account stands and emits nothing, in one request', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		const first = await trigger.activate();
		expect(first).toEqual({ emitted: [] });
		expect(fx.applicationRequests()).toHaveLength(1);
		expect(trigger.executions).toEqual([]);
		// Saved at activation (n8n's ActiveWorkflowManager saves static data after the first poll).
		expect(JSON.stringify(trigger.staticData)).toContain(fx.seeded[0].id);
	});

	it('Start From reports everything from that time at the first poll, oldest first', async () => {
		const since = fx.seeded[4].applied_at;
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { startFrom: since } });
		const { emitted } = await trigger.activate();
		expect(ids(emitted)).toEqual(fx.seeded.slice(0, 5).map((a) => a.id).reverse());
	});
});

describe('new applications', () => {
	it('the next poll emits exactly the new ones, oldest first, shaped as the webhook trigger\'s items', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const added = [fx.apply(at(-2000)), fx.apply(at(-1000)), fx.apply(at(0))];
		const { emitted } = await trigger.tick();
		expect(ids(emitted)).toEqual(added.map((a) => a.id));
		expect(emitted[0]).toEqual({
			event: 'application.created',
			timestamp: added[0].applied_at,
			messageId: `poll:application.created:${added[0].id}`,
			deliveryId: null,
			object: expect.objectContaining({ id: added[0].id, applied_at: added[0].applied_at }),
		});
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('an idle poll costs one request', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		fx.sandbox.clearRequests();
		for (let i = 0; i < 3; i++) expect((await trigger.tick()).emitted).toEqual([]);
		expect(fx.applicationRequests()).toHaveLength(3);
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

	it('the cursor is the newest item\'s own time, not the time of the request', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		// Applied "in the past" by the service's clock, visible only now: still new.
		const behind = fx.apply(new Date(Date.parse(fx.seeded[0].applied_at) + 1).toISOString());
		expect(ids((await trigger.tick()).emitted)).toEqual([behind.id]);
	});

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
});

describe('failures, restarts and republishing', () => {
	it('a failed poll (500) leaves the cursor where it was; the next poll catches up', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const stored = trigger.staticData;
		const added = fx.apply(at(0));
		fx.sandbox.setFaults([{ kind: 'status', status: 500, path: 'applications', times: -1 }]);
		const failed = await trigger.tick();
		expect(failed.error?.message).toMatch(/500|server/i);
		expect(trigger.staticData).toEqual(stored);
		fx.sandbox.setFaults([]);
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
	});

	it('a rate limit is waited out within the poll, not failed', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const added = fx.apply(at(0));
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 1, times: 1 }]);
		const { emitted, error } = await trigger.tick();
		expect(error).toBeUndefined();
		expect(ids(emitted)).toEqual([added.id]);
	});

	it('n8n restarted: what arrived while it was stopped is emitted once, at the first poll', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		expect(ids((await trigger.tick()).emitted)).toEqual([]);
		trigger.stop();
		const whileStopped = [fx.apply(at(-1000)), fx.apply(at(0))];
		expect(ids((await trigger.activate('init')).emitted)).toEqual(whileStopped.map((a) => a.id));
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('restarted after emitting: the saved cursor holds, nothing twice', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const three = [fx.apply(at(-3000)), fx.apply(at(-2000)), fx.apply(at(-1000))];
		expect(ids((await trigger.tick()).emitted)).toEqual(three.map((a) => a.id));
		trigger.stop();
		const two = [fx.apply(at(0)), fx.apply(at(1))];
		expect(ids((await trigger.activate('init')).emitted)).toEqual(two.map((a) => a.id));
	});

	it('unpublished, one added, published again: exactly that one', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		trigger.stop();
		const one = fx.apply(at(0));
		expect(ids((await trigger.activate('activate')).emitted)).toEqual([one.id]);
	});

	it('an unsaved in-memory advance is redone after a restart, not lost', async () => {
		// A poll that found only filtered-out items returns null: n8n does not save what it advanced.
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { jobIds: 'job_nomatch' } });
		await trigger.activate();
		fx.apply(at(-1000));
		expect((await trigger.tick()).emitted).toEqual([]);
		trigger.stop();
		trigger.setParameters({ ...NEW_APPLICATION, options: {} });
		const later = fx.apply(at(0));
		// The saved cursor is the activation's: both are new to it (the filter changed in between).
		expect(ids((await trigger.activate('init')).emitted)).toHaveLength(2);
		expect(ids((await trigger.tick()).emitted)).toEqual([]);
		void later;
	});

	it('two polls at once emit each item once', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const added = fx.apply(at(0));
		fx.sandbox.setFaults([{ kind: 'slow', path: 'applications', delayMs: 300, times: 2 }]);
		const [a, b] = await Promise.all([trigger.tick(), trigger.tick()]);
		expect([...ids(a.emitted), ...ids(b.emitted)]).toEqual([added.id]);
		expect((await trigger.tick()).emitted).toEqual([]);
	});
});

describe('Fetch Test Event', () => {
	it('returns the newest matching application and never moves the production cursor', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const stored = trigger.staticData;
		const added = fx.apply(at(0));
		const manual = await trigger.manual();
		expect(ids(manual.emitted)).toEqual([added.id]);
		expect(trigger.staticData).toEqual(stored);
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
	});

	it('with a job filter, the newest application of that job however old', async () => {
		const oldest = fx.seeded[fx.seeded.length - 1];
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { jobIds: oldest.job.id } });
		const newestOfJob = fx.seeded.find((a) => a.job.id === oldest.job.id)!;
		expect(ids((await trigger.manual()).emitted)).toEqual([newestOfJob.id]);
	});
});

describe('filters', () => {
	it('Job IDs and Parent Stages pass only matching applications', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { jobIds: jobId, parentStages: ['hired'] } });
		await trigger.activate();
		const other = fx.seeded.find((a) => a.job.id !== jobId)!;
		const hiredStage = { ...fx.seeded[0].stage, parent_stage: 'hired' };
		const match = fx.apply(at(0), { stage: hiredStage });
		fx.apply(at(1), { job: other.job, stage: hiredStage });
		fx.apply(at(2), { stage: { ...hiredStage, parent_stage: 'new' } });
		expect(ids((await trigger.tick()).emitted)).toEqual([match.id]);
	});

	it('an invalid parameter fails before any request, naming the field', async () => {
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { parentStages: ['nope'] } });
		const { error } = await trigger.activate();
		expect(error?.message).toMatch(/^Parent Stages: "nope"/);
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});

describe('a service that ignores the sort', () => {
	it('oldest first: notices, says so once, and still finds every new item reading from the last known page', async () => {
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
});

describe('state', () => {
	it('stays bounded and holds no secret', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const time = at(0);
		for (let i = 0; i < MAX_SEEN_IDS + 200; i++) fx.apply(time);
		const { emitted } = await trigger.tick();
		expect(emitted).toHaveLength(MAX_SEEN_IDS + 200);
		const stored = JSON.stringify(trigger.staticData);
		expect(stored).not.toContain(fx.sandbox.token);
		expect(stored.length).toBeLessThan(40_000);
		const info = await apiGet<{ meta: { total_items: number } }>(fx.sandbox, '/applications?page_size=1');
		expect(info.meta.total_items).toBe(30 + MAX_SEEN_IDS + 200);
		// Past the cap the floor moved past the shared time: nothing is emitted again.
		expect((await trigger.tick()).emitted).toEqual([]);
	});
});

describe('order', () => {
	it('entries sharing a time come in the order the list gives them, oldest first', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const time = at(0);
		const added = Array.from({ length: 5 }, () => fx.apply(time));
		expect(ids((await trigger.tick()).emitted)).toEqual(added.map((a) => a.id));
	});
});

describe('rate limits at publishing', () => {
	it('a first poll rate-limited past its short wait does not fail the activation; the next poll reports what came since', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 120, times: -1 }]);
		const trigger = fx.trigger(NEW_APPLICATION);
		const first = await trigger.activate();
		expect(first).toEqual({ emitted: [] });
		fx.sandbox.setFaults([]);
		// A new token, so a credential without the pause the service asked for (the harness has no way to wait two minutes).
		fx.sandbox.rotateToken();
		const added = fx.apply(at(0));
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
		expect((await trigger.tick()).emitted).toEqual([]);
	}, 60_000);
});
