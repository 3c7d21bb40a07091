/**
 * The credential's send rate (nodes/shared/transport/sendRate.ts) through the real
 * recruitingRequest, on a fake clock, with a stand-in for n8n's HTTP helper: answered by hand, or
 * by the sandbox's own token bucket (sandbox/rateLimit.ts) on the fake clock, so that time, order
 * and counts are exact and no wall-clock bound is asserted. The same limits over real HTTP through
 * n8n's engine are in rateLimits.test.ts.
 */
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { DEFAULT_POLICY } from '../../nodes/shared/transport/policy';
import { recruitingRequest } from '../../nodes/shared/transport/request';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_MS, runOf, startRun } from '../../nodes/shared/transport/state';
import { RateLimiter, type RateLimitConfig } from '../../sandbox/rateLimit';
import { testNode } from '../harness/testNode';

/** Each test its own credential: the send rate lives per credential for the process's life. */
let credentialNo = 0;

type Answer = { statusCode: number; headers?: Record<string, string>; body?: unknown } | Error;
interface Call {
	n: number;
	method: string;
	path: string;
	sentAt: number;
	/** The attempt's Timeout, as handed to n8n's helper. */
	timeout: number;
	answer(a: Answer): void;
	done: boolean;
}

function fakeContext(token = `t${++credentialNo}`) {
	const calls: Call[] = [];
	let inFlight = 0;
	let maxInFlight = 0;
	const ctx = {
		getNode: () => testNode({ name: 'R', type: 'recruiting' }),
		getCredentials: async () => ({ baseUrl: 'https://svc.test', companyId: 'c1', accessToken: token }),
		helpers: {
			httpRequestWithAuthentication(_type: string, options: { method: string; url: string; timeout: number }) {
				return new Promise((resolve, reject) => {
					inFlight++;
					maxInFlight = Math.max(maxInFlight, inFlight);
					const call: Call = {
						n: calls.length,
						method: options.method,
						path: options.url.replace('https://svc.test/v1.0/c1', ''),
						sentAt: Date.now(),
						timeout: options.timeout,
						done: false,
						answer(a) {
							if (call.done) return;
							call.done = true;
							inFlight--;
							if (a instanceof Error) reject(a);
							else resolve({ headers: {}, body: {}, ...a });
						},
					};
					calls.push(call);
				});
			},
		},
	};
	return {
		ctx: ctx as never,
		calls,
		open: () => calls.filter((c) => !c.done),
		maxInFlight: () => maxInFlight,
		resetMax: () => (maxInFlight = inFlight),
		/** Another execution context (another run) with the same credential. */
		sibling: () => ({ ...ctx }) as never,
	};
}

/**
 * A service behind the sandbox's token bucket on the fake clock: every call is answered after
 * `rttMs`, refused (429 with its headers) or 200.
 */
function limitedService(config: RateLimitConfig, rttMs = 20) {
	const f = fakeContext();
	const limiter = new RateLimiter(() => Date.now());
	limiter.set(config);
	let answered = 0;
	const refusedAt: string[] = [];
	const pump = async () => {
		for (const call of f.open()) {
			if ((call as Call & { at?: number }).at === undefined) {
				const admission = limiter.admit('token');
				(call as Call & { at?: number; admission?: unknown }).at = Date.now() + rttMs;
				(call as Call & { admission?: unknown }).admission = admission;
			}
		}
		for (const call of f.open() as (Call & { at: number; admission: ReturnType<RateLimiter['admit']> })[]) {
			if (call.at <= Date.now()) {
				answered++;
				if (!call.admission.allowed) refusedAt.push(((Date.now() - T0) / 1000).toFixed(2));
				call.answer(call.admission.allowed ? { statusCode: 200, headers: call.admission.headers, body: { data: { n: call.n } } } : { statusCode: 429, headers: call.admission.headers, body: { title: 'Too many requests' } });
			}
		}
	};
	return { ...f, limiter, pump, answered: () => answered, refusedAt };
}

