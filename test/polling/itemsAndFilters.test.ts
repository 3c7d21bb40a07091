/**
 * What each event emits (items shaped as the webhook trigger's, oldest first), its filters, and
 * Fetch Test Event's sample, through n8n-core's PollContext against the sandbox. Stage changes are
 * in stageChanges.test.ts; the cursor in cursorAndLateEntries.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Feedback } from '../../sandbox';
import { at, ids } from './fakeKit';
import { apiGet, usePollingFixture } from './fixture';

const fx = usePollingFixture();
const specOnly = usePollingFixture({ specOnly: true });
const NEW_APPLICATION = { event: 'application.created' };
const objectIds = (items: IDataObject[]) => items.map((item) => (item.object as { id: string }).id);

describe('New Application', () => {
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
			eventKey: `application.created:${added[0].id}`,
			deliveryId: null,
			object: expect.objectContaining({ id: added[0].id, applied_at: added[0].applied_at }),
		});
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('entries sharing a time come in the order the list gives them, oldest first', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const time = at(0);
		const added = Array.from({ length: 5 }, () => fx.apply(time));
		expect(ids((await trigger.tick()).emitted)).toEqual(added.map((a) => a.id));
	});

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

	it('the Job IDs filter of New Application (no per-job cost, no limit stated in its description) accepts 21 jobs', async () => {
		const jobIds = Array.from({ length: 21 }, (_, i) => `job_${i}`).join(',');
		const { error } = await fx.trigger({ ...NEW_APPLICATION, options: { jobIds } }).activate();
		expect(error?.message).toBeUndefined();
	});

	it('an invalid parameter fails before any request, naming the field', async () => {
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { parentStages: ['nope'] } });
		const { error } = await trigger.activate();
		expect(error?.message).toMatch(/^Parent Stages: "nope"/);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	it('Fetch Test Event returns the newest matching application and never moves the production cursor', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const stored = trigger.staticData;
		const added = fx.apply(at(0));
		const manual = await trigger.manual();
		expect(ids(manual.emitted)).toEqual([added.id]);
		expect(trigger.staticData).toEqual(stored);
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
	});

	it('Fetch Test Event with a job filter: the newest application of that job however old', async () => {
		const oldest = fx.seeded[fx.seeded.length - 1];
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { jobIds: oldest.job.id } });
		const newestOfJob = fx.seeded.find((a) => a.job.id === oldest.job.id)!;
		expect(ids((await trigger.manual()).emitted)).toEqual([newestOfJob.id]);
	});
});

describe('Feedback Completed', () => {
	let counter = 0;
	const feedback = async (): Promise<Feedback> => (await apiGet<{ items: Feedback[] }>(fx.sandbox, '/feedback?page_size=1')).items[0];
	const complete = (template: Feedback, dateComplete: string): Feedback => {
		counter += 1;
		const done = { ...template, id: `fdbk_poll${counter}`, status: 'complete', date_complete: dateComplete };
		fx.sandbox.put('feedback', done);
		return done;
	};
	const pending = (template: Feedback): void => {
		counter += 1;
		fx.sandbox.put('feedback', { ...template, id: `fdbk_pend${counter}`, status: 'pending', date_complete: null, date_created: at(0) });
	};

	it('emits each newly completed feedback as feedback.submitted, and no pending one', async () => {
		const template = await feedback();
		const trigger = fx.trigger({ event: 'feedback.submitted' });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		pending(template);
		const done = [complete(template, at(-1000)), complete(template, at(0))];
		const { emitted } = await trigger.tick();
		expect(objectIds(emitted)).toEqual(done.map((f) => f.id));
		expect(emitted[0]).toMatchObject({ event: 'feedback.submitted', timestamp: done[0].date_complete, deliveryId: null });
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('a service that ignores the sort and lists feedback in no order by completion: every page, every new one', async () => {
		fx.sandbox.setFaults([{ kind: 'ignore_sort', path: 'feedback', times: -1 }]);
		const template = await feedback();
		const trigger = fx.trigger({ event: 'feedback.submitted' });
		await trigger.activate();
		// Stored in this order, completed in another.
		const later = complete(template, at(0));
		const earlier = complete(template, at(-60_000));
		expect(objectIds((await trigger.tick()).emitted)).toEqual([earlier.id, later.id]);
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it("on a service with only the specification: activation fails naming GET /feedback", async () => {
		const trigger = specOnly.trigger({ event: 'feedback.submitted' });
		const { error } = await trigger.activate();
		expect(error?.message).toContain('GET /feedback');
		expect(error?.message).toContain("full API");
	});
});

describe('New Job Note', () => {
	it('emits each new note of the chosen jobs with its job', async () => {
		const [jobA, jobB] = [fx.seeded[0].job.id, fx.seeded.find((a) => a.job.id !== fx.seeded[0].job.id)!.job.id];
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: `${jobA}, ${jobB}` });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const note = (id: string, jobId: string, date: string) =>
			fx.sandbox.put('jobNotes', { id, job_id: jobId, date_created: date, text: `Note ${id}`, creator: { name: 'Test' }, files: [], mentioned_users: [], restricted: false });
		note('jnote_a', jobA, at(-1000));
		note('jnote_b', jobB, at(0));
		const { emitted } = await trigger.tick();
		expect(emitted.map((i) => [i.jobId, (i.object as { id: string }).id])).toEqual([
			[jobA, 'jnote_a'],
			[jobB, 'jnote_b'],
		]);
		expect(emitted[0]).toMatchObject({ event: 'job.note.created', messageId: `poll:job.note.created:${jobA}:jnote_a` });
		expect((await trigger.tick()).emitted).toEqual([]);
	});
});
