/**
 * Reliability, part: rate limits. The Recruiting node through n8n's engine, over real HTTP, against
 * the sandbox behind its token-bucket limiter (sandbox/rateLimit.ts: R requests a second, a burst of
 * B, 429 with Retry-After when the bucket is empty): the cases of issue 25, each with the node's
 * defaults (no Request Options) and a fresh credential (nothing learned before). Every item must come
 * back and no run may fail; how long it took and how much was refused is written to the report
 * (build/reliability/rateLimits.json). Speed against the ideal is the benchmark's to judge
 * (bench/rateLimited.js), not a timed test here; the exact pacing on a fake clock is in
 * sendRate.test.ts.
 */
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import type { RateLimitConfig } from '../../sandbox/rateLimit';
import { loadInFreshProcess, runNode } from '../harness';
import { failure, startNodeFixture, writeCounts, type NodeFixture } from './helpers';

const startedAt = Date.now();
const counts: Record<string, number> = { runs: 0, itemsLost: 0, failedRuns: 0, requestsRefused: 0, requestsSent: 0 };
const notes: string[] = [];
afterAll(() => writeCounts('rateLimits', counts, { startedAt, notes }));

const fixtures: NodeFixture[] = [];
afterAll(async () => {
	await Promise.all(fixtures.map(async (fx) => await fx.close()));
});

/** A sandbox of its own behind the limiter: its URL makes the credential, and so the send rate, new. */
async function limited(rateLimit: RateLimitConfig, seed: { applications?: number; candidates?: number }): Promise<NodeFixture> {
	const fx = await startNodeFixture({ seed: { jobs: 10, ...seed }, rateLimit });
	fixtures.push(fx);
	return fx;
}

function record(name: string, fx: NodeFixture, ms: number, items: number) {
	const { allowed, refused } = fx.sandbox.rateLimit();
	counts.runs++;
	counts.requestsRefused += refused;
	counts.requestsSent += allowed + refused;
	// Where the refusals fell, one character a request: '.' answered, 'R' refused.
	const statuses = fx.sandbox.requests.map((r) => (r.status === 429 || r.status === 503 ? 'R' : '.')).join('');
	const line = `${name}: ${items} items in ${(ms / 1000).toFixed(1)} s, ${refused} of ${allowed + refused} requests refused: ${statuses}`;
	notes.push(line);
	console.log(line);
}

