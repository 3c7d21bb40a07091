/**
 * Issue 32's targets for limits shared or moved, on the fake clock: each "process" is a SendRate of
 * its own (one per credential per process), all against one bucket of the sandbox's limiter, each
 * request answered after a 20 ms round trip.
 */
import { SendRate } from '../../nodes/shared/transport/sendRate';
import { WaitBudget } from '../../nodes/shared/transport/state';
import { RateLimiter, type RateLimitConfig } from '../../sandbox/rateLimit';
import { flush, seedRandom, T0 } from './sendRateBench';

beforeEach(() => {
	jest.useFakeTimers({ now: T0 });
	// The back-off's jitter from a seeded generator: the same run every time (unseeded, 4 processes
	// with RateLimit headers were refused 73 to 101 times over 12 runs).
	seedRandom(20261127);
});
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

/** `count` GETs through `rate` against `limiter`; resolves with when each got through (ms on the fake clock). */
function process(rate: SendRate, limiter: RateLimiter, count: number) {
	const budget = new WaitBudget(300_000);
	const doneAt: number[] = [];
	let refused = 0;
	const one = async (): Promise<void> => {
		for (;;) {
			const ticket = await rate.acquire(budget);
			await new Promise((resolve) => setTimeout(resolve, 20));
			const admission = limiter.admit('token');
			ticket.done({ status: admission.allowed ? 200 : (admission.status ?? 429), headers: admission.headers });
			if (admission.allowed) return void doneAt.push(Date.now());
			refused++;
		}
	};
	let finished = false;
	const all = Promise.all(Array.from({ length: count }, one)).then(() => (finished = true));
	return { all, doneAt, finished: () => finished, refused: () => refused };
}

/** How many of `times` fall in each of the `seconds` seconds from `from` (ms on the fake clock). */
function perSecondAfter(times: number[], from: number, seconds: number): number[] {
	return Array.from({ length: seconds }, (_, k) => times.filter((t) => t >= from + k * 1000 && t < from + (k + 1) * 1000).length);
}

async function until(done: () => boolean): Promise<void> {
	for (let step = 0; step < 1_000_000 && !done(); step++) await flush(10);
}

/** Processes of `counts[i]` GETs each, started together against one limiter set to `config`, run until all are done; with when each finished (s). */
async function together(config: RateLimitConfig, counts: number[]) {
	const limiter = new RateLimiter(() => Date.now());
	limiter.set(config);
	const runs = counts.map((count) => process(new SendRate(), limiter, count));
	await until(() => runs.every((run) => run.finished()));
	return { runs, ends: runs.map((run) => (Math.max(...run.doneAt) - T0) / 1000) };
}