/** Runs `count` GETs through one run of `ctx` (items in flight: `window`) until all are done, on the fake clock. */
async function runGets(service: ReturnType<typeof limitedService>, count: number, window = 64, maxWaitMs?: number) {
	startRun(service.ctx, { itemsInFlight: window, maxRateLimitWaitMs: maxWaitMs });
	const started = Date.now();
	const results = Array.from({ length: count }, (_, i) => settle(recruitingRequest.call(service.ctx, { method: 'GET', path: `/c${i}` })));
	for (let step = 0; step < 2_000_000 && !results.every((r) => r.done); step++) {
		await service.pump();
		await flush(5);
	}
	return { results, seconds: (Date.now() - started) / 1000, stats: service.limiter.stats() };
}

const r429 = (s: number): Answer => ({ statusCode: 429, headers: { 'retry-after': String(s) }, body: { title: 'slow' } });
const ok: Answer = { statusCode: 200, body: { data: { ok: 1 } } };
const flush = async (ms = 0) => {
	await jest.advanceTimersByTimeAsync(ms);
};
const settle = <T>(p: Promise<T>) => {
	const s = { done: false, value: undefined as unknown, error: undefined as unknown };
	p.then(
		(v) => ((s.done = true), (s.value = v)),
		(e) => ((s.done = true), (s.error = e)),
	);
	return s;
};

/** A real-looking time: X-RateLimit-Reset as an epoch second must read as one. */
const T0 = Date.parse('2026-11-24T12:00:00Z');
beforeEach(() => jest.useFakeTimers({ now: T0 }));
afterEach(() => jest.useRealTimers());
const at = (call: Call) => (call.sentAt - T0) / 1000;


test('a lone GET against endless 429s (Retry-After 1) waits them out, backing off, until the run\'s budget, then says what the service asked', async () => {
	const f = fakeContext();
	startRun(f.ctx, { maxRateLimitWaitMs: 10_000 });
	const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	for (let i = 0; i < 40 && !s.done; i++) {
		await flush();
		f.open().forEach((c) => c.answer(r429(1)));
		await flush(1000);
	}
	await flush();
	// Never sooner than Retry-After; 429s in a row with nothing answered between back off (1, 2, 4 s…
	// jittered), so the 10 s allow a few attempts, not one a second.
	const times = f.calls.map(at);
	const gaps = times.slice(1).map((t, i) => t - times[i]);
	expect(times[0]).toBe(0);
	expect(gaps.every((gap) => gap >= 1)).toBe(true);
	expect(times.length).toBeGreaterThanOrEqual(3);
	expect(times.length).toBeLessThanOrEqual(6);
	expect(times[times.length - 1]).toBeLessThanOrEqual(10);
	const error = s.error as { message: string; description: string; context: { rateLimitWaitSeconds: number } };
	expect(error.message).toMatch(/^The service is rate limiting requests and asked to wait \d+ s more$/);
	expect(error.description).toMatch(/this run may wait 10 s in all \(Max Wait for Rate Limits\) and has waited \d+ s/);
	expect(error.context.rateLimitWaitSeconds).toBeGreaterThanOrEqual(1);
});

describe('one source for each default (issue 27, item 2)', () => {
	const requestOption = (name: string) =>
		(new Recruiting().description.properties.find((p) => p.name === 'requestOptions')?.options as { name: string; default: unknown }[]).find(
			(o) => o.name === name,
		)?.default;

	test('the editor shows the transport\'s defaults: Timeout 30,000 ms, Max Wait for Rate Limits 300 s', () => {
		expect(requestOption('timeout')).toBe(DEFAULT_POLICY.timeoutMs);
		expect(Number(requestOption('maxRateLimitWait')) * 1000).toBe(DEFAULT_MAX_RATE_LIMIT_WAIT_MS);
	});

	test('a request without a Timeout set goes with the policy\'s; an item\'s Timeout overrides it', async () => {
		const f = fakeContext();
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/default', itemIndex: 0 }));
		await flush();
		f.open()[0].answer(ok);
		startRun(f.ctx, { items: { timeoutMs: (itemIndex) => (itemIndex === 1 ? 1234 : undefined) } });
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/item0', itemIndex: 0 }));
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/item1', itemIndex: 1 }));
		await flush();
		expect(f.calls.map((c) => [c.path, c.timeout])).toEqual([
			['/default', DEFAULT_POLICY.timeoutMs],
			['/item0', DEFAULT_POLICY.timeoutMs],
			['/item1', 1234],
		]);
	});

	test('a run without Max Wait set may wait the default', () => {
		expect(startRun({}, {}).waitBudget.maxMs).toBe(DEFAULT_MAX_RATE_LIMIT_WAIT_MS);
	});
});

