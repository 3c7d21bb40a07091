import {
	apiPath,
	describeListContract,
	errorOf,
	expr,
	idsOf,
	listDirect,
	startRecruitingFixture,
	type RecruitingFixture,
} from './fixture';

let fx: RecruitingFixture;
let jobId: string;
beforeAll(async () => {
	fx = await startRecruitingFixture({ jobs: 3, jobNotesPerJob: 4, applications: 10 });
	const [application] = await listDirect(fx.sandbox, ['applications']);
	jobId = String((application.job as { id: string }).id);
});
afterAll(async () => await fx.close());
beforeEach(() => {
	fx.sandbox.setFaults([]);
	fx.sandbox.clearRequests();
});

describeListContract(() => fx, {
	resource: 'jobNote',
	segments: () => ['jobs', jobId, 'notes'],
	parameters: () => ({ jobId }),
	size: 4,
});

describe('jobNote getMany', () => {
	test('a job ID with reserved characters is one path segment between jobs and notes', async () => {
		const weirdId = 'job/../x?y#z%41✓';
		fx.sandbox.put('jobs', { ...fx.sandbox.get('jobs', jobId), id: weirdId });
		const note = (await listDirect(fx.sandbox, ['jobs', jobId, 'notes']))[0];
		fx.sandbox.put('jobNotes', { ...note, id: 'note_weird', job_id: weirdId });

		const result = await fx.run({ resource: 'jobNote', operation: 'getMany', jobId: weirdId, returnAll: true });
		expect(result.error).toBeUndefined();
		expect(idsOf(result)).toEqual(['note_weird']);
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'jobs', weirdId, 'notes']);
		expect(fx.sandbox.requests[0].path).toBe(apiPath(fx.sandbox, 'jobs', weirdId, 'notes'));
	});

	test('an unknown job is a 404 that names the id', async () => {
		const error = errorOf(await fx.run({ resource: 'jobNote', operation: 'getMany', jobId: 'job_nope', limit: 5 }));
		expect(error.message).toBe('The job "job_nope" was not found');
		expect(error.httpCode).toBe('404');
		expect(error.itemIndex).toBe(0);
		expect(fx.sandbox.requests).toHaveLength(1);
	});

	test.each(['', ' ', '..'])('job ID %j is rejected before any request', async (badId) => {
		const error = errorOf(await fx.run({ resource: 'jobNote', operation: 'getMany', jobId: expr(badId), limit: 5 }));
		expect(error.message).toContain('"Job"');
		expect(error.itemIndex).toBe(0);
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});
