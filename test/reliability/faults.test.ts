/**
 * Reliability, part 1: faults. The Recruiting node through n8n's engine against the sandbox,
 * with faults injected into the service, counting what it matters to count:
 *
 * - faults injected (sandbox.faultHits() summed over every scenario),
 * - items lost (items missing from a list the node reported as complete),
 * - duplicate writes (a POST that reached the service more than once, or a record created twice).
 *
 * test/recruiting/transport.test.ts covers each fault kind once on 250 applications; this suite
 * covers the scale (2,345 applications, bursts of 429 across the walk), every write method,
 * timeouts (through the node's "Request Options → Timeout") and keeps the counts for the report.
 */
import type { RecordedRequest } from '../../sandbox';
import { listDirect } from '../recruiting/fixture';
import { failure, sleep, startNodeFixture, writeCounts, type NodeFixture } from './helpers';
import { seededIds, seededRecords } from './seeded';

const APPLICATIONS = 2345;
const SEED = { applications: APPLICATIONS, jobs: 10 };
const SMALL = { applications: 5, jobs: 4, candidates: 5 };
const startedAt = Date.now();
const counts = { faultsInjected: 0, itemsLost: 0, duplicateWrites: 0, scenarios: 0, requestsSeen: 0 };

/** The 2,345-application sandbox for the lists, a small one for single calls (it resets fast). */
let big: NodeFixture;
let small: NodeFixture;
/** The one the current describe block uses. */
let fx: NodeFixture;
let ids: ReturnType<typeof seededIds>;
let allApplications: string[];

beforeAll(async () => {
	big = await startNodeFixture({ seed: SEED });
	small = await startNodeFixture({ seed: SMALL });
	ids = seededIds(small.sandbox.companyId, SMALL);
	allApplications = (await listDirect(big.sandbox, ['applications'])).map((a) => String(a.id));
	expect(allApplications).toHaveLength(APPLICATIONS);
}, 60_000);
afterAll(async () => {
	writeCounts('faults', counts, { startedAt });
	await big?.close();
	await small?.close();
});
const useBig = () => beforeAll(() => (fx = big));
const useSmall = () => beforeAll(() => (fx = small));

/** Counts the hits of the rules now active, then clears them (setFaults resets hit counts). */
function harvestFaults(): void {
	counts.faultsInjected += fx.sandbox.faultHits().reduce((a, b) => a + b, 0);
	fx.sandbox.setFaults([]);
}

let scenarioOpen = false;
beforeEach(() => {
	// Each scenario from a fresh send rate: a pace learned from one scenario's injected 429s is no
	// measure of the next (the injected faults are no token bucket).
	fx.sandbox.rotateToken();
	fx.sandbox.setFaults([]);
	fx.sandbox.clearRequests();
	counts.scenarios++;
	scenarioOpen = true;
});
/** Counts the scenario's fault hits and requests once; runs before any reset of the sandbox. */
function closeScenario(): void {
	if (!scenarioOpen) return;
	scenarioOpen = false;
	harvestFaults();
	counts.requestsSeen += fx.sandbox.requests.length;
}
afterEach(closeScenario);

// One page at a time: the fault plans below arm faults by page order (`onPage`). The default
// (the read window) is covered by its own test below and in test/recruiting/concurrency.test.ts.
const returnAll = { resource: 'application', operation: 'getMany', returnAll: true, requestOptions: { pagesInFlight: 1 } };
const statuses = () => fx.sandbox.requests.map((r) => r.status);
const byMethod = (method: string) => fx.sandbox.requests.filter((r) => r.method === method);

/** Every id once, in the service's order; anything missing from a "complete" list counts as lost. */
function expectComplete(items: Array<{ json: { id?: unknown } }>, expected: string[]) {
	const got = items.map((item) => String(item.json.id));
	const unique = new Set(got);
	counts.itemsLost += expected.filter((id) => !unique.has(id)).length;
	expect(unique.size).toBe(got.length);
	expect(got).toEqual(expected);
}

/**
 * Sets fault rules when the n-th request for a page arrives: the sandbox records a request
 * (requests.push) before it looks for a fault, so the rule is in place for that very request.
 */
function onPage(plan: Map<string, () => Parameters<NodeFixture['sandbox']['setFaults']>[0]>) {
	const requests = fx.sandbox.requests;
	const push = requests.push;
	const armed = new Set<string>();
	requests.push = function (this: RecordedRequest[], ...recs: RecordedRequest[]) {
		for (const rec of recs) {
			const page = rec.query.page;
			if (page !== undefined && plan.has(page) && !armed.has(page)) {
				armed.add(page);
				harvestFaults();
				fx.sandbox.setFaults(plan.get(page)!());
			}
		}
		return push.apply(this, recs);
	};
	return () => {
		requests.push = push;
	};
}