test('Max Wait for Rate Limits 0: the first 429 fails the request, nothing is sent again', async () => {
	const f = fakeContext();
	startRun(f.ctx, { maxRateLimitWaitMs: 0 });
	const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	await flush();
	f.open()[0].answer(r429(3));
	await flush();
	expect(f.calls).toHaveLength(1);
	expect((s.error as Error).message).toBe('The service is rate limiting requests and asked to wait 3 s more');
	expect((s.error as { description: string }).description).toContain('Max Wait for Rate Limits is 0');
});

test('a POST answered 429 then 200 is sent twice (the 429 was not acted on), never more', async () => {
	const f = fakeContext();
	const s = settle(recruitingRequest.call(f.ctx, { method: 'POST', path: '/x', body: {} }));
	await flush();
	f.open()[0].answer(r429(0));
	await flush();
	f.open()[0].answer(ok);
	await flush();
	expect(f.calls).toHaveLength(2);
	expect(s.error).toBeUndefined();
});

test('a POST answered 500 is not sent again', async () => {
	const f = fakeContext();
	const s = settle(recruitingRequest.call(f.ctx, { method: 'POST', path: '/x', body: {} }));
	await flush();
	f.open()[0].answer({ statusCode: 500, body: { title: 'Oops' } });
	await flush(5000);
	expect(f.calls).toHaveLength(1);
	expect((s.error as Error).message).toBe('Oops (HTTP 500)');
});

test('Retry-After as an HTTP date is waited out to that instant; a later, longer one holds the requests already waiting', async () => {
	const f = fakeContext();
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/a' }));
	await flush();
	f.open()[0].answer(ok); // the first request goes alone; then the window opens
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/b' }));
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/c' }));
	await flush();
	const [b, c] = f.open();
	b.answer({ statusCode: 429, headers: { 'retry-after': new Date(Date.now() + 4000).toUTCString() }, body: {} });
	await flush(500);
	c.answer(r429(10)); // t = 0.5 s: nothing before 10.5 s
	await flush(9_900);
	expect(f.calls).toHaveLength(3);
	await flush(200);
	expect(f.calls.slice(3).map(at)).toEqual([10.5]);
});

test('a 429 without Retry-After: exponential back-off with jitter from 1 s, doubled while the refusals go on', async () => {
	const f = fakeContext();
	const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	const refusedAt: number[] = [];
	for (let step = 0; step < 6000 && !s.done; step++) {
		await flush(10);
		for (const call of f.open()) {
			if (refusedAt.length < 4) {
				refusedAt.push(Date.now());
				call.answer({ statusCode: 429, body: {} });
			} else call.answer(ok);
		}
	}
	expect(s.error).toBeUndefined();
	expect(f.calls).toHaveLength(5);
	// From each 429 to the next attempt: jittered in the upper half of 1, 2, 4, 8 s.
	const waits = refusedAt.map((t, i) => f.calls[i + 1].sentAt - t);
	[1000, 2000, 4000, 8000].forEach((ceiling, i) => {
		expect(waits[i]).toBeGreaterThanOrEqual(ceiling / 2);
		expect(waits[i]).toBeLessThanOrEqual(ceiling + 10);
	});
});

test('a 503 with Retry-After: the GET is tried again no sooner than it says', async () => {
	const f = fakeContext();
	const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	await flush();
	f.open()[0].answer({ statusCode: 503, headers: { 'retry-after': '3' }, body: {} });
	await flush(2_900);
	expect(f.calls).toHaveLength(1);
	await flush(1_000);
	expect(f.calls).toHaveLength(2);
	f.open()[0].answer(ok);
	await flush();
	expect(s.error).toBeUndefined();
});

test('a request that may not wait (the delivery path\'s key fetch) fails at once while the credential is paused, with how long the service asked', async () => {
	const f = fakeContext();
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	await flush();
	f.open()[0].answer(r429(60));
	await flush();
	const key = settle(
		recruitingRequest.call(f.sibling(), { method: 'GET', path: '/key', policy: { maxRateLimitWaitMs: 0, maxRetries: 0, timeoutMs: 5000 } }),
	);
	await flush();
	expect(key.done).toBe(true);
	expect(f.calls.filter((c) => c.path === '/key')).toHaveLength(0);
	expect((key.error as { context: { rateLimitWaitSeconds: number } }).context.rateLimitWaitSeconds).toBe(60);
});

