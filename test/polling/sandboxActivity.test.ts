/**
 * The sandbox's activity routes (POST /__sandbox/applications, PUT …/applications/{id}/stage,
 * POST …/jobs/{id}/notes): what a newcomer or a test uses to make something happen while n8n runs,
 * found by the polling trigger at its next poll.
 */
import type { IDataObject } from 'n8n-workflow';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: IDataObject }> {
	const response = await fetch(`${fx.sandbox.url}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as IDataObject };
}
const dataOf = (reply: { body: IDataObject }) => reply.body.data as IDataObject;
const objectIds = (items: IDataObject[]) => items.map((item) => (item.object as { id: string }).id);

it('an application made by the sandbox is a new application, with a new candidate, at the next poll', async () => {
	const jobId = fx.seeded[0].job.id;
	const trigger = fx.trigger({ event: 'application.created' });
	await trigger.activate();
	const made = await control('POST', '/applications', { jobId });
	expect(made.status).toBe(201);
	const application = dataOf(made);
	expect(application).toMatchObject({ job: { id: jobId }, stage: { parent_stage: 'new' }, candidate: { full_name: expect.stringMatching(/^Applicant \d+$/) } });
	expect(objectIds((await trigger.tick()).emitted)).toEqual([application.id]);
});

it('a stage moved by the sandbox is a stage change; a note it adds is a new job note', async () => {
	const jobId = fx.seeded[0].job.id;
	const stages = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
	const notes = fx.trigger({ event: 'job.note.created', jobIds: jobId });
	await stages.activate();
	await notes.activate();
	const target = fx.seeded.find((a) => a.job.id === jobId && a.stage.parent_stage !== 'hired')!;
	const moved = await control('PUT', `/applications/${target.id}/stage`, { parentStage: 'hired' });
	expect(dataOf(moved)).toMatchObject({ id: target.id, stage: { parent_stage: 'hired' } });
	const [change] = (await stages.tick()).emitted;
	expect(change).toMatchObject({ object: { id: target.id }, previousStage: { parent_stage: target.stage.parent_stage } });
	const note = await control('POST', `/jobs/${jobId}/notes`, { text: 'Shortlist ready' });
	expect(note.status).toBe(201);
	expect((await notes.tick()).emitted).toEqual([expect.objectContaining({ jobId, object: expect.objectContaining({ text: 'Shortlist ready' }) })]);
});

it('refuses what it cannot do, naming it', async () => {
	expect((await control('POST', '/applications', { jobId: 'job_none' })).status).toBe(404);
	expect((await control('PUT', `/applications/${fx.seeded[0].id}/stage`, { parentStage: 'nope' })).status).toBe(400);
	expect((await control('POST', '/jobs/job_none/notes', { text: 'x' })).status).toBe(404);
});
