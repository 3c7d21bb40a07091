/**
 * The review of the send rate at 374c6dd (issue 32): each defect it demonstrated, asserted the right
 * way round here (each of these failed on that commit).
 */
import { getEventListeners } from 'events';
import { router } from '../../nodes/Recruiting/actions/router';
import { recruitingRequest } from '../../nodes/shared/transport/request';
import { SendRate } from '../../nodes/shared/transport/sendRate';
import type { SendTicket } from '../../nodes/shared/transport/sendQueue';
import { runOf, startRun, WaitBudget } from '../../nodes/shared/transport/state';
import { RateLimitWaitExceeded } from '../../nodes/shared/transport/classify';
import { testNode } from '../harness/testNode';
import { fakeContext, flush, limitedService, ok, runGets, settle, T0 } from './sendRateBench';

beforeEach(() => jest.useFakeTimers({ now: T0 }));
afterEach(() => jest.useRealTimers());

const refusal = (seconds: number) => ({ status: 429, headers: { 'retry-after': String(seconds) } });
const OK = { status: 200, headers: {} };

test('D1: the wall clock stepped back an hour during a 10 s pause: the next request waits the 10 s, nothing fails', async () => {
	const rate = new SendRate();
	(await rate.acquire(new WaitBudget(300_000))).done(refusal(10));
	jest.setSystemTime(Date.now() - 3600_000);
	const next = settle(rate.acquire(new WaitBudget(300_000)));
	await flush(9_900);
	expect(next.done).toBe(false);
	await flush(200);
	expect(next.error).toBeUndefined();
	expect(next.done).toBe(true);
});

test('D2: the wall clock stepped back an hour while paced by headers: the request still leaves within the second', async () => {
	const rate = new SendRate();
	(await rate.acquire(new WaitBudget(300_000))).done({ status: 200, headers: { ratelimit: '"d";r=0;t=1', 'ratelimit-policy': '"d";q=10;w=1' } });
	jest.setSystemTime(Date.now() - 3600_000);
	const next = settle(rate.acquire(new WaitBudget(300_000)));
	await flush(1_000);
	expect(next.done).toBe(true);
});

test('D3: a pause that rejects every waiter leaves no timer, and the credential idle', async () => {
	const rate = new SendRate();
	const a = settle(rate.acquire(new WaitBudget(300_000)));
	await flush();
	const b = settle(rate.acquire(new WaitBudget(300_000)));
	await flush();
	(a.value as SendTicket).done(refusal(3600));
	await flush();
	expect(b.error).toBeInstanceOf(RateLimitWaitExceeded);
	expect(jest.getTimerCount()).toBe(0);
	await flush(60 * 60_000);
	expect(rate.idleFor(60 * 60_000)).toBe(true);
});

test('D4: one record answered 500 three times does not narrow the window for the other requests', async () => {
	const f = fakeContext();
	startRun(f.ctx, { itemsInFlight: 64 });
	const warm = Array.from({ length: 100 }, (_, i) => settle(recruitingRequest.call(f.ctx, { method: 'GET', path: `/w${i}` })));
	for (let step = 0; step < 100 && !warm.every((r) => r.done); step++) {
		await flush(20);
		f.open().forEach((c) => c.answer(ok));
	}
	const bad = settle(recruitingRequest.call(f.ctx, { method: 'GET', path: '/bad' }));
	for (let step = 0; step < 400 && !bad.done; step++) {
		await flush(10);
		f.open().forEach((c) => c.answer({ statusCode: 500, body: { title: 'Oops' } }));
	}
	expect(f.calls.filter((c) => c.path === '/bad')).toHaveLength(3);
	f.resetMax();
	// 100 answers opened the window to about 50 (it grows while it holds requests back); three 500s
	// once cut it to 4 (the review's case: 64 → 8).
	const next = Array.from({ length: 30 }, (_, i) => settle(recruitingRequest.call(f.ctx, { method: 'GET', path: `/n${i}` })));
	await flush();
	expect(f.maxInFlight()).toBe(30);
	f.open().forEach((c) => c.answer(ok));
	await flush();
	expect(next.every((r) => r.done)).toBe(true);
});

test('D5: a run with Max Wait 10 s keeps its place behind earlier runs; an urgent run (a picker) goes first', async () => {
	const rate = new SendRate();
	const first = await rate.acquire(new WaitBudget(300_000));
	const order: string[] = [];
	const go = (name: string, budget: WaitBudget) => void rate.acquire(budget).then((t) => (order.push(name), t.done(OK)));
	const patient = new WaitBudget(300_000);
	const shortWait = new WaitBudget(10_000);
	go('default0', patient);
	go('default1', patient);
	go('maxWait10s', shortWait);
	go('picker', new WaitBudget(30_000, true));
	first.done(OK);
	await flush(100);
	expect(order).toEqual(['picker', 'default0', 'default1', 'maxWait10s']);
});