describe.each([
	['10 req/s, burst 10', { rate: 10, burst: 10 }, 1000, 20_000],
	['2 req/s, burst 5', { rate: 2, burst: 5 }, 100, 5_000],
] as [string, RateLimitConfig, number, number][])('against %s, with the defaults', (label, rateLimit, gets, applications) => {
	test(`${gets} × Candidate → Get: every item, no failed run`, async () => {
		const fx = await limited(rateLimit, { applications: 50, candidates: 50 });
		const ids = await seededCandidateIds(fx);
		const input = Array.from({ length: gets }, (_, i) => ({ id: ids[i % ids.length] }));
		const t0 = Date.now();
		const result = await fx.run({ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}' }, { input });
		record(`${label}, ${gets} × Candidate Get`, fx, Date.now() - t0, result.items.length);
		if (result.error) counts.failedRuns++;
		expect(failure(result)).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(input.map((item) => item.id));
	}, 600_000);

	test(`Application → Get Many, Return All ${applications.toLocaleString('en')}: every item once, in order, no failed run`, async () => {
		const fx = await limited(rateLimit, { applications });
		const expected = fx.sandbox.rateLimit().settings ? await allApplicationIds(fx) : [];
		const t0 = Date.now();
		const result = await fx.run({ resource: 'application', operation: 'getMany', returnAll: true });
		record(`${label}, Return All ${applications}`, fx, Date.now() - t0, result.items.length);
		if (result.error) counts.failedRuns++;
		expect(failure(result)).toBeUndefined();
		const got = result.items.map((item) => String(item.json.id));
		counts.itemsLost += expected.filter((id) => !got.includes(id)).length;
		expect(got).toEqual(expected);
	}, 600_000);
});

// Issue 42: nginx's limit_req in front of the API (sandbox shape leaky: burst + 1 at once, then one
// per 1/rate; 503 with nginx's page and no Retry-After by default). In real n8n before, burst 2 with
// the 503 failed the run in 0.7 s. The ratio against the ideal is printed, not asserted.
describe.each([
	[0, 503],
	[2, 503],
	[0, 429],
	[2, 429],
] as [number, 503 | 429][])('behind nginx limit_req 5 r/s, burst %p, status %p, with the defaults', (burst, status) => {
	const rateLimit: RateLimitConfig = { rate: 5, burst, shape: 'leaky', status };
	const ratio = (fx: NodeFixture, ms: number) => {
		const ideal = (fx.sandbox.rateLimit().allowed - burst - 1) / 5;
		return `ideal ${ideal.toFixed(1)} s, ${(ms / 1000 / ideal).toFixed(2)}x`;
	};

	test('60 × Candidate → Get: every item, no failed run', async () => {
		const fx = await limited(rateLimit, { applications: 50, candidates: 50 });
		const ids = await seededCandidateIds(fx);
		const input = Array.from({ length: 60 }, (_, i) => ({ id: ids[i % ids.length] }));
		const t0 = Date.now();
		const result = await fx.run({ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}' }, { input });
		const ms = Date.now() - t0;
		record(`nginx 5 r/s burst ${burst} status ${status}, 60 × Candidate Get (${ratio(fx, ms)})`, fx, ms, result.items.length);
		if (result.error) counts.failedRuns++;
		expect(failure(result)).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(input.map((item) => item.id));
	}, 600_000);

	test('Application → Get Many, Return All 5,000: every item once, in order, no failed run', async () => {
		const fx = await limited(rateLimit, { applications: 5000 });
		const expected = await allApplicationIds(fx);
		const t0 = Date.now();
		const result = await fx.run({ resource: 'application', operation: 'getMany', returnAll: true });
		const ms = Date.now() - t0;
		record(`nginx 5 r/s burst ${burst} status ${status}, Return All 5000 (${ratio(fx, ms)})`, fx, ms, result.items.length);
		if (result.error) counts.failedRuns++;
		expect(failure(result)).toBeUndefined();
		expect(result.items.map((item) => String(item.json.id))).toEqual(expected);
	}, 600_000);
});

test('two workflows with the same credential at once against 10 req/s: both complete', async () => {
	const fx = await limited({ rate: 10, burst: 10 }, { applications: 3000, candidates: 50 });
	const ids = await seededCandidateIds(fx);
	const input = Array.from({ length: 150 }, (_, i) => ({ id: ids[i % ids.length] }));
	const t0 = Date.now();
	const [gets, list] = await Promise.all([
		fx.run({ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}' }, { input }),
		fx.run({ resource: 'application', operation: 'getMany', returnAll: true }),
	]);
	record('10 req/s, two runs at once (150 Candidate Get + Return All 3,000)', fx, Date.now() - t0, gets.items.length + list.items.length);
	expect(failure(gets)).toBeUndefined();
	expect(failure(list)).toBeUndefined();
	expect(gets.items).toHaveLength(150);
	expect(list.items).toHaveLength(3000);
}, 600_000);

// Two n8n processes on one credential (queue mode's workers, two instances): each loads the node
// afresh (its own module memory, so its own send rate), and both run at once against one limit.
describe.each([
	['Retry-After only', { rate: 10, burst: 10 }],
	['X-RateLimit-* (reset as an epoch time)', { rate: 10, burst: 10, info: 'x-ratelimit' }],
	['RateLimit and RateLimit-Policy', { rate: 10, burst: 10, info: 'ratelimit' }],
] as [string, RateLimitConfig][])('two processes on one credential against 10 req/s, %s', (label, rateLimit) => {
	test('150 × Candidate → Get each, at once: every item, no failed run', async () => {
		const fx = await limited(rateLimit, { applications: 50, candidates: 50 });
		const ids = await seededCandidateIds(fx);
		const input = Array.from({ length: 150 }, (_, i) => ({ id: ids[i % ids.length] }));
		const processes = [0, 1].map(() => loadInFreshProcess(() => require('../../nodes/Recruiting/Recruiting.node') as typeof import('../../nodes/Recruiting/Recruiting.node')));
		const t0 = Date.now();
		const results = await Promise.all(
			processes.map(async ({ Recruiting }) =>
				await runNode({
					nodeTypes: { recruiting: new Recruiting() },
					node: { type: 'recruiting', typeVersion: 1, parameters: { resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}' } },
					input,
					credentials: { recruitingApi: { ...fx.credentials } },
					credentialTypes: [new RecruitingApi()],
				}),
			),
		);
		record(`two processes, ${label}, 2 × 150 Candidate Get`, fx, Date.now() - t0, results.reduce((n, r) => n + r.items.length, 0));
		for (const result of results) {
			if (result.error) counts.failedRuns++;
			expect(failure(result)).toBeUndefined();
			expect(result.items.map((item) => item.json.id)).toEqual(input.map((item) => item.id));
		}
		// With headers a process that finds none left where it left some cuts its rate as at a refusal
		// (docs/rate-limits.md), so the processes do not each spend the allowance as their own.
		if (rateLimit.info) expect(fx.sandbox.rateLimit().refused).toBeLessThanOrEqual(0.05 * 300);
	}, 600_000);
});

test('Max Wait for Rate Limits 0: the first 429 fails the item, naming what the service asked and what to change', async () => {
	const fx = await limited({ rate: 1, burst: 2 }, { applications: 5, candidates: 5 });
	const ids = await seededCandidateIds(fx);
	const input = Array.from({ length: 6 }, (_, i) => ({ id: ids[i % ids.length] }));
	const result = await fx.run(
		{ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}', requestOptions: { maxRateLimitWait: 0, concurrency: 1 } },
		{ input },
	);
	const error = failure(result);
	expect(error?.message).toMatch(/^The service is rate limiting requests and asked to wait \d+ s more$/);
	expect(error?.description).toContain('2 of 6 items were done before this one.');
	expect(error?.description).toContain('Max Wait for Rate Limits is 0 (fail at the first 429)');
	expect(error?.description).toContain('Raise Request Options → Max Wait for Rate Limits');
	expect(fx.sandbox.rateLimit().refused).toBe(1);
});

/** The seeded candidates' IDs, read through the API before the limit counts (a reset empties the bucket's counts). */
async function seededCandidateIds(fx: NodeFixture): Promise<string[]> {
	const settings = fx.sandbox.rateLimit().settings;
	fx.sandbox.setRateLimit(undefined);
	const result = await fx.run({ resource: 'application', operation: 'getMany', returnAll: true, simplify: false });
	fx.sandbox.setRateLimit(settings);
	return [...new Set(result.items.map((item) => String(item.json.candidate_id ?? (item.json.candidate as { id?: string })?.id)))];
}

async function allApplicationIds(fx: NodeFixture): Promise<string[]> {
	const settings = fx.sandbox.rateLimit().settings;
	fx.sandbox.setRateLimit(undefined);
	const out: string[] = [];
	for (let page = 1; ; page++) {
		const response = await fetch(`${fx.sandbox.url}/v1.0/${fx.sandbox.companyId}/applications?page=${page}&page_size=100`, {
			headers: { authorization: `Bearer ${fx.sandbox.token}` },
		});
		const body = (await response.json()) as { items: { id: string }[]; meta: { has_next_page: boolean } };
		out.push(...body.items.map((item) => item.id));
		if (!body.meta.has_next_page) break;
	}
	fx.sandbox.setRateLimit(settings);
	return out;
}