describe('processes sharing one credential (5/s, burst 5, 150 GETs each, started together)', () => {
	test.each([2, 4])('%p processes: every GET done, the last within 1.25 × the ideal for all', async (count) => {
		const { runs, ends } = await together({ rate: 5, burst: 5 }, Array(count).fill(150));
		const ideal = (150 * count - 5) / 5;
		console.log(`${count} processes: done at ${ends.map((s) => s.toFixed(1)).join(', ')} s (ideal ${ideal.toFixed(1)} s), refused ${runs.map((run) => run.refused()).join(', ')}`);
		for (const run of runs) expect(run.doneAt).toHaveLength(150);
		expect(Math.max(...ends)).toBeLessThanOrEqual(ideal * 1.25);
	});

	// Where the service states the allowance left, a process that finds none left where it left some
	// cuts its rate as at a refusal, since others spend it too. Issue 51 let refused counts rise
	// (BENCHMARKS.md has them before and after).
	test.each(['x-ratelimit', 'x-ratelimit-delta', 'ratelimit'] as const)('2 processes with %s headers: the last done within 1.25 x the ideal, at most 10 %% refused', async (info) => {
		const { runs, ends } = await together({ rate: 5, burst: 5, info }, [150, 150]);
		const refused = runs.reduce((sum, run) => sum + run.refused(), 0);
		console.log(`2 processes, ${info}: done at ${ends.map((s) => s.toFixed(1)).join(', ')} s (ideal ${((300 - 5) / 5).toFixed(1)} s), refused ${refused}`);
		for (const run of runs) expect(run.doneAt).toHaveLength(150);
		expect(Math.max(...ends)).toBeLessThanOrEqual(((300 - 5) / 5) * 1.25);
		expect(refused).toBeLessThanOrEqual(0.1 * 300);
	});

	test.each(['x-ratelimit', 'ratelimit'] as const)('4 processes with %s headers: the last done within 1.25 x the ideal, at most 20 %% refused', async (info) => {
		const { runs, ends } = await together({ rate: 5, burst: 5, info }, [150, 150, 150, 150]);
		const refused = runs.reduce((sum, run) => sum + run.refused(), 0);
		console.log(`4 processes, ${info}: done at ${ends.map((s) => s.toFixed(1)).join(', ')} s (ideal ${((600 - 5) / 5).toFixed(1)} s), refused ${refused}`);
		// Before the shares: 216 refused with RateLimit, 573 and 1.98x with the epoch form. Now 87 with
		// the epoch form; with RateLimit 73 to 101 over 12 runs of different jitter.
		for (const run of runs) expect(run.doneAt).toHaveLength(150);
		expect(Math.max(...ends)).toBeLessThanOrEqual(((600 - 5) / 5) * 1.25);
		expect(refused).toBeLessThanOrEqual(0.2 * 600);
	});

	// Guards from a hostile review of an earlier fix, taken back (git 2daa5dd): each held before it
	// and failed with it. That fix cut only the processes that saw others spend, and a process that
	// never saw them kept it all.
	test('with RateLimit headers at 50/s burst 50, a short job (300 GETs) beside a long one (3,000) gets its share: done within 30 s', async () => {
		const { runs, ends } = await together({ rate: 50, burst: 50, info: 'ratelimit' }, [3000, 300]);
		const [short, shortDone] = [runs[1], ends[1]];
		console.log(`a short job beside a long one, RateLimit headers: done at ${shortDone.toFixed(1)} s (its fair share ~12 s), refused ${short.refused()}`);
		// The fix taken back: 115.6 s, nothing got through from 4 s to 108 s.
		expect(short.doneAt).toHaveLength(300);
		expect(shortDone).toBeLessThanOrEqual(30);
	});

	test('with RateLimit headers at 50/s burst 50, a short job (1,000 GETs) beside a long one (15,000): every item, done within 60 s', async () => {
		const { runs, ends } = await together({ rate: 50, burst: 50, info: 'ratelimit' }, [15_000, 1000]);
		console.log(`1,000 beside 15,000, RateLimit headers: done at ${ends[1].toFixed(1)} s (its fair share ~40 s), refused ${runs[1].refused()}`);
		// The fix taken back: 947 of the 1,000 failed their Max Wait.
		expect(runs[1].doneAt).toHaveLength(1000);
		expect(ends[1]).toBeLessThanOrEqual(60);
	});

	test('a fixed window of 60 per 60 s with X-RateLimit-* (delta), 2 processes × 150 GETs: done in 5 windows', async () => {
		const { ends } = await together({ rate: 1, burst: 60, shape: 'window', info: 'x-ratelimit-delta' }, [150, 150]);
		console.log(`fixed window 60 per 60 s, 2 processes: done at ${ends.map((s) => s.toFixed(1)).join(', ')} s`);
		// The fix taken back: 300.4 s, the last process left its window partly unspent (a 6th window: with a quota per hour, an hour more).
		expect(Math.max(...ends)).toBeLessThanOrEqual(241);
	});

	/** Got through per second by the long process, each second after the short one (of `shortCount` GETs) left (`info`: the headers the limiter sends). */
	async function afterDeparture(info: RateLimitConfig['info'] = 'none', shortCount = 100): Promise<number[]> {
		const limiter = new RateLimiter(() => Date.now());
		limiter.set({ rate: 5, burst: 5, info });
		const short = process(new SendRate(), limiter, shortCount);
		const long = process(new SendRate(), limiter, 600);
		await until(short.finished);
		const left = Math.max(...short.doneAt);
		await until(() => long.finished() || Date.now() >= left + 50_000);
		const perSecond = perSecondAfter(long.doneAt, left, 50);
		console.log(`${info}: the short process left at ${((left - T0) / 1000).toFixed(1)} s; the other's GETs per second after: ${perSecond.join(' ')}`);
		return perSecond;
	}

	/** The second after the departure from which the other holds >= 80 % of the allowance (4/s): 5 s in a row averaging that; Infinity if never. */
	const reachedAt = (perSecond: number[]) => {
		const k = perSecond.findIndex((_, k) => k + 5 <= perSecond.length && perSecond.slice(k, k + 5).reduce((a, b) => a + b, 0) / 5 >= 4);
		return k < 0 ? Infinity : k;
	};
	const reachedBy = (perSecond: number[], seconds: number) => reachedAt(perSecond) <= seconds;
	/** Issue 42's takeover target over several moments: >= 80 % within 10 s on average, 20 s at the slowest. */
	const expectTakeover = (seconds: number[]) => {
		expect(seconds.reduce((a, b) => a + b, 0) / seconds.length).toBeLessThanOrEqual(10);
		expect(Math.max(...seconds)).toBeLessThanOrEqual(20);
	};

	test('when one process stops, the other takes >= 80 % of the allowance within 20 s', async () => {
		expect(reachedBy(await afterDeparture(), 20)).toBe(true);
	});

	// Issue 32 asked for 10 s at every moment, which pulls against few refusals for a lone process
	// (docs/rate-limits.md); issue 42 settled it: 10 s on average, 20 s at the slowest.
	test('when one process stops (8 moments: the short process of 60 to 200 GETs), the other takes >= 80 % of the allowance within 10 s on average, 20 s at the slowest', async () => {
		const seconds: number[] = [];
		for (const shortCount of [60, 80, 100, 120, 140, 160, 180, 200]) seconds.push(reachedAt(await afterDeparture('none', shortCount)));
		console.log(`one of two stops, no headers: the other holds 80 % after ${seconds.join(', ')} s (mean ${(seconds.reduce((a, b) => a + b, 0) / 8).toFixed(1)} s)`);
		expectTakeover(seconds);
	});

	test('with X-RateLimit-* headers, when one process stops the other takes >= 80 % of the allowance within 10 s', async () => {
		expect(reachedBy(await afterDeparture('x-ratelimit'), 10)).toBe(true);
	});

	test('and then, alone, it keeps >= 90 % of the allowance (not 80 %: the rate refused is not just the average since the last refusal)', async () => {
		const perSecond = await afterDeparture();
		expect(perSecond.slice(30, 50).reduce((a, b) => a + b, 0) / 20).toBeGreaterThanOrEqual(4.5);
	});

	/**
	 * The issue's own case: `count` processes of 150 GETs started together, no headers, the jitter
	 * seeded with `seed`. Got through per second by the others together, each second after the
	 * first process is done, up to the second in which the last is done.
	 */
	async function afterFirstDone(count: number, seed: number): Promise<number[]> {
		seedRandom(seed);
		const { runs } = await together({ rate: 5, burst: 5 }, Array(count).fill(150));
		const ends = runs.map((run) => Math.max(...run.doneAt));
		const first = Math.min(...ends);
		const others = runs.filter((_, i) => i !== ends.indexOf(first)).flatMap((run) => run.doneAt);
		const seconds = Math.floor((Math.max(...ends) - first) / 1000);
		return perSecondAfter(others, first, seconds);
	}

	/** When reached, or 0 when nothing was left to take over: the others were done within 2 s of the first. */
	const tookOverAt = (perSecond: number[]) => (perSecond.length <= 2 ? 0 : reachedAt(perSecond));

	test('2 processes started together: when the first is done, the other takes >= 80 % of the allowance within 10 s', async () => {
		const perSecond = await afterFirstDone(2, 20261127);
		console.log(`2 processes, after the first is done: ${perSecond.join(' ')}`);
		expect(tookOverAt(perSecond)).toBeLessThanOrEqual(10);
	});

	// Issue 32's 10 s at every seed missed 2 of 8 (11 and 19 s); issue 42's target: 10 s on average, 20 s at the slowest.
	test('4 processes started together: when the first is done, the others take >= 80 % of the allowance within 10 s on average over 8 seeds, 20 s at the slowest', async () => {
		const seconds: number[] = [];
		for (const seed of [20261127, 1, 2, 3, 4, 5, 6, 7]) {
			const perSecond = await afterFirstDone(4, seed);
			console.log(`4 processes (seed ${seed}), after the first is done: ${perSecond.join(' ')}`);
			seconds.push(tookOverAt(perSecond));
		}
		console.log(`4 processes: the others hold 80 % after ${seconds.join(', ')} s (mean ${(seconds.reduce((a, b) => a + b, 0) / 8).toFixed(1)} s)`);
		expectTakeover(seconds);
	});
});

