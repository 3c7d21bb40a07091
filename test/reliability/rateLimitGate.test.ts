/**
 * The rate-limit gate (nodes/shared/transport/rateLimitGate.ts) through the real recruitingRequest,
 * on a fake clock, with a stand-in for n8n's HTTP helper answered by hand: the exact timing of
 * attempts against Retry-After is what the sandbox cannot show reliably. Cases from a review of
 * the gate (A, B, C and E failed on its first version).
 */
import { recruitingRequest } from '../../nodes/shared/transport/request';
import { testNode } from '../harness/testNode';

type Answer = { statusCode: number; headers?: Record<string, string>; body?: unknown } | Error;
interface Call {
	n: number;
	method: string;
	path: string;
	sentAt: number;
	answer(a: Answer): void;
	done: boolean;
}

function fakeContext() {
	const calls: Call[] = [];
	let inFlight = 0;
	let maxInFlight = 0;
	const ctx = {
		getNode: () => testNode({ name: 'R', type: 'recruiting' }),
		getCredentials: async () => ({ baseUrl: 'https://svc.test', companyId: 'c1', accessToken: 't' }),
		helpers: {
			httpRequestWithAuthentication(_type: string, options: { method: string; url: string }) {
				return new Promise((resolve, reject) => {
					inFlight++;
					maxInFlight = Math.max(maxInFlight, inFlight);
					const call: Call = {
						n: calls.length,
						method: options.method,
						path: options.url.replace('https://svc.test/v1.0/c1', ''),
						sentAt: Date.now(),
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
	};
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

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());
const at = (call: Call) => (call.sentAt - 1_000_000) / 1000;

test('a lone GET against endless 429s (Retry-After 1): 6 attempts, one a second, then the 429', async () => {
	const f = fakeContext();
	const s = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	for (let i = 0; i < 20 && !s.done; i++) {
		await flush();
		f.open().forEach((c) => c.answer(r429(1)));
		await flush(1000);
	}
	await flush();
	expect(f.calls.map(at)).toEqual([0, 1, 2, 3, 4, 5]);
	expect(String((s.error as Error)?.message)).toMatch(/429|slow/i);
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

test('A: a later, longer Retry-After holds the probe that was already waiting', async () => {
	const f = fakeContext();
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/a' }));
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/b' }));
	await flush();
	const [first, second] = f.open();
	first.answer(r429(1)); // t = 0: resume at 1 s
	await flush(500);
	second.answer(r429(10)); // t = 0.5: resume at 10.5 s
	await flush(9_900); // t = 10.4
	expect(f.calls).toHaveLength(2);
	await flush(200);
	expect(f.calls.map(at)).toEqual([0, 0, 10.5]);
});

test('B: requests that start while throttled go one at a time, also once their rounds are used up', async () => {
	const f = fakeContext();
	const x = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	await flush();
	f.open()[0].answer(r429(1));
	await flush();
	const later = Array.from({ length: 7 }, (_, i) => settle(recruitingRequest.call(f.ctx, { method: 'GET', path: `/p${i}` })));
	await flush();
	f.resetMax();
	for (let i = 0; i < 40 && !(x.done && later.every((p) => p.done)); i++) {
		await flush(1000);
		f.open().forEach((c) => c.answer(r429(1)));
		await flush();
	}
	expect(x.done && later.every((p) => p.done)).toBe(true);
	expect(f.maxInFlight()).toBeLessThanOrEqual(1);
});

test('C: a probe answered 503 does not end the throttle: the queued requests still go one at a time', async () => {
	const f = fakeContext();
	Array.from({ length: 10 }, (_, i) => settle(recruitingRequest.call(f.ctx, { method: 'GET', path: `/q${i}` })));
	await flush();
	f.open().forEach((c) => c.answer(r429(1)));
	await flush(1000);
	expect(f.open()).toHaveLength(1);
	f.open()[0].answer({ statusCode: 503, body: {} });
	await flush();
	f.resetMax();
	await flush(300);
	expect(f.maxInFlight()).toBeLessThanOrEqual(1);
	// The first answer that is neither 429 nor 5xx ends it: then the others go together.
	f.open()[0].answer(ok);
	await flush();
	expect(f.open().length).toBeGreaterThan(1);
});

test('E: a request that may not wait (the delivery path\'s key fetch) is not held behind a throttled context', async () => {
	const f = fakeContext();
	settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/x' }));
	await flush();
	f.open()[0].answer(r429(60));
	await flush();
	const key = settle(
		recruitingRequest.call(f.ctx, { method: 'GET', path: '/key', policy: { maxRateLimitWaits: 0, maxRetries: 0, timeoutMs: 5000 } }),
	);
	await flush();
	expect(f.calls.map((c) => c.path)).toContain('/key');
	f.calls.find((c) => c.path === '/key')?.answer(r429(60));
	await flush();
	expect(key.done).toBe(true);
	expect(f.calls.filter((c) => c.path === '/key')).toHaveLength(1);
});
