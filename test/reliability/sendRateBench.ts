/**
 * The send rate's test bench on a fake clock (Jest's fake timers, which also drive performance.now):
 * the real recruitingRequest with a stand-in for n8n's HTTP helper, answered by hand or by the
 * sandbox's own limiter (sandbox/rateLimit.ts) on the fake clock, so that time, order and counts are
 * exact and no wall-clock bound is asserted.
 */
import { recruitingRequest } from '../../nodes/shared/transport/request';
import { startRun, type RunSettings } from '../../nodes/shared/transport/state';
import { RateLimiter, type RateLimitConfig } from '../../sandbox/rateLimit';
import { testNode } from '../harness/testNode';

/** Each test its own credential: the send rate lives per credential while it is in use. */
let credentialNo = 0;

export type Answer = { statusCode: number; headers?: Record<string, string>; body?: unknown } | Error;
export interface Call {
	n: number;
	method: string;
	path: string;
	sentAt: number;
	/** The attempt's Timeout, as handed to n8n's helper. */
	timeout: number;
	answer(a: Answer): void;
	done: boolean;
}

export function fakeContext(token = `t${++credentialNo}`) {
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
	// Every entry point starts its run (state.ts); a test's context is one run with the defaults.
	startRun(ctx, {});
	return {
		ctx: ctx as never,
		calls,
		open: () => calls.filter((c) => !c.done),
		maxInFlight: () => maxInFlight,
		resetMax: () => (maxInFlight = inFlight),
		/** Another execution context (another run, with the defaults) with the same credential. */
		sibling: (settings: RunSettings = {}) => {
			const other = { ...ctx };
			startRun(other, settings);
			return other as never;
		},
	};
}

/**
 * A service behind the sandbox's limiter on the fake clock: every call is answered after `rttMs`,
 * refused (429 with its headers, or as the limiter says: nginx's 503 page) or 200.
 */
export function limitedService(config: RateLimitConfig, rttMs = 20) {
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
				const { allowed, headers, status = 429, html } = call.admission;
				call.answer(allowed ? { statusCode: 200, headers, body: { data: { n: call.n } } } : { statusCode: status, headers, body: html ?? { title: 'Too many requests' } });
			}
		}
	};
	return { ...f, limiter, pump, answered: () => answered, refusedAt };
}

/** Runs `count` GETs through one run of `ctx` (items in flight: `window`) until all are done, on the fake clock. */
export async function runGets(service: ReturnType<typeof limitedService>, count: number, window = 64, maxWaitMs?: number) {
	startRun(service.ctx, { itemsInFlight: window, maxRateLimitWaitMs: maxWaitMs });
	const started = Date.now();
	const results = Array.from({ length: count }, (_, i) => settle(recruitingRequest.call(service.ctx, { method: 'GET', path: `/c${i}` })));
	for (let step = 0; step < 2_000_000 && !results.every((r) => r.done); step++) {
		await service.pump();
		await flush(5);
	}
	return { results, seconds: (Date.now() - started) / 1000, stats: service.limiter.stats() };
}

export const r429 = (s: number): Answer => ({ statusCode: 429, headers: { 'retry-after': String(s) }, body: { title: 'slow' } });
export const ok: Answer = { statusCode: 200, body: { data: { ok: 1 } } };
/** Math.random from a seeded generator (a linear congruential one): the back-off's jitter, the same every run. Undone by jest.restoreAllMocks. */
export function seedRandom(seed: number): void {
	jest.spyOn(Math, 'random').mockImplementation(() => {
		seed = (seed * 1103515245 + 12345) % 2 ** 31;
		return seed / 2 ** 31;
	});
}

export const flush = async (ms = 0) => {
	await jest.advanceTimersByTimeAsync(ms);
};
export const settle = <T>(p: Promise<T>) => {
	const s = { done: false, value: undefined as unknown, error: undefined as unknown };
	p.then(
		(v) => ((s.done = true), (s.value = v)),
		(e) => ((s.done = true), (s.error = e)),
	);
	return s;
};

/** A real-looking time: X-RateLimit-Reset as an epoch second must read as one. */
export const T0 = Date.parse('2026-11-24T12:00:00Z');
/** Each suite: `beforeEach(() => jest.useFakeTimers({ now: T0 }))`, `afterEach(() => jest.useRealTimers())`. */
export const at = (call: Call) => (call.sentAt - T0) / 1000;

/** Every test of a suite on the fake clock from T0, with the same random draws. */
export function useFakeClock(seed = 20261128): void {
	beforeEach(() => {
		jest.useFakeTimers({ now: T0 });
		seedRandom(seed);
	});
	afterEach(() => {
		jest.useRealTimers();
		jest.restoreAllMocks();
	});
}
