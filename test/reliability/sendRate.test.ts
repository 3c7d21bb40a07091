/**
 * The credential's send rate (nodes/shared/transport/sendRate.ts) through the real
 * recruitingRequest, on a fake clock, with a stand-in for n8n's HTTP helper: answered by hand, or
 * by the sandbox's own token bucket (sandbox/rateLimit.ts) on the fake clock, so that time, order
 * and counts are exact and no wall-clock bound is asserted. The same limits over real HTTP through
 * n8n's engine are in rateLimits.test.ts.
 */
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_MS, DEFAULT_POLICY } from '../../nodes/shared/transport/policy';
import { rateLimitWaitOf } from '../../nodes/shared/transport/errors';
import { recruitingRequest } from '../../nodes/shared/transport/request';
import { FORGET_IDLE_MS, runOf, SendRates, startRun, URGENT_RUN, WaitBudget } from '../../nodes/shared/transport/state';
import { SendRate } from '../../nodes/shared/transport/sendRate';
import { type RateLimitConfig } from '../../sandbox/rateLimit';
import { at, fakeContext, flush, limitedService, ok, r429, runGets, seedRandom, settle, T0 } from './sendRateBench';

beforeEach(() => jest.useFakeTimers({ now: T0 }));
afterEach(() => jest.useRealTimers());

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
	expect(runOf(f.ctx).waitBudget.waited).toBeLessThanOrEqual(10_000);
	const error = s.error as { message: string; description: string };
	expect(error.message).toMatch(/^The service is rate limiting requests and asked to wait \d+ s more$/);
	expect(error.description).toMatch(/this run may wait 10 s while no request gets through \(Max Wait for Rate Limits\) and has waited \d+ s/);
	expect(rateLimitWaitOf(error)).toBeGreaterThanOrEqual(1);
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
		f.open().forEach((c) => c.answer(ok));
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
	// One request at a time at first; the window opens with the answers while it holds others back.
	for (const path of ['/a', '/a2', '/a3']) settle(recruitingRequest.call(f.ctx, { method: 'GET', path }));
	for (let k = 0; k < 3; k++) {
		await flush();
		f.open()[0].answer(ok);
	}
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/b' }));
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/c' }));
	await flush();
	const [b, c] = f.open();
	b.answer({ statusCode: 429, headers: { 'retry-after': new Date(Date.now() + 4000).toUTCString() }, body: {} });
	await flush(500);
	c.answer(r429(10)); // t = 0.5 s: nothing before 10.5 s
	await flush(9_900);
	expect(f.calls).toHaveLength(5);
	await flush(200);
	expect(f.calls.slice(5).map(at)).toEqual([10.5]);
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
	expect(rateLimitWaitOf(key.error)).toBe(60);
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
	await flush(100);
	// At 5 s the retry of /x goes first (the window after a cut from the first one is one request), then /y.
	expect(f.calls.filter((c) => c.path === '/x').map(at)).toEqual([0, 5]);
	f.open().forEach((c) => c.answer(ok));
	await flush();
	expect(f.calls.filter((c) => c.path === '/y').map(at)).toEqual([5]);
	f.open().forEach((c) => c.answer(ok));
	await flush();
	expect(other.error).toBeUndefined();
});