describe('one process with allowance headers (5/s burst 5 unless said)', () => {
	type Answer = { status: number; headers: Record<string, string> };
	/**
	 * `count` GETs, `workers` at a time. `change` may turn the n-th answer the limiter let through
	 * into another (a proxy's 429, a 503); what the limiter refused is answered as it is.
	 */
	async function alone(config: RateLimitConfig, count: number, workers: number, change: (ok: Answer, n: number) => Answer | undefined = () => undefined) {
		const limiter = new RateLimiter(() => Date.now());
		limiter.set(config);
		const rate = new SendRate();
		const budget = new WaitBudget(300_000);
		let [done, allowed] = [0, 0];
		const worker = async (share: number) => {
			for (let k = 0; k < share; k++) {
				for (;;) {
					const ticket = await rate.acquire(budget);
					await new Promise((resolve) => setTimeout(resolve, 20));
					const admission = limiter.admit('token');
					const ok = { status: 200, headers: admission.headers };
					const answer = admission.allowed ? (change(ok, ++allowed) ?? ok) : { status: 429, headers: admission.headers };
					ticket.done(answer);
					if (answer.status === 200) break;
				}
				done++;
			}
		};
		for (let w = 0; w < workers; w++) void worker(count / workers);
		await until(() => done === count || Date.now() - T0 > 600_000);
		return { done, seconds: (Date.now() - T0) / 1000, refused: limiter.stats().refused };
	}

	// Found by a hostile review of the shares: a 429 without headers just after a stated reset had
	// passed left the process waiting for a reset of unknown time, for ever (72 of 300 done).
	test('one request at a time, a proxy\'s 429 every 37th answer: all done, within 1.25 x the ideal', async () => {
		const proxy = (_: Answer, n: number) => (n % 37 === 0 ? { status: 429, headers: { 'retry-after': '1' } } : undefined);
		const { done, seconds } = await alone({ rate: 5, burst: 5, info: 'x-ratelimit-delta' }, 300, 1, proxy);
		console.log(`one at a time, a proxy's 429 every 37th answer: ${done} done in ${seconds.toFixed(1)} s (ideal 59 s)`);
		expect(done).toBe(300);
		expect(seconds).toBeLessThanOrEqual(59 * 1.25);
	});

	// Also found by it: every answer of a bucket of 1 says nothing is left, which shrank the share
	// to a twentieth (4.9x the ideal at 5/s); a bucket of 2 says at most 1, which a share below
	// whole never spends (1.14x). Now 1.10x and 1.00x, as before the shares.
	test.each([1, 2])('RateLimit headers, a bucket of %p: within 1.12 x the ideal, none refused', async (burst) => {
		const { done, seconds, refused } = await alone({ rate: 5, burst, info: 'ratelimit' }, 300, 300);
		const ideal = (300 - burst) / 5;
		console.log(`RateLimit, 5/s burst ${burst}: ${done} done in ${seconds.toFixed(1)} s (ideal ${ideal.toFixed(1)} s), refused ${refused}`);
		expect(done).toBe(300);
		expect(seconds).toBeLessThanOrEqual(ideal * 1.12);
		expect(refused).toBe(0);
	});

	// From a second review: a lone process's refusals that say nothing of others cut its share (each
	// case 1.16 to 1.24x the ideal, against 1.03 to 1.05x before the shares).
	test.each([
		['RateLimit without its policy (no size stated)', { rate: 5, burst: 5, info: 'ratelimit' }, 305, 60, (ok: Answer) => ({ ...ok, headers: { ratelimit: ok.headers.ratelimit } })],
		// The ideal counts the five 503s' 2 s waits.
		['a 503 carrying the RateLimit headers every 100th answer', { rate: 5, burst: 5, info: 'ratelimit' }, 500, 109, (ok: Answer, n: number) => (n % 100 === 0 ? { status: 503, headers: { ...ok.headers, 'retry-after': '2' } } : undefined)],
		['a fixed window of 10 per 1 s with RateLimit', { rate: 10, burst: 10, info: 'ratelimit', shape: 'window' }, 300, 29, () => undefined],
	] as [string, RateLimitConfig, number, number, (ok: Answer, n: number) => Answer | undefined][])('%s: within 1.07 x the ideal', async (label, config, count, ideal, change) => {
		const { done, seconds, refused } = await alone(config, count, count, change);
		console.log(`${label}: ${done} done in ${seconds.toFixed(1)} s (ideal ${ideal.toFixed(1)} s), refused ${refused}`);
		expect(done).toBe(count);
		expect(seconds).toBeLessThanOrEqual(ideal * 1.07);
	});
});

