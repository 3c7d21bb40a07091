/**
 * The one in-flight walker (nodes/shared/transport/walker.ts) where its callers use it: a picker
 * search that fails leaves no request running; reads run in the read window by default and
 * writes one after another; a 429 narrows the window. In-flight counts are watched at the
 * sandbox (requests not yet answered), through n8n's engine over real HTTP.
 */
import type { IDataObject } from 'n8n-workflow';
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { READ_WINDOW } from '../../nodes/shared/transport';
import { startSandbox, type Sandbox } from '../../sandbox';
import { loadOptionsHarness, type LoadOptionsHarness } from '../harness';
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

describe('what runs at once, watched at the sandbox', () => {
	let fx: RecruitingFixture;
	let candidateIds: string[];
	beforeAll(async () => {
		fx = await startRecruitingFixture({ applications: 400, candidates: 120 });
		const applications = await listDirect(fx.sandbox, ['applications']);
		candidateIds = [...new Set(applications.map((a) => String((a.candidate as IDataObject).id)))].slice(0, 100);
	});
	afterAll(async () => await fx.close());
	beforeEach(() => {
		fx.sandbox.setFaults([]);
		fx.sandbox.clearRequests();
	});

	/** Samples, every millisecond while `run` lasts, how many requests are unanswered and how many arrived. */
	async function watch<T>(run: () => Promise<T>): Promise<{ result: T; samples: { arrived: number; unanswered: number }[] }> {
		const samples: { arrived: number; unanswered: number }[] = [];
		const timer = setInterval(() => {
			const requests = fx.sandbox.requests;
			samples.push({ arrived: requests.length, unanswered: requests.filter((r) => r.status === 0).length });
		}, 1);
		try {
			return { result: await run(), samples };
		} finally {
			clearInterval(timer);
		}
	}
	const slow = { kind: 'slow' as const, path: '/candidates', delayMs: 30, times: -1 };
	const getCandidates = (ids: string[]) =>
		fx.run({ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}' }, { input: ids.map((id) => ({ id })) });

	test('reads: Candidate Get runs its items in the read window by default, output in input order', async () => {
		fx.sandbox.setFaults([slow]);
		const { result, samples } = await watch(() => getCandidates(candidateIds));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(candidateIds);
		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual(candidateIds.map((_, i) => i));
		const most = Math.max(...samples.map((s) => s.unanswered));
		expect(most).toBeGreaterThan(READ_WINDOW / 2);
		expect(most).toBeLessThanOrEqual(READ_WINDOW);
	});

	test('writes: Candidate Update sends its items strictly one after another by default', async () => {
		fx.sandbox.setFaults([{ ...slow, delayMs: 10 }]);
		const ids = candidateIds.slice(0, 12);
		const { result, samples } = await watch(() =>
			fx.run(
				{ resource: 'candidate', operation: 'update', candidateId: '={{ $json.id }}', updateFields: { rating: 3 } },
				{ input: ids.map((id) => ({ id })) },
			),
		);
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests.map((r) => r.method)).toEqual(ids.map(() => 'PUT'));
		expect(Math.max(...samples.map((s) => s.unanswered))).toBe(1);
	});

	test('a 429 halves the window: once it is answered, no more than half the window is ever unanswered', async () => {
		// The first request answers 429 (Retry-After 0); every other one takes 30 ms.
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: '/candidates', times: 1, retryAfter: 0 }, slow]);
		const { result, samples } = await watch(() => getCandidates(candidateIds));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(candidateIds);
		expect(fx.sandbox.requests.filter((r) => r.status === 429)).toHaveLength(1);
		// The first window (and the 429's retry) went out before the 429 was seen; each start after it
		// waits until fewer than half the window are running.
		const afterFirstWindow = samples.filter((s) => s.arrived > READ_WINDOW + 1);
		expect(afterFirstWindow.length).toBeGreaterThan(10);
		expect(Math.max(...afterFirstWindow.map((s) => s.unanswered))).toBeLessThanOrEqual(READ_WINDOW / 2);
		expect(Math.max(...samples.map((s) => s.unanswered))).toBeGreaterThan(READ_WINDOW / 2);
	});

	test('a service that keeps answering 429: after the first window the requests go one at a time, and the run ends after the waits one request would make', async () => {
		// Found by review: each request in flight used to wait out its own Retry-After and all were
		// sent again together, five times: 64 × 6 = 384 requests in waves of 64.
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: '/candidates', times: -1, retryAfter: 1 }]);
		const { result, samples } = await watch(() => getCandidates(candidateIds));
		expect(result.error?.message).toMatch(/429|rate/i);
		const requests = fx.sandbox.requests;
		expect(requests.every((r) => r.status === 429)).toBe(true);
		// The first window, then one probe per round of Retry-After (5 waits, as for a lone request).
		expect(requests.length).toBeLessThanOrEqual(READ_WINDOW + 5);
		const afterFirstWindow = samples.filter((s) => s.arrived > READ_WINDOW);
		expect(Math.max(...afterFirstWindow.map((s) => s.unanswered))).toBeLessThanOrEqual(1);
	}, 30_000);

	test('a 429 with Retry-After 1 to a whole window: one probe after the wait, then the window again, all items in order', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: '/candidates', times: READ_WINDOW, retryAfter: 1 }, slow]);
		const { result, samples } = await watch(() => getCandidates(candidateIds));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(candidateIds);
		expect(fx.sandbox.requests.filter((r) => r.status === 429)).toHaveLength(READ_WINDOW);
		// The probe is the first request after the 429s, and it was alone.
		const atProbe = samples.find((s) => s.arrived === READ_WINDOW + 1);
		expect(atProbe?.unanswered).toBeLessThanOrEqual(1);
		// After the probe's answer the others are sent without another second's wait each.
		expect(fx.sandbox.requests.length).toBe(READ_WINDOW + candidateIds.length);
	}, 30_000);

	test('an item refused at once while its siblings are rate limited: the run fails on that item within the waits of one request', async () => {
		fx.sandbox.setFaults([
			{ kind: 'status', status: 400, path: '/candidates', times: 1 },
			{ kind: 'rate_limit', path: '/candidates', times: -1, retryAfter: 1 },
		]);
		const started = Date.now();
		const result = await getCandidates(candidateIds);
		expect((result.error as { context?: { itemIndex?: number } })?.context?.itemIndex).toBe(0);
		expect(result.error?.message).not.toMatch(/429/);
		// Used to be 379 requests and 5.7 s (63 siblings × 6 attempts in waves).
		expect(fx.sandbox.requests.length).toBeLessThanOrEqual(READ_WINDOW + 5);
		expect(Date.now() - started).toBeLessThan(15_000);
	}, 30_000);

	test('without a 429 the same run keeps the whole window busy after the first one', async () => {
		fx.sandbox.setFaults([slow]);
		const { samples } = await watch(() => getCandidates(candidateIds));
		const afterFirstWindow = samples.filter((s) => s.arrived > READ_WINDOW + 1);
		expect(Math.max(...afterFirstWindow.map((s) => s.unanswered))).toBeGreaterThan(READ_WINDOW / 2);
	});
});