describe('against a token bucket (the sandbox\'s limiter on the fake clock), with the defaults', () => {
	// The back-off's jitter from a seeded generator: the same run every time.
	beforeEach(() => seedRandom(20261124));
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
		// Within 1.15 × the least time possible. Refused: with no header to go by, the first time the
		// bucket runs dry costs what is in flight then, once: the window grows ×1.5 a round, so at most
		// 1.5 × what the bucket let through. After it the requests go paced, never as a burst: at most
		// 3% of them refused.
		// The targets: within 1.15 × the least time possible; refused at first contact (the
		// first 2 s after the first refusal: what is in flight when the bucket runs dry, and the burst
		// after the first pause, before a rate is measured) at most 2 + burst / 2. Later runs: below.
		const firstContact = service.refusedAt.filter((t) => Number(t) - Number(service.refusedAt[0]) < 2).length;
		console.log(`${_}: ${n} GETs in ${seconds.toFixed(1)} s (ideal ${ideal(n, config).toFixed(1)} s), refused ${stats.refused} at ${service.refusedAt.join(' ')}`);
		expect(seconds).toBeLessThanOrEqual(ideal(n, config) * 1.15);
		expect(firstContact).toBeLessThanOrEqual(2 + config.burst / 2);
	});

	const laterRun = async (config: RateLimitConfig, n: number, mostRefused = 0.03) => {
		const service = limitedService(config);
		await runGets(service, n);
		const before = service.limiter.stats();
		await flush(10_000);
		const { results, seconds, stats } = await runGets(service, n);
		expect(results.filter((r) => r.error)).toEqual([]);
		const refused = stats.refused - before.refused;
		console.log(`later run at ${config.rate}/s burst ${config.burst}: ${n} GETs in ${seconds.toFixed(1)} s (ideal ${ideal(n, config).toFixed(1)} s), refused ${refused}`);
		expect(refused).toBeLessThanOrEqual(mostRefused * n);
		expect(seconds).toBeLessThanOrEqual(ideal(n, config) * 1.15);
	};
	// The window once grew with every answer, also while the pace held the requests back, to a size
	// never used; it went out whole once the quiet had lifted the pace: 12 refused at once at 10/s,
	// 14 at 6/s. It grows now only while it holds requests back (as TCP's, RFC 7661). Starting again
	// from one after every quiet spell (git e68e60b) made a loop's runs 2 s apart up to 8x slower.
	test.each([
		[{ rate: 10, burst: 10 }, 1000],
		[{ rate: 6, burst: 5 }, 300],
	] as [RateLimitConfig, number][])('a later run after 2 min of quiet (the pace lifted), %p: refused at first contact at most 2 + burst / 2', async (config, n) => {
		const service = limitedService(config);
		await runGets(service, n);
		const before = service.refusedAt.length;
		await flush(120_000);
		const { results } = await runGets(service, n);
		expect(results.filter((r) => r.error)).toEqual([]);
		const refusedAt = service.refusedAt.slice(before).map(Number);
		const firstContact = refusedAt.filter((t) => t - refusedAt[0] < 2).length;
		console.log(`a later run after 2 min of quiet at ${config.rate}/s burst ${config.burst}: refused at first contact ${firstContact}, ${refusedAt.length} in all`);
		expect(firstContact).toBeLessThanOrEqual(2 + config.burst / 2);
	});

	// From a hostile review of git a4f9eeb: a 429 met while sending one at a time cut the window to
	// one and ended its slow start; as it grows only while it holds requests back, a later large run
	// grew it by one a round trip, for good (9.4 s for what a new credential does in 5.0 s). A pace
	// lifted is a limit forgotten: the window starts again as at first contact.
	test('one 429 while sending one at a time does not slow a large run once the pace is lifted', async () => {
		const rate = new SendRate();
		const budget = new WaitBudget(300_000);
		const send = async (status: number) => {
			const ticket = await rate.acquire(budget);
			await new Promise((resolve) => setTimeout(resolve, 200));
			ticket.done({ status, headers: status === 429 ? { 'retry-after': '1' } : {} });
		};
		const concurrent = async (sendRate: SendRate) => {
			const started = Date.now();
			let done = 0;
			for (let i = 0; i < 1000; i++) void sendRate.acquire(budget).then(async (ticket) => {
				await new Promise((resolve) => setTimeout(resolve, 200));
				ticket.done({ status: 200 });
				done++;
			});
			for (let step = 0; step < 100_000 && done < 1000; step++) await flush(10);
			return (Date.now() - started) / 1000;
		};
		const sequential = settle(
			(async () => {
				for (let i = 0; i < 200; i++) await send(i === 100 ? 429 : 200);
			})(),
		);
		for (let step = 0; step < 100_000 && !sequential.done; step++) await flush(10);
		expect(sequential.error).toBeUndefined();
		await flush(120_000);
		const [later, fresh] = [await concurrent(rate), await concurrent(new SendRate())];
		console.log(`1,000 at once after one 429 sent one at a time and 2 min of quiet: ${later.toFixed(2)} s; on a new credential ${fresh.toFixed(2)} s`);
		expect(later).toBeLessThanOrEqual(fresh * 1.02);
	});

	test('later runs on the learned credential (10/s burst 10, 1,000 GETs, 10 s apart): at most 3 % refused', async () => await laterRun({ rate: 10, burst: 10 }, 1000));
	// Fewer refusals pull against taking over a share another process left (docs/rate-limits.md).
	// Issue 51 let refused counts rise for a model a reader can hold (BENCHMARKS.md has them before and
	// after): the cubic probes every few seconds at 2/s, one or two refused each time, never a failed run.
	test('later runs on the learned credential (2/s burst 5, 100 GETs, 10 s apart): at most 20 % refused', async () => await laterRun({ rate: 2, burst: 5 }, 100, 0.2));
	test('later runs on the learned credential (2/s burst 5, 100 GETs) after 8 quiet spells of 3.5 to 30 s: at most 20 % refused in all', async () => {
		const service = limitedService({ rate: 2, burst: 5 });
		await runGets(service, 100);
		const refused: number[] = [];
		for (const quiet of [3.5, 5, 7.5, 10, 12.5, 15, 20, 30]) {
			const before = service.limiter.stats().refused;
			await flush(quiet * 1000);
			const { results, stats } = await runGets(service, 100);
			expect(results.filter((r) => r.error)).toEqual([]);
			refused.push(stats.refused - before);
		}
		const all = refused.reduce((a, b) => a + b, 0);
		console.log(`later runs at 2/s burst 5 after quiet spells of 3.5 to 30 s: refused ${refused.join(', ')} of 100 each (${((100 * all) / 800).toFixed(2)} %)`);
		expect(all).toBeLessThanOrEqual(0.2 * 800);
	});

	test.each([
		['Retry-After only', { rate: 2, burst: 10, shape: 'window' }, Infinity],
		['no Retry-After', { rate: 2, burst: 10, shape: 'window', retryAfter: 'none' }, Infinity],
		['X-RateLimit-* (reset as an epoch time)', { rate: 2, burst: 10, shape: 'window', info: 'x-ratelimit' }, 3],
		// The policy's rate (q ÷ w) once refilled a window between answers: one refused per window, 9 in all.
		['RateLimit and RateLimit-Policy', { rate: 2, burst: 10, shape: 'window', info: 'ratelimit' }, 3],
	] as [string, RateLimitConfig, number][])('a fixed window of 10 per 5 s, %s: 100 GETs within 1.5 × the ideal', async (_, config, mostRefused) => {
		const service = limitedService(config);
		const { results, seconds, stats } = await runGets(service, 100);
		console.log(`fixed window 10 per 5 s, ${_}: 100 GETs in ${seconds.toFixed(1)} s (ideal ${ideal(100, config).toFixed(1)} s), refused ${stats.refused} at ${service.refusedAt.join(" ")}`);
		expect(results.filter((r) => r.error)).toEqual([]);
		expect(stats.allowed).toBe(100);
		expect(seconds).toBeLessThanOrEqual(ideal(100, config) * 1.5);
		expect(stats.refused).toBeLessThanOrEqual(mostRefused);
	});

	// Once a known gap: a bucket far smaller than a second of its rate, as nginx's limit_req without
	// a burst. A pause refills our bucket with one request, not a burst the service would refuse.
	test('a bucket of 1 at 10/s, 429s without Retry-After: 300 GETs within 1.5 × the ideal', async () => {
		const config: RateLimitConfig = { rate: 10, burst: 1, retryAfter: 'none' };
		const service = limitedService(config);
		const { results, seconds, stats } = await runGets(service, 300);
		console.log(`a bucket of 1 at 10/s, no Retry-After: 300 GETs in ${seconds.toFixed(1)} s (ideal ${ideal(300, config).toFixed(1)} s), refused ${stats.refused}`);
		expect(results.filter((r) => r.error)).toEqual([]);
		expect(seconds).toBeLessThanOrEqual(ideal(300, config) * 1.5);
	});

	test.each([
		['X-RateLimit-* (reset as an epoch time)', { rate: 10, burst: 10, info: 'x-ratelimit' }, 300],
		['X-RateLimit-* (reset in seconds)', { rate: 2, burst: 5, info: 'x-ratelimit-delta' }, 60],
		['X-RateLimit-* (reset as an epoch time) at 2/s', { rate: 2, burst: 5, info: 'x-ratelimit' }, 100],
		['RateLimit and RateLimit-Policy', { rate: 2, burst: 5, info: 'ratelimit' }, 60],
		['RateLimit and RateLimit-Policy at 10/s', { rate: 10, burst: 10, info: 'ratelimit' }, 300],
	] as [string, RateLimitConfig, number][])('%s: %p GETs, slowed down before the bucket is empty: at most 2 refused, none with RateLimit', async (_, config, n) => {
		const service = limitedService(config);
		const { results, seconds, stats } = await runGets(service, n);
		expect(results.filter((r) => r.error)).toEqual([]);
		expect(stats.allowed).toBe(n);
		// X-RateLimit-* states no rate: its bucket is found as one without headers, a refusal or two
		// the first time it runs dry (issue 51: refused counts may rise); RateLimit-Policy states it.
		expect(stats.refused).toBeLessThanOrEqual(config.info === 'ratelimit' ? 0 : 2);
		expect(seconds).toBeLessThanOrEqual(ideal(n, config) * 1.15);
		console.log(`${_}: ${n} GETs in ${seconds.toFixed(1)} s (ideal ${ideal(n, config).toFixed(1)} s), refused ${stats.refused}`);
	});

	test('a limit raised mid-run is found: the pace reaches it within 200 s', async () => {
		const service = limitedService({ rate: 2, burst: 5 });
		startRun(service.ctx, {});
		const results = Array.from({ length: 1200 }, (_, i) => settle(recruitingRequest.call(service.ctx, { method: 'GET', path: `/c${i}` })));
		const raisedAt = T0 + 120_000;
		for (let step = 0; step < 2_000_000 && !results.every((r) => r.done); step++) {
			if (Date.now() >= raisedAt && service.limiter.settings?.rate === 2) service.limiter.set({ rate: 6, burst: 5 });
			await service.pump();
			await flush(5);
		}
		expect(results.filter((r) => r.error)).toEqual([]);
		// Requests sent per second, 20 s at a time: 5 of the 6 allowed within 200 s of the raise (the pace
		// climbs from the learned 2/s as (t ÷ the probe period)³, that period grown to 160 s by then).
		const sentIn = (from: number, to: number) => service.calls.filter((c) => c.sentAt >= from && c.sentAt < to).length;
		const perSecond = Array.from({ length: 14 }, (_, k) => sentIn(T0 + 100_000 + k * 20_000, T0 + 120_000 + k * 20_000) / 20);
		const doneAt = Math.max(...service.calls.map((c) => c.sentAt));
		console.log(`raised 2/s → 6/s at 120 s: done at ${((doneAt - T0) / 1000).toFixed(1)} s; per second, 20 s at a time from 100 s: ${perSecond.join(' ')}; refused at ${service.refusedAt.join(' ')}`);
		expect(Math.max(...perSecond.slice(0, 11))).toBeGreaterThanOrEqual(5);
	});

	test('a limit raised between runs holds no later run back (the pace comes back with time, not with requests)', async () => {
		const service = limitedService({ rate: 2, burst: 5 });
		await runGets(service, 500); // the period grows to 160 s against the steady 2/s
		service.limiter.set({ rate: 6, burst: 5 });
		const times: number[] = [];
		for (let run = 0; run < 4; run++) {
			await flush(5 * 60_000);
			const { results, seconds } = await runGets(service, 360);
			expect(results.filter((r) => r.error)).toEqual([]);
			times.push(seconds);
		}
		console.log(`raised to 6/s between runs: 360 GETs in ${times.map((t) => t.toFixed(1)).join(', ')} s (ideal ${ideal(360, { rate: 6, burst: 5 }).toFixed(1)} s)`);
		// A probe period stuck at 160 s kept every run at ~2.4/s: 148 s each. The pace is a function of
		// the time since the last refusal: five minutes later it no longer holds a run back, each run
		// as fast as one on a credential that learned nothing.
		const fresh = await runGets(limitedService({ rate: 6, burst: 5 }), 360);
		console.log(`the same 360 GETs on a new credential: ${fresh.seconds.toFixed(1)} s`);
		for (const seconds of times) expect(seconds).toBeLessThanOrEqual(fresh.seconds * 1.02);
		for (const seconds of times) expect(seconds).toBeLessThanOrEqual(ideal(360, { rate: 6, burst: 5 }) * 1.2);
	});
});

