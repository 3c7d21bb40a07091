import { errorOf, listDirect, startRecruitingFixture, type RecruitingFixture } from './fixture';

let fx: RecruitingFixture;
let jobIds: string[];
beforeAll(async () => {
	fx = await startRecruitingFixture({ jobs: 4, applications: 20, tags: 5 });
	const applications = await listDirect(fx.sandbox, ['applications']);
	jobIds = [...new Set(applications.map((a) => String((a.job as { id: string }).id)))];
});
afterAll(async () => await fx.close());
beforeEach(() => {
	fx.sandbox.setFaults([]);
	fx.sandbox.clearRequests();
});

// One item after another, as these tests watch the order of requests and where a run stops (a
// read's items otherwise run in the read window: test/recruiting/walker.test.ts).
const getJobById = { resource: 'job', operation: 'get', jobId: '={{ $json.id }}', requestOptions: { concurrency: 1 } };

describe('router: one run per input item, paired', () => {
	test('continueOnFail: the failing middle item becomes an error item paired with 1, the others go on', async () => {
		const input = [{ id: jobIds[0] }, { id: 'job_missing' }, { id: jobIds[1] }];
		const result = await fx.run(getJobById, { input, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json.id).toBe(jobIds[0]);
		expect(result.items[2].json.id).toBe(jobIds[1]);
		expect(result.items[1].json).toMatchObject({
			error: 'The job "job_missing" was not found',
			httpCode: '404',
		});
		expect(fx.sandbox.requests.map((r) => r.segments[3])).toEqual([jobIds[0], 'job_missing', jobIds[1]]);
	});

	test('continueOnFail: a validation error sends no request for that item', async () => {
		const input = [{ id: jobIds[0] }, { id: '' }, { id: jobIds[1] }];
		const result = await fx.run(getJobById, { input, continueOnFail: true });
		expect(result.items).toHaveLength(3);
		expect(result.items[1]).toEqual({ json: { error: 'Invalid "Job": a value is required' }, pairedItem: { item: 1 } });
		expect(fx.sandbox.requests).toHaveLength(2);
	});

	test('without continueOnFail the run stops at the failing item and the error carries its index', async () => {
		const input = [{ id: jobIds[0] }, { id: 'job_missing' }, { id: jobIds[1] }];
		const result = await fx.run(getJobById, { input });
		const error = errorOf(result);
		expect(error.message).toBe('The job "job_missing" was not found');
		expect(error.itemIndex).toBe(1);
		expect(result.items).toHaveLength(0);
		expect(fx.sandbox.requests).toHaveLength(2);
	});

	test('a validation error without continueOnFail carries the index of its item', async () => {
		const result = await fx.run(getJobById, { input: [{ id: jobIds[0] }, { id: jobIds[1] }, { id: '..' }] });
		const error = errorOf(result);
		expect(error.message).toContain('"Job"');
		expect(error.itemIndex).toBe(2);
		expect(fx.sandbox.requests).toHaveLength(2);
	});

	test('a list operation pairs every output item with the input item it came from', async () => {
		const result = await fx.run(
			{ resource: 'tag', operation: 'getMany', limit: '={{ $json.n }}' },
			{ input: [{ n: 2 }, { n: 3 }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
			{ item: 1 },
		]);
		expect(fx.sandbox.requests.map((r) => r.query.page_size)).toEqual(['2', '3']);
	});

	test('a resource and operation pair that does not exist is a clear error', async () => {
		const error = errorOf(await fx.run({ resource: 'tag', operation: 'delete' }));
		expect(error.message).toBe('The operation "delete" is not supported for the resource "tag"');
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});