test('a limit raised from 2/s to 20/s (burst 20): runs of 20 GETs once a minute take <= 2 s from the third on', async () => {
	const limiter = new RateLimiter(() => Date.now());
	limiter.set({ rate: 2, burst: 5 });
	const rate = new SendRate();
	const learning = process(rate, limiter, 100);
	await until(learning.finished);
	limiter.set({ rate: 20, burst: 20 });
	const times: number[] = [];
	for (let k = 0; k < 10; k++) {
		await flush(60_000);
		const start = Date.now();
		const run = process(rate, limiter, 20);
		await until(run.finished);
		times.push((Date.now() - start) / 1000);
	}
	console.log(`raised 2/s -> 20/s: runs of 20 GETs a minute apart took ${times.join(', ')} s (were 7.5 s each)`);
	for (const seconds of times.slice(2)) expect(seconds).toBeLessThanOrEqual(2);
});

test('learned low from one slow answer (10 s, then a 429): runs of 3 GETs every 30 s come back to their pace', async () => {
	const rate = new SendRate();
	const budget = new WaitBudget(300_000);
	const first = rate.acquire(budget);
	await flush();
	const a = await first;
	await flush(10_000);
	a.done({ status: 200, headers: {} });
	const b = await rate.acquire(budget);
	b.done({ status: 429, headers: { 'retry-after': '1' } });
	const durations: number[] = [];
	for (let run = 0; run < 10; run++) {
		await flush(30_000);
		const start = Date.now();
		let done = 0;
		for (let i = 0; i < 3; i++) {
			void rate.acquire(budget).then(async (ticket) => {
				await new Promise((resolve) => setTimeout(resolve, 50));
				ticket.done({ status: 200, headers: {} });
				done++;
			});
		}
		await until(() => done === 3);
		durations.push((Date.now() - start) / 1000);
	}
	console.log(`learned 0.1/s: runs of 3 GETs took ${durations.join(', ')} s (were 20 s each, for ever)`);
	expect(durations[0]).toBeLessThan(1);
	expect(Math.max(...durations)).toBeLessThan(1);
});
