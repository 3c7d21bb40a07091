/**
 * The shared transport, exercised through the node and n8n's engine against the sandbox:
 * paging (Return All and Limit), rate limits, retries, broken answers, broken paging,
 * authentication failures and percent-encoding of ids.
 */
import { NodeOperationError } from 'n8n-workflow';
import { pageSizeFor } from '../../nodes/shared/transport';
import {
	apiPath,
	errorOf,
	idsOf,
	listDirect,
	startRecruitingFixture,
	type RecruitingFixture,
} from './fixture';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture({ applications: 250 });
});
afterAll(async () => await fx.close());

const applications = { resource: 'application', operation: 'getMany' };
/** Pins the walk to one page at a time, for tests that assert the exact request sequence. */
const oneByOne = { requestOptions: { pagesInFlight: 1 } };
const statuses = () => fx.sandbox.requests.map((r) => r.status);
const pages = () => fx.sandbox.requests.map((r) => [r.query.page, r.query.page_size]);
const directIds = async () => (await listDirect(fx.sandbox, ['applications'])).map((a) => String(a.id));

function expectEachOnceInOrder(actual: string[], expected: string[]) {
	expect(new Set(actual).size).toBe(actual.length);
	expect(actual).toEqual(expected);
}

describe.each([0, 1, 100, 101, 2345])('paging over %i applications', (size) => {
	let expected: string[];
	beforeAll(async () => {
		fx.sandbox.reset({ applications: size });
		expected = await directIds();
		expect(expected).toHaveLength(size);
	});
	beforeEach(() => fx.sandbox.clearRequests());

	test('Return All: every id once, in order, in ⌈N/100⌉ requests of page_size 100', async () => {
		const result = await fx.run({ ...applications, returnAll: true });
		expect(result.error).toBeUndefined();
		expectEachOnceInOrder(idsOf(result), expected);
		const requests = Math.max(1, Math.ceil(size / 100));
		expect(pages()).toEqual(Array.from({ length: requests }, (_, i) => [String(i + 1), '100']));
	});

	test.each([1, 7, 100, 101, 150])('Limit %i: the first items, in the fewest even pages', async (limit) => {
		const result = await fx.run({ ...applications, limit });
		expect(result.error).toBeUndefined();
		expectEachOnceInOrder(idsOf(result), expected.slice(0, limit));
		const pageSize = pageSizeFor(limit);
		const requests = Math.max(1, Math.min(Math.ceil(limit / pageSize), Math.ceil(size / pageSize)));
		expect(pages()).toEqual(Array.from({ length: requests }, (_, i) => [String(i + 1), String(pageSize)]));
	});
});

test('page sizes: Limit 7 is one page of 7, Limit 150 two pages of 75, Return All pages of 100', () => {
	expect([pageSizeFor(7), pageSizeFor(150), pageSizeFor(100), pageSizeFor(101), pageSizeFor(undefined)]).toEqual([
		7, 75, 100, 51, 100,
	]);
});

