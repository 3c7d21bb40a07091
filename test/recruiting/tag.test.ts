import { apiPath, describeListContract, jsonOf, startRecruitingFixture, type RecruitingFixture } from './fixture';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture({ tags: 12 });
});
afterAll(async () => await fx.close());

test('smoke: tag getMany runs through the engine against the sandbox, with the bearer token', async () => {
	fx.sandbox.clearRequests();
	const result = await fx.run({ resource: 'tag', operation: 'getMany', limit: 3 });
	expect(result.error).toBeUndefined();
	expect(jsonOf(result)).toHaveLength(3);
	expect(jsonOf(result)[0]).toEqual({
		id: expect.any(String),
		name: expect.any(String),
		color: expect.any(String),
		type: expect.any(String),
		status: expect.any(String),
	});
	expect(fx.sandbox.requests).toHaveLength(1);
	expect(fx.sandbox.requests[0]).toMatchObject({
		method: 'GET',
		path: apiPath(fx.sandbox, 'tags'),
		query: { page: '1', page_size: '3' },
		status: 200,
	});
	expect(fx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${fx.sandbox.token}`);
});

describeListContract(() => fx, { resource: 'tag', segments: ['tags'], size: 12 });