/** Found by a hostile review of the first version (each failed on it as described). */
describe('review findings', () => {
	test('R1: a 429 with Retry-After 0, forever: backs off and ends at the budget, instead of looping', async () => {
		const f = fakeContext();
		startRun(f.ctx, { maxRateLimitWaitMs: 10_000 });
		const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		for (let i = 0; i < 5000 && !s.done; i++) {
			await flush(10);
			f.open().forEach((c) => c.answer(r429(0)));
		}
		expect(s.done).toBe(true); // was: 500 attempts in 5 s and never done
		expect(f.calls.length).toBeLessThanOrEqual(8);
	});

	test('R1b: Max Wait 0 fails at the first 429, whatever its Retry-After (0, 0.2 s): the POST is sent once', async () => {
		for (const ra of ['0', '0.2']) {
			const f = fakeContext();
			startRun(f.ctx, { maxRateLimitWaitMs: 0 });
			const s = settle(recruitingRequest.call(f.ctx, { method: 'POST', path: '/x', body: {} }));
			for (let i = 0; i < 300 && !s.done; i++) {
				await flush(10);
				f.open().forEach((c) => c.answer({ statusCode: 429, headers: { 'retry-after': ra }, body: {} }));
			}
			expect(f.calls).toHaveLength(1); // was: 300 times in 3 s
			expect((s.error as Error).message).toMatch(/^The service is rate limiting requests/);
		}
	});

	test('R2: X-RateLimit-* only on a 429, then answers without them: not capped at 1 request a second', async () => {
		const f = fakeContext();
		startRun(f.ctx, { itemsInFlight: 64 });
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/a' }));
		await flush();
		f.open()[0].answer({ statusCode: 429, headers: { 'retry-after': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' }, body: {} });
		const results = Array.from({ length: 60 }, (_, i) => settle(recruitingRequest.call(f.ctx, { method: 'GET', path: `/g${i}` })));
		for (let step = 0; step < 20000 && !results.every((r) => r.done); step++) {
			await flush(10);
			f.open().forEach((c) => c.answer(ok));
		}
		expect((Date.now() - T0) / 1000).toBeLessThan(10); // was: 60 s
	});

	test('R3: a hostile RateLimit-Policy with q=0 after a learned rate does not stop every send', async () => {
		const f = fakeContext();
		startRun(f.ctx, { itemsInFlight: 64, maxRateLimitWaitMs: 5_000 });
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/a' }));
		await flush();
		f.open()[0].answer(ok);
		await flush(300);
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/b' }));
		await flush();
		f.open()[0].answer(r429(1));
		await flush(1100);
		f.open().forEach((c) => c.answer({ statusCode: 200, headers: { ratelimit: '"x";r=0;t=1', 'ratelimit-policy': '"x";q=0;w=1' }, body: {} }));
		await flush();
		const later = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/c' }));
		for (let i = 0; i < 600 && !later.done; i++) {
			await flush(1000);
			f.open().forEach((c) => c.answer(ok));
		}
		expect(later.done).toBe(true); // was: never sent in 10 min
	});

	test('R4: a run that failed drops its waiting requests at once, not after the whole pause', async () => {
		const f = fakeContext();
		const run = startRun(f.ctx, { itemsInFlight: 64 });
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/a' }));
		await flush();
		f.open()[0].answer(r429(120));
		await flush();
		const queued = Array.from({ length: 5 }, (_, i) => settle(recruitingRequest.call(f.ctx, { method: 'GET', path: `/q${i}` })));
		await flush(1000);
		run.waitBudget.cancel(); // the router, on another item's failure or a stop
		await flush(10);
		expect(queued.every((q) => q.done)).toBe(true); // was: after 119 s
		expect(f.calls.filter((c) => c.path.startsWith('/q'))).toHaveLength(0);
	});

	test('R5: a delivery\'s key fetch (no wait allowed) goes before another run\'s paced queue', async () => {
		const service = limitedService({ rate: 2, burst: 5 });
		startRun(service.ctx, { itemsInFlight: 64 });
		Array.from({ length: 64 }, (_, i) => settle(recruitingRequest.call(service.ctx, { method: 'GET', path: `/c${i}` })));
		for (let step = 0; step < 1000; step++) {
			await service.pump();
			await flush(5);
		}
		const startKey = Date.now();
		const key = settle(
			recruitingRequest.call(service.sibling(URGENT_RUN), { method: 'GET', path: '/key', policy: { maxRateLimitWaitMs: 0, maxRetries: 0, timeoutMs: 5000 } }),
		);
		for (let step = 0; step < 200000 && !key.done; step++) {
			await service.pump();
			await flush(5);
		}
		expect((Date.now() - startKey) / 1000).toBeLessThan(2); // was: 26.7 s
		expect(key.error).toBeUndefined();
	});

	test('R6: a run that joins a pause already under way is charged what it waited', async () => {
		const f = fakeContext();
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/a' }));
		await flush();
		f.open()[0].answer(r429(50));
		await flush(1000);
		const other = f.sibling();
		startRun(other, { maxRateLimitWaitMs: 60_000 });
		settle(recruitingRequest.call(other, { method: 'GET', path: '/b' }));
		await flush(49_500); // the pause ends at 50 s: then its wait is charged
		expect(runOf(other).waitBudget.waited).toBeGreaterThanOrEqual(48_000); // was: 0
	});

	test('R7: one 429 after a quiet hour (another client drained the bucket) does not make the credential crawl', async () => {
		const service = limitedService({ rate: 10, burst: 10 });
		await runGets(service, 200);
		for (let k = 0; k < 6; k++) {
			await flush(600_000);
			await runGets(service, 1);
		}
		for (let i = 0; i < 10; i++) service.limiter.admit('token');
		const { results, seconds } = await runGets(service, 300);
		expect(results.filter((r) => r.error)).toEqual([]);
		expect(seconds).toBeLessThan(40); // was: 164.5 s (ideal 30 s)
	});

	test('R8: a stopped execution (its cancel signal aborted) does not cut the credential\'s window, nor retries', async () => {
		const f = fakeContext();
		startRun(f.ctx, { itemsInFlight: 64 });
		for (let k = 0; k < 3; k++) {
			const rs = Array.from({ length: 40 }, (_, i) => settle(recruitingRequest.call(f.ctx, { method: 'GET', path: `/w${i}` })));
			for (let step = 0; step < 200 && !rs.every((r) => r.done); step++) {
				await flush(20);
				f.open().forEach((c) => c.answer(ok));
			}
		}
		const aborted = AbortSignal.abort();
		let attempts = 0;
		const stopped = {
			...(f.ctx as object),
			getExecutionCancelSignal: () => aborted,
			helpers: {
				httpRequestWithAuthentication: async () => {
					attempts++;
					throw new Error('canceled');
				},
			},
		} as never;
		startRun(stopped, { itemsInFlight: 64 });
		const dead = Array.from({ length: 30 }, (_, i) => settle(recruitingRequest.call(stopped, { method: 'GET', path: `/dead${i}` })));
		for (let step = 0; step < 400 && !dead.every((r) => r.done); step++) await flush(10);
		expect(attempts).toBe(30);
		// The window is as the answers left it: the next 40 GETs go out at once (was: 64 → 1).
		f.resetMax();
		const next = Array.from({ length: 40 }, (_, i) => settle(recruitingRequest.call(f.ctx, { method: 'GET', path: `/n${i}` })));
		await flush();
		expect(f.maxInFlight()).toBe(40);
		f.open().forEach((c) => c.answer(ok));
		await flush();
		expect(next.every((r) => r.done && r.error === undefined)).toBe(true);
	});

	test.each([
		[{ rate: 10, burst: 10 }, 3000],
		[{ rate: 2, burst: 5 }, 600],
	] as [RateLimitConfig, number][])('R9: the pace\'s own probing refusals do not use up Max Wait (%p, %p GETs)', async (config, n) => {
		const service = limitedService(config);
		const { results } = await runGets(service, n);
		expect(results.filter((r) => r.error)).toEqual([]);
		// Counted since the last answer that got through: at most one pause.
		expect(runOf(service.ctx).waitBudget.waited).toBeLessThanOrEqual(2_000); // was: 7% of the run
	}, 60_000);

	test('R10: a 429 with X-RateLimit-Remaining 0 and a Reset, no Retry-After: waits for the reset', async () => {
		const f = fakeContext();
		startRun(f.ctx, {});
		const resetAt = Date.now() + 30_000;
		const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		for (let i = 0; i < 4000 && !s.done; i++) {
			await flush(10);
			f.open().forEach((c) =>
				c.answer(
					Date.now() < resetAt
						? { statusCode: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '100', 'x-ratelimit-reset': String(Math.ceil((resetAt - Date.now()) / 1000)) }, body: {} }
						: ok,
				),
			);
		}
		expect(s.error).toBeUndefined();
		// was: 0, 0.66, 2.4, 5.1, 11.5, 23.3, …
		expect(f.calls).toHaveLength(2);
		expect(at(f.calls[1])).toBeGreaterThanOrEqual(30);
		expect(at(f.calls[1])).toBeLessThan(30.1);
	});

	test('R11: a Retry-After in epoch seconds (a misconfigured proxy) is read as the instant, and no pause outlasts an hour', async () => {
		const f = fakeContext();
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		await flush();
		f.open()[0].answer(r429(Math.floor(Date.now() / 1000) + 5));
		await flush(5_100);
		expect(f.calls).toHaveLength(2); // read as 5 s from now (was: 56 years)
		f.open()[0].answer(r429(10 * 24 * 3600)); // ten days
		await flush(3_600_000 + 100);
		const next = settle(recruitingRequest.call(f.sibling(), { method: 'GET', path: '/y' }));
		await flush();
		expect(f.calls.map((c) => c.path)).toContain('/y'); // was: "asked to wait 29925300 min more", nothing sent
		f.open().forEach((c) => c.answer(ok));
		await flush();
		expect(next.error).toBeUndefined();
	});
});

describe('a request n8n refuses to send (issue 27, point 10)', () => {
	const ssrfBlock = () => {
		const cause = Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), {
			name: 'SsrfBlockedIpError',
			description: "The target 'svc.test' (10.0.0.1) is not allowed.",
		});
		Object.defineProperty(cause, Symbol.for('n8n.backend-network.non-retryable-error'), { value: true });
		return Object.assign(new Error('The connection was aborted, perhaps the server is offline'), { cause });
	};
	const invalidUrl = () => Object.assign(new Error('Invalid URL'), { cause: Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' }) });
	const reset = () => Object.assign(new Error('socket hang up'), { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });

	test.each([
		['an SSRF block', ssrfBlock, 'n8n did not send the request: The request was blocked because it resolves to a restricted IP address'],
		['an invalid URL', invalidUrl, 'n8n did not send the request: Invalid URL'],
	])('%s: one attempt, and the error says what n8n refused', async (_, failure, message) => {
		const f = fakeContext();
		const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		for (let i = 0; i < 20 && !s.done; i++) {
			await flush(10);
			f.open().forEach((c) => c.answer(failure()));
			await flush(1000);
		}
		expect(f.calls).toHaveLength(1); // was: 3 attempts, then "could not be reached"
		expect((s.error as Error).message).toBe(message);
	});

	test('a connection reset is still a network failure: retried, 3 attempts', async () => {
		const f = fakeContext();
		const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		for (let i = 0; i < 20 && !s.done; i++) {
			await flush(10);
			f.open().forEach((c) => c.answer(reset()));
			await flush(1000);
		}
		expect(f.calls).toHaveLength(3);
		expect((s.error as Error).message).toBe('The Recruiting service could not be reached');
	});
});

describe('what the process keeps per credential', () => {
	test('a credential idle for an hour is forgotten when another one starts; one with a request in flight or waiting is kept', async () => {
		const rates = new SendRates();
		const budget = (maxMs = 300_000) => new WaitBudget(maxMs);
		// Idle: its one request answered.
		const idle = rates.for('idle');
		(await idle.acquire(budget())).done({ status: 200 });
		// Its last request failed without being sent (a 429 longer than the run may wait): idle too.
		const refused = rates.for('refused');
		(await refused.acquire(budget(30_000))).done({ status: 429, headers: { 'retry-after': '60' } });
		await expect(refused.acquire(budget(30_000))).rejects.toThrow();
		// In flight: sent and never answered.
		const inFlight = rates.for('in flight');
		await inFlight.acquire(budget());
		await flush(30 * 60_000);
		// Waiting, from half an hour on: a run that may wait two hours, behind a 429 of an hour.
		const waiting = rates.for('waiting');
		(await waiting.acquire(budget(2 * 60 * 60_000))).done({ status: 429, headers: { 'retry-after': '3600' } });
		const queued = settle(waiting.acquire(budget(2 * 60 * 60_000)));
		await flush();
		expect(rates.size).toBe(4);

		await flush(FORGET_IDLE_MS - 30 * 60_000);
		// A new credential: the idle and the refused one go, the one in flight and the waiting one stay.
		rates.for('next');
		expect(queued.done).toBe(false);
		expect(rates.size).toBe(4 - 2 + 1);
		expect(rates.for('in flight')).toBe(inFlight);
		expect(rates.for('waiting')).toBe(waiting);
		// The idle credential used again starts afresh (nothing learned).
		expect(rates.for('idle')).not.toBe(idle);
		expect(rates.size).toBe(4);
	});
});