describe(`Return All over ${APPLICATIONS} applications`, () => {
	useBig();
	test('bursts of 429 with Retry-After across the walk: every item exactly once, in order', async () => {
		const burst = (times: number, retryAfter = 0) => () => [
			{ kind: 'rate_limit' as const, path: '/applications', retryAfter, times },
		];
		// 24 pages of 100: bursts on the first, middle and last pages, one of them waits 1 s.
		const restore = onPage(
			new Map([
				['1', burst(3)],
				['6', burst(5)],
				['12', burst(2, 1)],
				['18', burst(4)],
				['24', burst(5)],
			]),
		);
		const started = Date.now();
		const result = await fx.run(returnAll);
		restore();
		expect(failure(result)).toBeUndefined();
		expectComplete(result.items, allApplications);
		expect(statuses().filter((s) => s === 429)).toHaveLength(3 + 5 + 2 + 4 + 5);
		expect(statuses().filter((s) => s === 200)).toHaveLength(24);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1900); // two waits of Retry-After: 1
		// 429s in a row back off (Retry-After 0 is no licence to hammer): up to 5 in a row take ~11 s.
	}, 120_000);

	test('with the default read window, 429s and 503s mixed in: every item exactly once, in order', async () => {
		fx.sandbox.setFaults([
			{ kind: 'rate_limit', path: '/applications', retryAfter: 0, times: 5 }, // the most one request waits out
			{ kind: 'status', status: 503, path: '/applications', times: 2 },
		]);
		const result = await fx.run({ resource: 'application', operation: 'getMany', returnAll: true });
		expect(failure(result)).toBeUndefined();
		expectComplete(result.items, allApplications);
		expect(statuses().filter((s) => s === 429)).toHaveLength(5);
		expect(statuses().filter((s) => s === 503)).toHaveLength(2);
		expect(statuses().filter((s) => s === 200)).toHaveLength(24);
	}, 120_000);

	test('a 5xx on some pages is retried: every item exactly once, in order', async () => {
		const restore = onPage(
			new Map([
				['3', () => [{ kind: 'status' as const, status: 503, path: '/applications', times: 2 }]],
				['20', () => [{ kind: 'status' as const, status: 500, path: '/applications', times: 1 }]],
			]),
		);
		const result = await fx.run(returnAll);
		restore();
		expectComplete(result.items, allApplications);
		expect(statuses().filter((s) => s >= 500)).toHaveLength(3);
	});

	test('a connection reset on a page is retried: every item exactly once, in order', async () => {
		const restore = onPage(new Map([['9', () => [{ kind: 'drop' as const, path: '/applications', times: 1 }]]]));
		const result = await fx.run(returnAll);
		restore();
		expectComplete(result.items, allApplications);
		expect(statuses().filter((s) => s === 0)).toHaveLength(1);
	});

	test('one empty page in the middle is asked for again: nothing lost', async () => {
		fx.sandbox.setFaults([{ kind: 'empty_page', path: '/applications', page: 13 }]);
		const result = await fx.run(returnAll);
		expectComplete(result.items, allApplications);
		expect(fx.sandbox.requests.map((r) => r.query.page).filter((p) => p === '13')).toHaveLength(2);
	});

	test.each([
		['endless has_next_page', [{ kind: 'endless_pages' as const, path: '/applications', times: -1 }]],
		['a page that repeats an earlier one', [{ kind: 'repeat_page' as const, path: '/applications', page: 17 }]],
		['a page that stays empty in the middle', [{ kind: 'empty_page' as const, path: '/applications', page: 8, times: -1 }]],
		['malformed JSON on a page', [{ kind: 'malformed_json' as const, path: '/applications', times: 1 }]],
	])('%s: a clear error, no partial list, and the walk stops', async (_, rules) => {
		fx.sandbox.setFaults(rules);
		const result = await fx.run(returnAll);
		const error = failure(result);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toMatch(/inconsistent list|malformed JSON/);
		expect(result.items).toHaveLength(0); // nothing half-delivered as if complete
		expect(fx.sandbox.requests.length).toBeLessThanOrEqual(26);
	});

	test('endless has_next_page from the last page on: stops there, at the page count the list announced', async () => {
		const restore = onPage(new Map([['24', () => [{ kind: 'endless_pages' as const, path: '/applications', times: -1 }]]]));
		const result = await fx.run(returnAll);
		restore();
		// The sandbox's endless page repeats page 1: the repeat guard or the page-count guard stops it.
		expect(failure(result)?.description).toMatch(/next page beyond the last one \(24\)|repeats an earlier page/);
		expect(result.items).toHaveLength(0);
		expect(fx.sandbox.requests).toHaveLength(24);
	});
});