function serviceSaying(answer: { statusCode: number; headers: Record<string, string>; body: unknown }) {
	const ctx = {
		getNode: () => testNode({ name: 'R', type: 'recruiting' }),
		getCredentials: async () => ({ baseUrl: 'https://svc.test', companyId: 'c1', accessToken: `d7-${answer.headers['retry-after']}` }),
		helpers: { httpRequestWithAuthentication: async () => answer },
	};
	return () => {
		const context = { ...ctx } as never;
		startRun(context, {});
		return context;
	};
}

test('D7: a 503 with Retry-After 600 (maintenance) is reported to the next item as the service unavailable, not rate limiting', async () => {
	const context = serviceSaying({ statusCode: 503, headers: { 'retry-after': '600' }, body: { title: 'Maintenance' } });
	const first = settle(recruitingRequest.call(context(), { method: 'POST', path: '/candidates', body: {} }));
	await flush();
	const second = settle(recruitingRequest.call(context(), { method: 'POST', path: '/candidates', body: {} }));
	await flush();
	expect((first.error as { httpCode: string }).httpCode).toBe('503');
	const error = second.error as { message: string; httpCode: string; description: string };
	expect(error.httpCode).toBe('503');
	expect(error.message).toBe('The service is unavailable and asked to wait 10 min before the next request');
	expect(error.description).toContain('The node stops this run');
});

test('a Retry-After of 3 hours is told as 3 hours, with what the node does (a pause lasts an hour at most)', async () => {
	const context = serviceSaying({ statusCode: 429, headers: { 'retry-after': String(3 * 3600) }, body: { title: 'Slow down' } });
	const s = settle(recruitingRequest.call(context(), { method: 'GET', path: '/x' }));
	await flush();
	const error = s.error as { message: string; description: string };
	expect(error.message).toBe('The service is rate limiting requests and asked to wait 3 h more');
	expect(error.description).toContain('requests with this credential try again in 1 h');
});

test('D8: 500 node runs in one execution leave no listener on its cancel signal', async () => {
	jest.useRealTimers();
	const execution = new AbortController();
	const params: Record<string, unknown> = { resource: 'tag', operation: 'getMany', returnAll: true };
	const context = () => ({
		getInputData: () => [{ json: {} }],
		getNodeParameter: (name: string, _i: number, fallback?: unknown) => (name in params ? params[name] : fallback),
		getNode: () => testNode({ name: 'R', type: 'recruiting', parameters: {} }),
		continueOnFail: () => false,
		getCredentials: async () => ({ baseUrl: 'https://svc.test', companyId: 'c1', accessToken: 'd8' }),
		getExecutionCancelSignal: () => execution.signal,
		helpers: {
			httpRequestWithAuthentication: async () => ({ statusCode: 200, headers: {}, body: { items: [{ id: 't1', name: 'x' }], meta: { has_next_page: false } } }),
		},
	});
	for (let i = 0; i < 500; i++) await router.call(context() as never);
	expect(getEventListeners(execution.signal, 'abort')).toHaveLength(0); // was: 500
	// While a run goes on, a stop still drops its waiting requests.
	const running = context();
	const run = startRun(running, { cancelSignal: execution.signal });
	execution.abort();
	expect(run.waitBudget.cancelled).toBe(true);
});

test('D9: a test\'s seeded Math.random reaches the back-off\'s jitter', async () => {
	const spy = jest.spyOn(Math, 'random').mockReturnValue(0);
	const rate = new SendRate();
	(await rate.acquire(new WaitBudget(300_000))).done({ status: 429, headers: {} });
	const next = settle(rate.acquire(new WaitBudget(300_000)));
	await flush(499);
	expect(next.done).toBe(false);
	await flush(1);
	expect(next.done).toBe(true); // jitter 0: exactly half the first back-off
	spy.mockRestore();
});

test('a request from a context whose run was never started is an error, not a silent default', async () => {
	const ctx = { getNode: () => testNode({ name: 'R', type: 'recruiting' }) };
	expect(() => runOf(ctx)).toThrow('startRun was not called');
});

test('a credential first used an hour after the process started measures its rate from its first request, not from the clock\'s zero', async () => {
	// The monotonic clock counts from the process's start: measured from there, the first refusal
	// read 0.1/s (through real n8n: 100 GETs at 2/s took 77 s instead of 48).
	await flush(60 * 60_000);
	const service = limitedService({ rate: 2, burst: 5 });
	const { results, seconds } = await runGets(service, 100);
	expect(results.filter((r) => r.error)).toEqual([]);
	expect(seconds).toBeLessThanOrEqual((95 / 2) * 1.15);
});
