/**
 * The sandbox's token-bucket limiter (sandbox/rateLimit.ts): per access token, rate and burst,
 * the header styles real services use, counts of what it let through and refused, the CLI's spec
 * and the control API. Time is the limiter's own clock here (a fake one), so nothing depends on
 * how fast the machine is; the HTTP tests only check what a single burst does.
 */
import { describeRateLimit, parseRateLimitSpec, RateLimiter } from '../../sandbox/rateLimit';
import { useSandbox } from './helpers';

const T0 = Date.parse('2026-11-24T12:00:00Z');
const limiterAt = () => {
	let now = T0;
	const limiter = new RateLimiter(() => now);
	return { limiter, advance: (ms: number) => (now += ms) };
};

describe('the token bucket', () => {
	test('a burst of B, then R a second; each token its own bucket', () => {
		const { limiter, advance } = limiterAt();
		limiter.set({ rate: 2, burst: 5 });
		const first = Array.from({ length: 7 }, () => limiter.admit('Bearer a').allowed);
		expect(first).toEqual([true, true, true, true, true, false, false]);
		expect(limiter.admit('Bearer b').allowed).toBe(true);
		advance(500);
		expect(limiter.admit('Bearer a').allowed).toBe(true);
		expect(limiter.admit('Bearer a').allowed).toBe(false);
		advance(10_000); // never more than the burst
		expect(Array.from({ length: 6 }, () => limiter.admit('Bearer a').allowed).filter(Boolean)).toHaveLength(5);
		expect(limiter.stats()).toEqual({ allowed: 12, refused: 4 });
	});

	test('Retry-After: whole seconds (at least 1), an HTTP date, or none', () => {
		const { limiter } = limiterAt();
		limiter.set({ rate: 0.25, burst: 1 });
		limiter.admit('t');
		expect(limiter.admit('t').headers['retry-after']).toBe('4');
		limiter.set({ rate: 10, burst: 1 });
		limiter.admit('t');
		expect(limiter.admit('t').headers['retry-after']).toBe('1');
		limiter.set({ rate: 0.5, burst: 1, retryAfter: 'date' });
		limiter.admit('t');
		expect(limiter.admit('t').headers['retry-after']).toBe(new Date(T0 + 2000).toUTCString());
		limiter.set({ rate: 0.5, burst: 1, retryAfter: 'none' });
		limiter.admit('t');
		expect(limiter.admit('t').headers['retry-after']).toBeUndefined();
	});

	test('X-RateLimit-* with Reset as an epoch second or in seconds; the IETF RateLimit fields', () => {
		const { limiter } = limiterAt();
		limiter.set({ rate: 2, burst: 10, info: 'x-ratelimit' });
		limiter.admit('t');
		expect(limiter.admit('t').headers).toEqual({
			'x-ratelimit-limit': '10',
			'x-ratelimit-remaining': '8',
			'x-ratelimit-reset': String(T0 / 1000 + 1),
		});
		limiter.set({ rate: 2, burst: 10, info: 'x-ratelimit-delta' });
		for (let i = 0; i < 9; i++) limiter.admit('t');
		expect(limiter.admit('t').headers).toEqual({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' });
		limiter.set({ rate: 2, burst: 10, info: 'ratelimit' });
		expect(limiter.admit('t').headers).toEqual({ 'ratelimit-policy': '"bucket";q=2;w=1', ratelimit: '"bucket";r=9;t=1' });
		limiter.set({ rate: 0.5, burst: 3, info: 'ratelimit' });
		expect(limiter.admit('t').headers['ratelimit-policy']).toBe('"bucket";q=30;w=60');
	});

	test('the CLI\'s spec', () => {
		expect(parseRateLimitSpec('10/s,burst=10')).toEqual({ rate: 10, burst: 10 });
		expect(parseRateLimitSpec('2/s, burst=5, retry-after=date, info=ratelimit')).toEqual({ rate: 2, burst: 5, retryAfter: 'date', info: 'ratelimit' });
		expect(parseRateLimitSpec('30/m')).toEqual({ rate: 0.5, burst: 1 });
		expect(() => parseRateLimitSpec('fast')).toThrow(/RATE\/s/);
		expect(() => parseRateLimitSpec('10/s,burst=0')).toThrow(/burst/);
		expect(() => parseRateLimitSpec('10/s,bucket=3')).toThrow(/unknown setting 'bucket'/);
		expect(() => parseRateLimitSpec('10/s,info=fancy')).toThrow(/info/);
	});
});

describe('the fixed window (shape=window)', () => {
	test('10 per 5 s: ten go, the rest of the window is refused until its end, then ten again; the headers say when', () => {
		const { limiter, advance } = limiterAt();
		limiter.set(parseRateLimitSpec('2/s,burst=10,shape=window,info=x-ratelimit'));
		const first = Array.from({ length: 11 }, () => limiter.admit('t'));
		expect(first.filter((a) => a.allowed)).toHaveLength(10);
		expect(first[10].headers['retry-after']).toBe('5');
		expect(first[10].headers['x-ratelimit-reset']).toBe(String(T0 / 1000 + 5));
		advance(4_000);
		expect(limiter.admit('t').allowed).toBe(false); // a bucket at 2/s would have refilled 8
		advance(1_000);
		expect(Array.from({ length: 11 }, () => limiter.admit('t').allowed).filter(Boolean)).toHaveLength(10);
	});
});

describe('nginx\'s limit_req (shape=leaky)', () => {
	test('the CLI\'s spec: burst 0 by default, status 503 or 429; a bucket or window still holds at least 1', () => {
		expect(parseRateLimitSpec('5/s,shape=leaky')).toEqual({ rate: 5, burst: 0, shape: 'leaky' });
		expect(parseRateLimitSpec('5/s,burst=2,shape=leaky,status=429')).toEqual({ rate: 5, burst: 2, shape: 'leaky', status: 429 });
		expect(() => parseRateLimitSpec('5/s,shape=leaky,status=500')).toThrow(/status/);
		expect(() => parseRateLimitSpec('5/s,burst=0,shape=window')).toThrow(/burst/);
	});

	test('burst 2 at 5 r/s: three at once, then one per 200 ms; refusals change nothing and say nothing of the allowance', () => {
		const { limiter, advance } = limiterAt();
		limiter.set(parseRateLimitSpec('5/s,burst=2,shape=leaky'));
		expect(Array.from({ length: 4 }, () => limiter.admit('t').allowed)).toEqual([true, true, true, false]);
		advance(150);
		const refused = limiter.admit('t');
		expect(refused).toMatchObject({ allowed: false, status: 503, headers: {} });
		expect(refused.html).toContain('<title>503 Service Temporarily Unavailable</title>');
		advance(50);
		expect(limiter.admit('t')).toEqual({ allowed: true, headers: {} });
		expect(limiter.admit('t').allowed).toBe(false);
		expect(limiter.stats()).toEqual({ allowed: 4, refused: 3 });
	});
});

describe('the start-up text', () => {
	test('says each shape as it is set, with what a refusal carries', () => {
		expect(describeRateLimit(undefined)).toBe('none');
		expect(describeRateLimit(parseRateLimitSpec('5/s,burst=2,shape=leaky'))).toBe(
			"nginx limit_req rate=5r/s burst=2 nodelay, per token (refusals: 503 with nginx's HTML page, no Retry-After, no allowance headers)",
		);
		expect(describeRateLimit(parseRateLimitSpec('10/s,burst=10,info=ratelimit'))).toBe('10/s, burst 10 per token (refusals: 429, Retry-After: seconds, headers: ratelimit)');
		expect(describeRateLimit(parseRateLimitSpec('2/s,burst=10,shape=window,status=503'))).toBe('10 per 5 s window per token (refusals: 503, Retry-After: seconds, headers: none)');
	});
});

describe('over HTTP', () => {
	const { sb, call } = useSandbox({ rateLimit: { rate: 0.01, burst: 2, info: 'x-ratelimit-delta' } });

	test('refuses with a 429 problem document before handling; its headers on every answer; counted', async () => {
		const first = await call('GET', '/tags');
		expect(first.status).toBe(200);
		expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
		expect((await call('POST', '/jobs', { title: 'Made' })).status).toBe(201);
		const refused = await call('POST', '/jobs', { title: 'Never made' });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('100');
		expect(refused.body).toMatchObject({ status: 429, title: 'Too Many Requests' });
		expect(sb().rateLimit()).toMatchObject({ allowed: 2, refused: 1 });
		// Another token has a bucket of its own (its 401 is still the service's answer).
		expect((await call('GET', '/tags', undefined, { token: 'other' })).status).toBe(401);
	});

	test('the control API sets and reads the limit; null lifts it', async () => {
		const set = await call('PUT', '/__sandbox/rate-limit', { rate: 5, burst: 1, retryAfter: 'none' });
		expect(set.body).toEqual({ settings: { rate: 5, burst: 1, retryAfter: 'none' }, allowed: 0, refused: 0 });
		expect((await call('GET', '/tags')).status).toBe(200);
		const refused = await call('GET', '/tags');
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBeNull();
		// When each refusal came, in ms since the limit was set: one, within this test's few ms.
		const at = (await call('GET', '/__sandbox/rate-limit/refusals')).body as { at: number[] };
		expect(at.at).toHaveLength(1);
		expect(at.at[0]).toBeGreaterThanOrEqual(0);
		expect(at.at[0]).toBeLessThan(5000);
		expect((await call('PUT', '/__sandbox/rate-limit', { rate: 0 })).status).toBe(400);
		expect((await call('PUT', '/__sandbox/rate-limit', null)).body).toEqual({ allowed: 0, refused: 0 });
		expect((await call('GET', '/tags')).status).toBe(200);
	});

	test('shape leaky refuses as nginx does: 503 (or the status set), its HTML page, no Retry-After', async () => {
		await call('PUT', '/__sandbox/rate-limit', { rate: 0.01, burst: 0, shape: 'leaky' });
		expect((await call('GET', '/tags')).status).toBe(200);
		const refused = await call('GET', '/tags');
		expect(refused.status).toBe(503);
		expect(refused.headers.get('content-type')).toBe('text/html');
		expect(refused.headers.get('retry-after')).toBeNull();
		expect(refused.text).toContain('<center>nginx</center>');
		await call('PUT', '/__sandbox/rate-limit', { rate: 0.01, burst: 0, shape: 'leaky', status: 429 });
		await call('GET', '/tags');
		expect((await call('GET', '/tags')).status).toBe(429);
		expect((await call('PUT', '/__sandbox/rate-limit', { rate: 1, burst: 0, shape: 'leaky', status: 500 })).status).toBe(400);
		await call('PUT', '/__sandbox/rate-limit', null);
	});
});
