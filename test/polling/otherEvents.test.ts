/**
 * Application Stage Changed, Feedback Completed and New Job Note through n8n-core's PollContext
 * against the sandbox (the cursor itself is covered in newApplications.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { MAX_FOLLOWED_APPLICATIONS } from '../../nodes/RecruitingPollingTrigger/stages';
import type { Application, Feedback } from '../../sandbox';
import { apiGet, usePollingFixture } from './fixture';

const fx = usePollingFixture();
const specOnly = usePollingFixture({ specOnly: true });
const objectIds = (items: IDataObject[]) => items.map((item) => (item.object as { id: string }).id);
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('Application Stage Changed', () => {
	const moved = (application: Application, parent: string): Application => {
		const next = { ...application, stage: { ...application.stage, parent_stage: parent, custom_stage: { id: `stg_${parent}`, name: `Custom ${parent}` } } };
		fx.sandbox.put('applications', next);
		return next;
	};

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

	it('Fetch Test Event: an application of the chosen jobs, without touching the snapshot', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
		const { emitted } = await trigger.manual();
		expect(emitted).toHaveLength(1);
		expect(emitted[0]).toMatchObject({ event: 'application.stage.updated', previousStage: null, object: { job: { id: jobId } } });
		expect(trigger.staticData).toEqual({});
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

	it('a job that does not exist: the error names it', async () => {
		const { error } = await fx.trigger({ event: 'job.note.created', jobIds: 'job_gone' }).activate();
		expect(error?.message).toContain('job "job_gone" was not found');
	});
});

describe('cost of an idle poll', () => {
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
});