/** Idempotent writes and reads: bounded retries, then a clear error; attempts counted from the log. */
describe('5xx and resets on GET, PUT and DELETE', () => {
	useSmall();
	const jobGet = () => ({ resource: 'job', operation: 'get', jobId: ids.jobs[0] });
	const candidateUpdate = () => ({
		resource: 'candidate',
		operation: 'update',
		candidateId: ids.candidates[0],
		updateFields: { title: 'Reliability engineer' },
	});
	const interviewCancel = () => ({ resource: 'interview', operation: 'cancel', interviewId: ids.interviews[0] });
	const jobDelete = () => ({ resource: 'job', operation: 'delete', jobId: ids.jobs[1] });
	const formDelete = () => ({ resource: 'applicationForm', operation: 'delete', formId: ids.applicationForms[0] });

	const cases: Array<[string, string, () => Record<string, unknown>, number]> = [
		['GET job', 'GET', jobGet, 200],
		['PUT candidate', 'PUT', candidateUpdate, 200],
		['PUT interview cancel', 'PUT', interviewCancel, 204],
		['DELETE job', 'DELETE', jobDelete, 204],
		['DELETE application form', 'DELETE', formDelete, 204],
	];

	afterEach(() => {
		closeScenario();
		fx.sandbox.reset(SMALL);
	});

	test.each(cases)('%s: a service that keeps failing with 502 is tried 3 times, then a clear error', async (_, method, params) => {
		fx.sandbox.setFaults([{ kind: 'status', status: 502, method, times: -1 }]);
		const result = await fx.run(params() as never);
		const error = failure(result);
		expect(statuses()).toEqual([502, 502, 502]);
		expect(error?.httpCode).toBe('502');
		expect(error?.message).toBe('Bad Gateway (HTTP 502), after 3 attempts');
	});

	test.each(cases)('%s: one 500 then success: applied once, 2 attempts', async (_, method, params, ok) => {
		fx.sandbox.setFaults([{ kind: 'status', status: 500, method, times: 1 }]);
		const result = await fx.run(params() as never);
		expect(failure(result)).toBeUndefined();
		expect(statuses()).toEqual([500, ok]);
		expect(result.items).toHaveLength(1);
	});

	test.each(cases)('%s: connection reset every time: 3 attempts, then a clear error', async (_, method, params) => {
		fx.sandbox.setFaults([{ kind: 'drop', method, times: -1 }]);
		const error = failure(await fx.run(params() as never));
		expect(statuses()).toEqual([0, 0, 0]);
		expect(error?.message).toBe('The Recruiting service could not be reached');
		expect(error?.description).toContain('(3 attempts)');
	});

	test.each(cases)('%s: malformed JSON in the answer: a clear error, not retried', async (_, method, params) => {
		fx.sandbox.setFaults([{ kind: 'malformed_json', method, times: -1 }]);
		const error = failure(await fx.run(params() as never));
		expect(fx.sandbox.requests).toHaveLength(1);
		expect(error?.message).toBe('The Recruiting service answered with malformed JSON');
	});
});

