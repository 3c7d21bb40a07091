/**
 * Issue 42: a 503 is overload, waited out like a 429 for every request on the credential; a 500,
 * 502 or 504 stays the request's own. And nginx's limit_req in front of the service (the sandbox's
 * `leaky` shape: 503 with its HTML page by default, no Retry-After), on the fake clock.
 */
import { recruitingRequest } from '../../nodes/shared/transport/request';
import { startRun } from '../../nodes/shared/transport/state';
import { nginxPage, type RateLimitConfig } from '../../sandbox/rateLimit';
import { at, fakeContext, flush, limitedService, ok, runGets, settle, T0, useFakeClock } from './sendRateBench';

useFakeClock();

const overloaded = { statusCode: 503, headers: { 'content-type': 'text/html' }, body: nginxPage(503) };

/** Answers every open call with `answer(call)` each 10 ms until `done()`, at most `seconds`. */
async function serve(f: ReturnType<typeof fakeContext>, answer: (path: string, n: number) => typeof ok | typeof overloaded, done: () => boolean, seconds = 600) {
	for (let step = 0; step < seconds * 100 && !done(); step++) {
		await flush(10);
		for (const call of f.open()) call.answer(answer(call.path, call.n));
	}
}

describe('a 503 is overload: waited out like a 429, for every request on the credential', () => {
	test('a GET answered 503 without Retry-After four times: waited out with back-off (not 3 attempts), then done', async () => {
		const f = fakeContext();
		const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		await serve(f, (_, n) => (n < 4 ? overloaded : ok), () => s.done);
		expect(s.error).toBeUndefined();
		expect(f.calls).toHaveLength(5);
		// Backing off from 1 s, doubled (jittered in the upper half): not the 250 ms of a request's own retry.
		const gaps = f.calls.slice(1).map((c, i) => c.sentAt - f.calls[i].sentAt);
		[1000, 2000, 4000, 8000].forEach((ceiling, i) => expect(gaps[i]).toBeGreaterThanOrEqual(ceiling / 2));
	});

	test('another run on the credential waits too: nothing else is sent while a 503 is waited out', async () => {
		const f = fakeContext();
		settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		await flush();
		f.open()[0].answer({ statusCode: 503, headers: { 'retry-after': '4' }, body: {} });
		await flush(100);
		const other = settle(recruitingRequest.call(f.sibling(), { method: 'GET', path: '/y' }));
		await flush(3_800);
		expect(f.calls.filter((c) => c.path === '/y')).toHaveLength(0);
		await serve(f, () => ok, () => other.done);
		expect(other.error).toBeUndefined();
		expect(f.calls.map(at)).toEqual([0, 4, 4]);
	});

	test('past Max Wait, the message says the service was unavailable and how long the node waited', async () => {
		const f = fakeContext();
		startRun(f.ctx, { maxRateLimitWaitMs: 20_000 });
		const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		await serve(f, () => overloaded, () => s.done);
		const error = s.error as { message: string; description: string; httpCode: string };
		expect(error.httpCode).toBe('503');
		expect(error.message).toMatch(/^The service is unavailable \(overloaded: HTTP 503\) and still was after the node waited \d+ s$/);
		expect(error.description).toContain('GET /x: this run may wait 20 s');
		console.log(`endless 503s, Max Wait 20 s: ${f.calls.length} attempts; ${error.message}`);
	});

	test('Max Wait 0: the first 503 fails the request, sent once', async () => {
		const f = fakeContext();
		startRun(f.ctx, { maxRateLimitWaitMs: 0 });
		const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		await serve(f, () => overloaded, () => s.done);
		expect(f.calls).toHaveLength(1);
		expect((s.error as { message: string }).message).toMatch(/^The service is unavailable/);
	});

	test.each([500, 502, 504])('a %p stays the request\'s own: 3 attempts, and another run on the credential is not held back', async (status) => {
		const f = fakeContext();
		const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
		await flush();
		f.open()[0].answer({ statusCode: status, body: {} });
		const other = settle(recruitingRequest.call(f.sibling(), { method: 'GET', path: '/y' }));
		await flush();
		expect(f.calls.filter((c) => c.path === '/y').map(at)).toEqual([0]);
		await serve(f, (path) => (path === '/x' ? { statusCode: status, body: {} } : ok) as typeof ok, () => s.done && other.done);
		expect(f.calls.filter((c) => c.path === '/x')).toHaveLength(3);
		expect((s.error as { httpCode: string }).httpCode).toBe(String(status));
		expect(other.error).toBeUndefined();
	});

	test('a POST answered 503 without Retry-After is not sent again (a gateway\'s 503 may come after the service acted); the credential still waits', async () => {
		const f = fakeContext();
		const post = settle(recruitingRequest.call(f.ctx, { method: 'POST', path: '/candidates', body: {} }));
		await flush();
		f.open()[0].answer(overloaded);
		await flush();
		expect(post.done).toBe(true);
		const error = post.error as { httpCode: string; description: string };
		expect(error.httpCode).toBe('503');
		expect(error.description).toContain('it may have taken effect');
		const other = settle(recruitingRequest.call(f.sibling(), { method: 'GET', path: '/y' }));
		await flush(400);
		expect(f.calls.filter((c) => c.path === '/y')).toHaveLength(0);
		await serve(f, () => ok, () => other.done);
		expect(other.error).toBeUndefined();
		expect(f.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
	});

	test('a POST answered 503 with Retry-After (the service refused it whole) is sent again after the wait, once', async () => {
		const f = fakeContext();
		const post = settle(recruitingRequest.call(f.ctx, { method: 'POST', path: '/candidates', body: {} }));
		await serve(f, (_, n) => (n === 0 ? { statusCode: 503, headers: { 'retry-after': '2' }, body: {} } : ok) as typeof ok, () => post.done);
		expect(post.error).toBeUndefined();
		expect(f.calls).toHaveLength(2);
		// Answered at 10 ms: sent again no sooner than 2 s after the answer.
		expect(at(f.calls[1])).toBeGreaterThanOrEqual(2.01);
	});
});

describe('nginx limit_req in front of the service (sandbox shape leaky, fake clock)', () => {
	/** n − (burst + 1) requests at the rate: nginx lets burst + 1 through at once. */
	const ideal = (n: number, c: RateLimitConfig) => (n - c.burst - 1) / c.rate;

	test.each([
		[0, 503],
		[2, 503],
		[0, 429],
		[2, 429],
	] as [number, 503 | 429][])('5 r/s, burst %p, status %p: 60 GETs, every item, no failed run (ratio printed)', async (burst, status) => {
		const config: RateLimitConfig = { rate: 5, burst, shape: 'leaky', status };
		const service = limitedService(config);
		const { results, seconds, stats } = await runGets(service, 60);
		console.log(`nginx limit_req 5 r/s burst ${burst} status ${status}: 60 GETs in ${seconds.toFixed(1)} s, ideal ${ideal(60, config).toFixed(1)} s, ${(seconds / ideal(60, config)).toFixed(2)}x; refused ${stats.refused}`);
		expect(results.filter((r) => r.error)).toEqual([]);
		expect(stats.allowed).toBe(60);
	});

	test('the limiter: burst + 1 at once, then one per 1/rate; a refusal changes nothing; 503 with nginx\'s page and no Retry-After', () => {
		const service = limitedService({ rate: 5, burst: 2, shape: 'leaky' });
		const admitted = [0, 0, 0, 0].map(() => service.limiter.admit('k'));
		expect(admitted.map((a) => a.allowed)).toEqual([true, true, true, false]);
		expect(admitted[3]).toMatchObject({ status: 503, headers: {} });
		expect(admitted[3].html).toContain('<center>nginx</center>');
		jest.setSystemTime(T0 + 199);
		expect(service.limiter.admit('k').allowed).toBe(false);
		jest.setSystemTime(T0 + 200);
		expect(service.limiter.admit('k').allowed).toBe(true);
		expect(service.limiter.admit('k').allowed).toBe(false);
	});
});