test('another run with the same credential waits for the pause a 429 of this run began', async () => {
	const f = fakeContext();
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	await flush();
	f.open()[0].answer(r429(5));
	await flush(100);
	const other = settle(recruitingRequest.call(f.sibling(), { method: 'GET', path: '/y' }));
	await flush(4_800);
	expect(f.calls.filter((c) => c.path === '/y')).toHaveLength(0);
	await flush(200);
	expect(f.calls.filter((c) => c.path === '/y').map(at)).toEqual([5]);
	f.open().forEach((c) => c.answer(ok));
	await flush();
	expect(other.error).toBeUndefined();
});

describe('against a token bucket (the sandbox\'s limiter on the fake clock), with the defaults', () => {
	// The back-off's jitter from a seeded generator: the same run every time.
	let seed = 1;
	beforeEach(() => {
		seed = 20261124;
		jest.spyOn(Math, 'random').mockImplementation(() => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed / 2 ** 31;
		});
	});
	afterEach(() => jest.restoreAllMocks());

	/** (N − burst) ÷ rate: the least time any client can take. */
	const ideal = (n: number, c: RateLimitConfig) => (n - c.burst) / c.rate;

	test.each([
		['10/s, burst 10, Retry-After only', { rate: 10, burst: 10 }, 1000],
		['2/s, burst 5, Retry-After only', { rate: 2, burst: 5 }, 100],
		['2/s, burst 5, Retry-After as an HTTP date', { rate: 2, burst: 5, retryAfter: 'date' }, 100],
		['2/s, burst 5, no Retry-After', { rate: 2, burst: 5, retryAfter: 'none' }, 100],
	] as [string, RateLimitConfig, number][])('%s: %p GETs all succeed, paced after the first refusal', async (_, config, n) => {
		const service = limitedService(config);
		const { results, seconds, stats } = await runGets(service, n);
		expect(results.filter((r) => r.error)).toEqual([]);
		expect(stats.allowed).toBe(n);
		// Paced, never a burst: at most 3% of what was sent refused, within 1.15 × the least time possible.
		expect(stats.refused).toBeLessThanOrEqual(0.03 * (stats.allowed + stats.refused));
		expect(seconds).toBeLessThanOrEqual(ideal(n, config) * 1.15);
		console.log(`${_}: ${n} GETs in ${seconds.toFixed(1)} s (ideal ${ideal(n, config).toFixed(1)} s), refused ${stats.refused} at ${service.refusedAt.join(' ')}`);
	});

	test.each([
		['X-RateLimit-* (reset as an epoch time)', { rate: 10, burst: 10, info: 'x-ratelimit' }, 300],
		['X-RateLimit-* (reset in seconds)', { rate: 2, burst: 5, info: 'x-ratelimit-delta' }, 60],
		['RateLimit and RateLimit-Policy', { rate: 2, burst: 5, info: 'ratelimit' }, 60],
		['RateLimit and RateLimit-Policy at 10/s', { rate: 10, burst: 10, info: 'ratelimit' }, 300],
	] as [string, RateLimitConfig, number][])('%s: %p GETs, slowed down before the bucket is empty: none refused', async (_, config, n) => {
		const service = limitedService(config);
		const { results, seconds, stats } = await runGets(service, n);
		expect(results.filter((r) => r.error)).toEqual([]);
		expect(stats.allowed).toBe(n);
		expect(stats.refused).toBe(0);
		expect(seconds).toBeLessThanOrEqual(ideal(n, config) * 1.15);
		console.log(`${_}: ${n} GETs in ${seconds.toFixed(1)} s (ideal ${ideal(n, config).toFixed(1)} s), refused ${stats.refused}`);
	});

	test('a second run with the same credential starts at the learned pace: (almost) nothing refused', async () => {
		const config = { rate: 5, burst: 5 };
		const service = limitedService(config);
		await runGets(service, 100);
		const before = service.limiter.stats().refused;
		await flush(10_000); // the bucket fills up again
		const { results, stats } = await runGets(service, 100);
		expect(results.filter((r) => r.error)).toEqual([]);
		expect(stats.refused - before).toBeLessThanOrEqual(3);
		expect(runOf(service.ctx).waitBudget.waited).toBeLessThanOrEqual(3000);
	});
});