/** A POST is not idempotent: after a 5xx, a reset or a timeout it must reach the service exactly once. */
describe('faults on POST: exactly one request reaches the service', () => {
	useSmall();
	const [application] = seededRecords<{ id: string }>('cmp_demo', 'applications', SMALL);
	const posts: Array<[string, (marker: string) => Record<string, unknown>, 'jobs' | 'interviews']> = [
		['job create', (marker) => ({ resource: 'job', operation: 'create', title: marker }), 'jobs'],
		[
			'interview create',
			(marker) => ({
				resource: 'interview',
				operation: 'create',
				applicationId: { __rl: true, mode: 'id', value: application.id },
				type: 'online',
				start: '2031-03-04T09:00:00Z',
				end: '2031-03-04T10:00:00Z',
				timeZone: 'UTC',
				additionalFields: { title: marker },
			}),
			'interviews',
		],
	];

	/**
	 * Records the service created: POSTs it handled (201 in its log). A fault answered before the
	 * handler (503, reset) created nothing; a slow answer was handled after we stopped waiting.
	 */
	const handledPosts = () => byMethod('POST').filter((r) => r.status === 201).length;

	afterEach(() => {
		closeScenario();
		fx.sandbox.reset(SMALL);
	});

	test.each(posts)('%s: 503 → one request, a clear error that says it may have taken effect', async (name, params) => {
		fx.sandbox.setFaults([{ kind: 'status', status: 503, method: 'POST', times: -1 }]);
		const error = failure(await fx.run(params(`503 ${name}`) as never));
		const sent = byMethod('POST');
		counts.duplicateWrites += Math.max(0, sent.length - 1) + handledPosts();
		expect(sent).toHaveLength(1);
		expect(handledPosts()).toBe(0);
		expect(error?.httpCode).toBe('503');
		expect(error?.description).toContain('A POST is not retried automatically');
	});

	test.each(posts)('%s: connection reset → one request, a clear error', async (name, params) => {
		fx.sandbox.setFaults([{ kind: 'drop', method: 'POST', times: -1 }]);
		const error = failure(await fx.run(params(`reset ${name}`) as never));
		const sent = byMethod('POST');
		counts.duplicateWrites += Math.max(0, sent.length - 1) + handledPosts();
		expect(sent).toHaveLength(1);
		expect(handledPosts()).toBe(0);
		expect(error?.message).toBe('The Recruiting service could not be reached');
	});

	test.each(posts)('%s: 429 is waited out and the record is created exactly once', async (name, params, collection) => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', method: 'POST', retryAfter: 0, times: 2 }]);
		const marker = `429 ${name}`;
		const result = await fx.run(params(marker) as never);
		expect(failure(result)).toBeUndefined();
		expect(byMethod('POST').map((r) => r.status)).toEqual([429, 429, 201]);
		const made = handledPosts();
		counts.duplicateWrites += Math.max(0, made - 1);
		expect(made).toBe(1);
		const record = fx.sandbox.get(collection, String(result.items[0].json.id)) as
			| { title?: string; event?: { title?: string } }
			| undefined;
		expect(record?.title ?? record?.event?.title).toBe(marker);
	});

	test.each(posts)(
		'%s: the service answers after the timeout (it did create): one request, a clear timeout error, one record',
		async (name, params) => {
			const marker = `slow ${name}`;
			// An answer 10 × the Timeout away: a loaded machine cannot make the client look as if it waited for it.
			fx.sandbox.setFaults([{ kind: 'slow', method: 'POST', delayMs: 3000, times: -1 }]);
			const result = await fx.run({ ...params(marker), requestOptions: { timeout: 300 } } as never);
			// Given up before the answer: the service is still working on it (no wall-clock bound).
			expect(fx.sandbox.inFlight().now).toBe(1);
			const error = failure(result);
			expect(error?.message).toBe('The Recruiting service did not answer in time');
			// Let the late handling finish, then count what the service created.
			await sleep(3200);
			const sent = byMethod('POST');
			counts.duplicateWrites += Math.max(0, handledPosts() - 1);
			expect(sent).toHaveLength(1);
			expect(handledPosts()).toBe(1); // it did take effect, once: the error says so
		},
	);
});

describe('a response slower than the timeout', () => {
	useBig();
	test('GET: 3 attempts of Timeout each, then a clear error, within a bounded time', async () => {
		fx.sandbox.setFaults([{ kind: 'slow', method: 'GET', delayMs: 1500, times: -1 }]);
		const result = await fx.run({
			resource: 'job',
			operation: 'get',
			jobId: ids.jobs[0],
			requestOptions: { timeout: 300 },
		});
		// Each attempt given up before its answer: the last one is still being answered.
		const stillAnswering = fx.sandbox.inFlight().now;
		const error = failure(result);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The Recruiting service did not answer in time');
		expect(error?.description).toContain('(3 attempts)');
		expect(fx.sandbox.requests).toHaveLength(3);
		// 3 attempts of 300 ms and back-offs of at most 250 + 500 ms: not one slow answer was awaited.
		expect(stillAnswering).toBeGreaterThanOrEqual(1);
		await sleep(1500); // let the sandbox finish the abandoned answers before the next test
	});

	test('Return All: a slow page times out, is retried and the list is still complete', async () => {
		const restore = onPage(new Map([['5', () => [{ kind: 'slow' as const, path: '/applications', delayMs: 1500, times: 1 }]]]));
		const result = await fx.run({ ...returnAll, requestOptions: { timeout: 500 } });
		restore();
		expect(failure(result)).toBeUndefined();
		expectComplete(result.items, allApplications);
		await sleep(1000);
	});

	test('an invalid Timeout is refused before any request (the default and the override at work: sendRate.test.ts)', async () => {
		const error = failure(
			await fx.run({ resource: 'job', operation: 'get', jobId: ids.jobs[0], requestOptions: { timeout: 0 } }),
		);
		expect(error?.message).toBe('Invalid "Timeout": must be a number of milliseconds of at least 1');
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});
