/**
 * The one in-flight walker (nodes/shared/transport/walker.ts) where its callers use it: a picker
 * search that fails leaves no request running; reads grow to the read window by default and
 * writes go one after another; a 429 halves the window. In-flight counts are the sandbox's own
 * (requests it was handling at once), through n8n's engine over real HTTP, except where a test
 * waits on nothing but time (what a 429 leaves of the pace): there the node's router runs on
 * Jest's fake clock, as the send rate's own tests do (test/reliability/sendRateBench.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { READ_WINDOW } from '../../nodes/shared/transport';
import { startSandbox, type Sandbox } from '../../sandbox';
import { loadOptionsHarness, type LoadOptionsHarness } from '../harness';
import { router } from '../../nodes/Recruiting/actions/router';
import { fakeContext, flush, settle, useFakeClock } from '../reliability/sendRateBench';
import { listDirect, startRecruitingFixture, type RecruitingFixture } from './fixture';

describe('picker search', () => {
	let sandbox: Sandbox;
	let picker: LoadOptionsHarness;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: { applications: 3000, jobs: 12, candidates: 200 } });
		picker = loadOptionsHarness(new Recruiting(), { resource: 'candidate', operation: 'get' }, {
			credentials: { recruitingApi: { baseUrl: sandbox.url, companyId: sandbox.companyId, accessToken: sandbox.token } },
			credentialTypes: [new RecruitingApi()],
		});
	});
	afterAll(async () => await sandbox.close());

	test('a failing page fails the call only once its sibling requests are answered: none arrives later', async () => {
		// Page 1 answers at once, page 2 fails at once (400: not retried), every later page takes 60 ms.
		sandbox.setFaults([
			{ kind: 'slow', path: '/applications', delayMs: 1, times: 1 },
			{ kind: 'status', path: '/applications', status: 400, times: 1 },
			{ kind: 'slow', path: '/applications', delayMs: 60, times: -1 },
		]);
		let atFailure = { arrived: -1, unanswered: -1 };
		await expect(
			picker.search('searchCandidates', 'nobody has this name').catch((error: Error) => {
				atFailure = { arrived: sandbox.requests.length, unanswered: sandbox.requests.filter((r) => r.status === 0).length };
				throw error;
			}),
		).rejects.toThrow();
		// Anything still on its way would arrive within the slow pages' 60 ms.
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(sandbox.requests[1].status).toBe(400);
		expect(sandbox.requests.length).toBeGreaterThan(3); // pages were in flight beside the failing one
		expect(sandbox.requests.length).toBe(atFailure.arrived);
		expect(atFailure.unanswered).toBe(0);
	});
});

describe('what runs at once, counted at the sandbox', () => {
	// A sandbox of its own for each test: the send rate lives per credential (its URL and token),
	// so what one test taught it (a 429's pace) does not carry into the next.
	let fx: RecruitingFixture;
	let candidateIds: string[];
	beforeEach(async () => {
		fx = await startRecruitingFixture({ applications: 400, candidates: 120 });
		const applications = await listDirect(fx.sandbox, ['applications']);
		candidateIds = [...new Set(applications.map((a) => String((a.candidate as IDataObject).id)))].slice(0, 100);
		fx.sandbox.clearRequests();
	});
	afterEach(async () => await fx.close());

	const slow = { kind: 'slow' as const, path: '/candidates', delayMs: 30, times: -1 };
	const getCandidates = (ids: string[], requestOptions: Record<string, number> = {}) =>
		fx.run(
			{ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}', requestOptions },
			{ input: ids.map((id) => ({ id })) },
		);

	test('reads: Candidate Get grows to the read window by default (the first request alone), output in input order', async () => {
		// 100 ms answers and 300 items: the window doubles each round and has rounds to spare.
		fx.sandbox.setFaults([{ ...slow, delayMs: 100 }]);
		const ids = [...candidateIds, ...candidateIds, ...candidateIds];
		const result = await getCandidates(ids);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(ids);
		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual(ids.map((_, i) => i));
		expect(fx.sandbox.requests[0].status).toBe(200);
		const { max } = fx.sandbox.inFlight();
		expect(max).toBeGreaterThan(READ_WINDOW / 2);
		expect(max).toBeLessThanOrEqual(READ_WINDOW);
	});

	test('writes: Candidate Update sends its items strictly one after another by default', async () => {
		fx.sandbox.setFaults([{ ...slow, delayMs: 10 }]);
		const ids = candidateIds.slice(0, 12);
		const result = await fx.run(
			{ resource: 'candidate', operation: 'update', candidateId: '={{ $json.id }}', updateFields: { rating: 3 } },
			{ input: ids.map((id) => ({ id })) },
		);
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests.map((r) => r.method)).toEqual(ids.map(() => 'PUT'));
		expect(fx.sandbox.inFlight().max).toBe(1);
	});

	test('a service that keeps answering 429 (Retry-After 1): one request at a time after the first refusals, and the run ends when its Max Wait is spent, saying so', async () => {
		// Found by review of the gate before: each request in flight waited out its own Retry-After and
		// all were sent again together: 64 × 6 = 384 requests in waves of 64.
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: '/candidates', times: -1, retryAfter: 1 }]);
		const result = await getCandidates(candidateIds, { maxRateLimitWait: 4 });
		// Retry-After 1, and 429s in a row back off beyond it: the wait named is the latest asked.
		expect(result.error?.message).toMatch(/^The service is rate limiting requests and asked to wait \d+ s more$/);
		const requests = fx.sandbox.requests;
		expect(requests.every((r) => r.status === 429)).toBe(true);
		// The first request alone, refused; then one a second while the 4 s last.
		expect(requests.length).toBeLessThanOrEqual(1 + 5);
		expect(fx.sandbox.inFlight().max).toBe(1);
	}, 30_000);

	test('an item refused at once (400) while its siblings wait out a 429: the run fails on that item, the waiting ones are not sent', async () => {
		fx.sandbox.setFaults([{ kind: 'slow', path: '/candidates', delayMs: 50, times: -1 }]);
		await getCandidates(candidateIds.slice(0, 8)); // the window opens
		fx.sandbox.clearRequests();
		fx.sandbox.setFaults([
			{ kind: 'rate_limit', path: '/candidates', times: 3, retryAfter: 2 },
			{ kind: 'status', status: 400, path: '/candidates', times: 1 },
			{ kind: 'slow', path: '/candidates', delayMs: 50, times: -1 },
		]);
		const result = await getCandidates(candidateIds);
		expect(result.error?.message).toContain('HTTP 400');
		// What was in flight when the 429s came, and nothing after the 400 (the pause's waiters were dropped).
		const after400 = fx.sandbox.requests.findIndex((r) => r.status === 400);
		expect(after400).toBeGreaterThan(-1);
		expect(fx.sandbox.requests.length).toBeLessThanOrEqual(READ_WINDOW);
	}, 30_000);
});

describe('what a 429 leaves, on the fake clock', () => {
	// What the send rate lets fly after a refusal is a matter of time only: what got through in the
	// second before it, the pace since, how long answers take. On a real clock a busy machine
	// stretches each of them; on the fake one they are what the test says.
	useFakeClock();

	/** Candidate Get of `ids` through the node's router; each request answered `latencyMs` after it was sent, the first `refusals` with 429 (Retry-After 0). */
	async function getCandidates(f: ReturnType<typeof fakeContext>, ids: string[], latencyMs: number, refusals = 0) {
		const params: Record<string, unknown> = { resource: 'candidate', operation: 'get' };
		const ctx = {
			...(f.ctx as object),
			getInputData: () => ids.map((id) => ({ json: { id } })),
			getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => (name === 'candidateId' ? ids[itemIndex] : name in params ? params[name] : fallback),
			continueOnFail: () => false,
		};
		const run = settle(router.call(ctx as never));
		let refused = 0;
		for (let step = 0; step < 100_000 && !run.done; step++) {
			for (const call of f.open()) {
				if (call.sentAt + latencyMs > Date.now()) continue;
				if (refused < refusals) {
					refused++;
					call.answer({ statusCode: 429, headers: { 'retry-after': '0' }, body: { title: 'Too many requests' } });
				} else call.answer({ statusCode: 200, body: { data: { id: call.path.split('/').pop() } } });
			}
			await flush(1);
		}
		expect(run.error).toBeUndefined();
		return (run.value as { json: IDataObject }[][])[0].map((item) => item.json.id);
	}

	test('a 429 halves the window: after it, at most half the read window at once', async () => {
		const f = fakeContext();
		const ids = Array.from({ length: 100 }, (_, i) => `can_${i}`);
		// 100 ms answers and 300 items: the window doubles each round and has rounds to spare.
		expect(await getCandidates(f, [...ids, ...ids, ...ids], 100)).toEqual([...ids, ...ids, ...ids]);
		const before = f.maxInFlight();
		// The next request answers 429 (Retry-After 0); every other one takes 30 ms.
		await getCandidates(f, ids.slice(0, 1), 30, 1);
		f.resetMax();
		expect(await getCandidates(f, ids, 30)).toEqual(ids);
		expect(before).toBeGreaterThan(READ_WINDOW / 2);
		// Half the window; one more while the request that was refused is sent again.
		expect(f.maxInFlight()).toBeLessThanOrEqual(READ_WINDOW / 2 + 1);
	});
});
