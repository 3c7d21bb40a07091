import { PARENT_STAGES } from '../../sandbox';
import {
	apiPath,
	errorOf,
	idsOf,
	jsonOf,
	listDirect,
	startRecruitingFixture,
	type RecruitingFixture,
} from './fixture';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture({ applications: 120, jobs: 4 });
});
afterAll(async () => await fx.close());
beforeEach(() => {
	fx.sandbox.setFaults([]);
	fx.sandbox.clearRequests();
});

const getMany = { resource: 'application', operation: 'getMany' };

describe('application getMany', () => {
	test('Limit: one request with page_size = Limit, first items in the service order', async () => {
		const all = await listDirect(fx.sandbox, ['applications']);
		const result = await fx.run({ ...getMany, limit: 30 });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
			{
				method: 'GET',
				path: apiPath(fx.sandbox, 'applications'),
				query: { page: '1', page_size: '30' },
				body: undefined,
			},
		]);
		expect(jsonOf(result)).toEqual(all.slice(0, 30));
	});

	test('every filter and the sort reach the service under their documented names', async () => {
		const [sample] = await listDirect(fx.sandbox, ['applications']);
		const candidateId = String((sample.candidate as { id: string }).id);
		const jobId = String((sample.job as { id: string }).id);
		const parentStage = String((sample.stage as { parent_stage: string }).parent_stage);
		const pipeline = String((fx.sandbox.get('jobs', jobId) as { custom_pipeline_id: string }).custom_pipeline_id);
		const query = {
			candidate_id: candidateId,
			job_id: jobId,
			parent_stage: parentStage,
			custom_pipeline_id: pipeline,
			sort: '-applied_at',
		};
		const expected = await listDirect(fx.sandbox, ['applications'], query);
		expect(expected.map((a) => a.id)).toContain(sample.id);

		const result = await fx.run({
			...getMany,
			returnAll: true,
			filters: { candidateId, jobId, parentStage, customPipelineId: pipeline },
			options: { sort: '-applied_at' },
		});
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests).toHaveLength(1);
		expect(fx.sandbox.requests[0].query).toEqual({ ...query, page: '1', page_size: '100' });
		expect(jsonOf(result)).toEqual(expected);
	});

	test.each(PARENT_STAGES)('parent stage filter %s returns only that stage', async (stage) => {
		const result = await fx.run({ ...getMany, returnAll: true, filters: { parentStage: stage } });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].query.parent_stage).toBe(stage);
		expect(jsonOf(result).every((a) => (a.stage as { parent_stage: string }).parent_stage === stage)).toBe(true);
		expect(idsOf(result)).toEqual(
			(await listDirect(fx.sandbox, ['applications'], { parent_stage: stage })).map((a) => a.id),
		);
	});

	test('sort ascending and descending are the same items in reverse order', async () => {
		const up = await fx.run({ ...getMany, returnAll: true, options: { sort: 'applied_at' } });
		const down = await fx.run({ ...getMany, returnAll: true, options: { sort: '-applied_at' } });
		expect(fx.sandbox.requests.map((r) => r.query.sort)).toEqual(['applied_at', 'applied_at', '-applied_at', '-applied_at']);
		expect(idsOf(up)).toHaveLength(120);
		expect(idsOf(down)).toEqual([...idsOf(up)].reverse());
	});

	test('a filter value with reserved characters stays one query value', async () => {
		const candidateId = 'can_a&b=c?d#e+f/ü%'; // no space: an ID with one is refused before the request
		const result = await fx.run({ ...getMany, limit: 5, filters: { candidateId } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(0);
		expect(fx.sandbox.requests[0].query).toEqual({ candidate_id: candidateId, page: '1', page_size: '5' });
	});

	test('additional query parameters are sent; paging names are reserved and modeled filters win', async () => {
		const result = await fx.run({
			...getMany,
			limit: 3,
			filters: { parentStage: 'new' },
			options: {
				additionalQuery: {
					parameter: [
						{ name: 'extra', value: 'x y' },
						{ name: 'page', value: '9' },
						{ name: 'page_size', value: '1' },
						{ name: 'parent_stage', value: 'hired' },
					],
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].query).toEqual({
			extra: 'x y',
			parent_stage: 'new',
			page: '1',
			page_size: '3',
		});
	});

	test.each([
		[{ filters: { candidateId: '' } }, 'Candidate'],
		[{ filters: { jobId: '   ' } }, 'Job'],
		[{ filters: { customPipelineId: '' } }, 'Custom Pipeline ID'],
		[{ filters: { parentStage: 'archived' } }, 'Parent Stage'],
		[{ options: { sort: 'name' } }, 'Sort'],
		[{ limit: 0 }, 'Limit'],
		[{ limit: -3 }, 'Limit'],
		[{ limit: 2.5 }, 'Limit'],
		[{ limit: '={{ "seven" }}' }, 'Limit'],
	])('%j is rejected before any request, naming %s', async (parameters, field) => {
		const result = await fx.run({ ...getMany, ...parameters });
		const error = errorOf(result);
		expect(error.message).toContain(`"${field}"`);
		expect(error.itemIndex).toBe(0);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('a server-only rejection (additional query values) surfaces title, detail and every field error', async () => {
		const result = await fx.run({
			...getMany,
			limit: 3,
			options: {
				additionalQuery: {
					parameter: [
						{ name: 'parent_stage', value: 'archived' },
						{ name: 'sort', value: 'name' },
					],
				},
			},
		});
		const error = errorOf(result);
		expect(fx.sandbox.requests).toHaveLength(1);
		expect(fx.sandbox.requests[0].status).toBe(400);
		expect(error.httpCode).toBe('400');
		expect(error.message).toContain('One or more validation errors occurred.');
		expect(error.description).toContain('The request is invalid; see errors for each field.');
		expect(error.description).toMatch(/^parent_stage: .+$/m);
		expect(error.description).toMatch(/^sort: .+$/m);
	});
});