describe('faults', () => {
	let all: string[];
	let jobId: string;
	beforeAll(async () => {
		fx.sandbox.reset({ applications: 250 });
		all = await directIds();
		const [application] = await listDirect(fx.sandbox, ['applications'], { page_size: '1' });
		jobId = String((application.job as { id: string }).id);
	});
	beforeEach(() => {
		fx.sandbox.setFaults([]);
		fx.sandbox.clearRequests();
	});

	test('429 with Retry-After is waited out and every item still arrives exactly once', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: '/applications', retryAfter: 1 }]);
		const started = Date.now();
		const result = await fx.run({ ...applications, returnAll: true });
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expectEachOnceInOrder(idsOf(result), all);
		expect(statuses()).toEqual([429, 200, 200, 200]);
		expect(pages().map(([page]) => page)).toEqual(['1', '1', '2', '3']);
	});

	test('several 429s in a row (Retry-After 0) are all waited out', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: '/applications', retryAfter: 0, times: 3 }]);
		const result = await fx.run({ ...applications, returnAll: true });
		expectEachOnceInOrder(idsOf(result), all);
		expect(statuses()).toEqual([429, 429, 429, 200, 200, 200]);
	});

	test('a service that never stops answering 429, even with Retry-After 0: backs off, and the run ends when its Max Wait is spent', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', retryAfter: 0, times: -1 }]);
		const error = errorOf(await fx.run({ resource: 'job', operation: 'get', jobId, requestOptions: { maxRateLimitWait: 3 } }));
		expect(error.message).toMatch(/^The service is rate limiting requests and asked to wait \d+ s more$/);
		expect(error.httpCode).toBe('429');
		// At once (Retry-After 0), then back-offs of 0.5-1 s, 1-2 s, 2-4 s…: 3 s of waiting leave room for a few.
		expect(fx.sandbox.requests.length).toBeGreaterThanOrEqual(3);
		expect(fx.sandbox.requests.length).toBeLessThanOrEqual(5);
	});

	test('a 5xx on a GET page is retried and every item still arrives exactly once', async () => {
		fx.sandbox.setFaults([{ kind: 'status', status: 502, path: '/applications' }]);
		const result = await fx.run({ ...applications, returnAll: true });
		expectEachOnceInOrder(idsOf(result), all);
		expect(statuses()).toEqual([502, 200, 200, 200]);
	});

	test('a GET that keeps failing with 5xx stops after 3 attempts with a clear error', async () => {
		fx.sandbox.setFaults([{ kind: 'status', status: 500, times: -1 }]);
		const error = errorOf(await fx.run({ resource: 'job', operation: 'get', jobId }));
		expect(statuses()).toEqual([500, 500, 500]);
		expect(error.httpCode).toBe('500');
		expect(error.message).toBe('Internal Server Error (HTTP 500), after 3 attempts');
		expect(error.description).toContain('Injected fault');
	});

	test.each([1, -1])('a 5xx on POST (job create, times %i) reaches the server exactly once: no blind retry', async (times) => {
		fx.sandbox.setFaults([{ kind: 'status', status: 503, method: 'POST', times }]);
		const error = errorOf(await fx.run({ resource: 'job', operation: 'create', title: 'Once only' }));
		expect(fx.sandbox.requests.map((r) => [r.method, r.status])).toEqual([['POST', 503]]);
		expect(error.httpCode).toBe('503');
		expect(error.message).toBe('Service Unavailable (HTTP 503)');
		expect(error.description).toContain('A POST is not retried automatically');
	});

	test('a dropped connection on a GET is retried', async () => {
		fx.sandbox.setFaults([{ kind: 'drop', method: 'GET', path: '/jobs/' }]);
		const result = await fx.run({ resource: 'job', operation: 'get', jobId });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.id).toBe(jobId);
		expect(statuses()).toEqual([0, 200]);
	});

	test('a dropped connection on a POST is not retried and is a clear error', async () => {
		fx.sandbox.setFaults([{ kind: 'drop', method: 'POST' }]);
		const error = errorOf(await fx.run({ resource: 'job', operation: 'create', title: 'Dropped' }));
		expect(fx.sandbox.requests).toHaveLength(1);
		expect(error.message).toBe('The Recruiting service could not be reached');
		expect(error.description).toMatch(/^POST \/jobs: /);
	});

	test('a GET whose connection keeps dropping stops after 3 attempts with a clear error', async () => {
		fx.sandbox.setFaults([{ kind: 'drop', times: -1 }]);
		const error = errorOf(await fx.run({ resource: 'job', operation: 'get', jobId }));
		expect(statuses()).toEqual([0, 0, 0]);
		expect(error.message).toBe('The Recruiting service could not be reached');
		expect(error.description).toContain('(3 attempts)');
	});

	test('malformed JSON from a GET is a clear error', async () => {
		fx.sandbox.setFaults([{ kind: 'malformed_json', path: '/jobs/' }]);
		const error = errorOf(await fx.run({ resource: 'job', operation: 'get', jobId }));
		expect(error.message).toBe('The Recruiting service answered with malformed JSON');
		expect(fx.sandbox.requests).toHaveLength(1);
	});

	test('malformed JSON on a list page is a clear error', async () => {
		fx.sandbox.setFaults([{ kind: 'malformed_json', path: '/applications' }]);
		const error = errorOf(await fx.run({ ...applications, returnAll: true }));
		expect(error.message).toBe('The Recruiting service answered with malformed JSON');
	});

	test('endless pages: a clear error, not a loop', async () => {
		fx.sandbox.setFaults([{ kind: 'endless_pages', path: '/applications', times: -1 }]);
		const result = await fx.run({ ...applications, returnAll: true });
		expect(errorOf(result).message).toBe('The Recruiting service returned an inconsistent list');
		expect(result.items).toHaveLength(0);
		expect(fx.sandbox.requests.length).toBeLessThanOrEqual(4);
	});

	test('endless pages over an empty list: a clear error, not a loop', async () => {
		fx.sandbox.reset({ applications: 0 });
		fx.sandbox.setFaults([{ kind: 'endless_pages', path: '/applications', times: -1 }]);
		const result = await fx.run({ ...applications, returnAll: true });
		fx.sandbox.reset({ applications: 250 });
		expect(errorOf(result).message).toBe('The Recruiting service returned an inconsistent list');
	});

	test('a repeated page: a clear error, never duplicates', async () => {
		fx.sandbox.setFaults([{ kind: 'repeat_page', path: '/applications', page: 2 }]);
		const result = await fx.run({ ...applications, returnAll: true, ...oneByOne });
		expect(errorOf(result).description).toMatch(/repeats an earlier page/);
		expect(result.items).toHaveLength(0);
		expect(fx.sandbox.requests).toHaveLength(2);
	});

	test('a list that shifts between pages (an item inserted in front): a clear error, never a duplicate', async () => {
		// Both pages wait 300 ms in the sandbox; the insert lands while page 2 waits.
		fx.sandbox.setFaults([{ kind: 'slow', path: '/applications', delayMs: 300, times: 2 }]);
		const running = fx.run({ ...applications, returnAll: true });
		while (fx.sandbox.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
		const [first] = await listDirect(fx.sandbox, ['applications'], { page_size: '1' });
		fx.sandbox.put('applications', { ...first, id: 'app_inserted_first', applied_at: '2000-01-01T00:00:00Z' });
		const result = await running;
		fx.sandbox.reset({ applications: 250 });
		const error = errorOf(result);
		expect(error.description).toContain(`repeats an earlier page (item "${all[99]}")`);
		expect(result.items).toHaveLength(0);
	});

	test('one empty page in the middle is fetched again and nothing is lost', async () => {
		fx.sandbox.setFaults([{ kind: 'empty_page', path: '/applications', page: 2 }]);
		const result = await fx.run({ ...applications, returnAll: true, ...oneByOne });
		expectEachOnceInOrder(idsOf(result), all);
		expect(pages().map(([page]) => page)).toEqual(['1', '2', '2', '3']);
	});

	test('a page that stays empty in the middle: a clear error', async () => {
		fx.sandbox.setFaults([{ kind: 'empty_page', path: '/applications', page: 2, times: -1 }]);
		const result = await fx.run({ ...applications, returnAll: true, ...oneByOne });
		expect(errorOf(result).message).toBe('The Recruiting service returned an inconsistent list');
		expect(fx.sandbox.requests).toHaveLength(3);
	});

	test.each([
		['the last page of applications', '/applications', 3, applications],
		['the only page of tags', '/tags', 1, { resource: 'tag', operation: 'getMany' }],
	])('an empty page that ends the list while items are missing (%s): a clear error', async (_, path, page, parameters) => {
		fx.sandbox.setFaults([{ kind: 'empty_page', path, page, times: -1 }]);
		const result = await fx.run({ ...parameters, returnAll: true });
		const error = errorOf(result);
		expect(error.message).toBe('The Recruiting service returned an inconsistent list');
		expect(error.description).toMatch(/the list ended after \d+ items but says it holds \d+/);
		expect(result.items).toHaveLength(0);
	});

	test.each([
		['access token', { accessToken: 'wrong-token' }],
		['company ID', { companyId: 'cmp_other' }],
	])('a wrong %s is a 401 whose message says the token or company ID is wrong', async (_, credentials) => {
		const result = await fx.run({ resource: 'job', operation: 'get', jobId }, { credentials });
		const error = errorOf(result);
		expect(error.httpCode).toBe('401');
		expect(error.message).toBe('Authorization failed: check the access token and the company ID of the credential');
		expect(fx.sandbox.requests).toHaveLength(1);
	});

	describe('ids with reserved characters reach exactly one path segment', () => {
		test.each(['a/b', 'a?b=c', 'a#b', '100%', '%2F', 'a+b', 'ünïcødé✓日本', '...', 'a/../b', './x'])(
			'job id %j',
			async (id) => {
				fx.sandbox.put('jobs', { ...fx.sandbox.get('jobs', jobId), id });
				const result = await fx.run({ resource: 'job', operation: 'get', jobId: id });
				expect(result.error).toBeUndefined();
				expect(result.items[0].json.id).toBe(id);
				expect(fx.sandbox.requests).toHaveLength(1);
				expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'jobs', id]);
				expect(fx.sandbox.requests[0].path).toBe(apiPath(fx.sandbox, 'jobs', id));
			},
		);

		test.each(['..', '.'])('%j is rejected client-side', async (id) => {
			const error = errorOf(await fx.run({ resource: 'job', operation: 'get', jobId: id }));
			expect(error.message).toBe('Invalid "Job": "." and ".." are not valid IDs');
			expect(fx.sandbox.requests).toHaveLength(0);
		});

		test.each([
			['a space', 'job 1', '"job 1"'],
			['a tab', 'job\t1', '"job\t1"'],
			['a line break', 'job_1\njob_2', '"job_1\njob_2"'],
			['a no-break space', 'job\u00a01', '"job\u00a01"'],
		])('an ID with %s inside is refused before any request, naming the field', async (_what, id, quotedId) => {
			const result = await fx.run({ resource: 'job', operation: 'get', jobId: id });
			expect(result.error).toBeInstanceOf(NodeOperationError);
			expect(errorOf(result).message).toBe(
				`Invalid "Job": ${quotedId} contains a space or line break, and IDs have none: check what was typed or mapped into this field`,
			);
			expect(fx.sandbox.requests).toHaveLength(0);
		});

		test('spaces around an ID are dropped: the ID reaches its path segment as the service knows it', async () => {
			const result = await fx.run({ resource: 'job', operation: 'get', jobId: `  ${jobId}\n` });
			expect(result.error).toBeUndefined();
			expect(fx.sandbox.requests.map((r) => r.segments)).toEqual([['v1.0', fx.sandbox.companyId, 'jobs', jobId]]);
		});
	});
});
