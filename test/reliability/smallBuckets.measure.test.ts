/**
 * Issue 42 item 2 (small buckets: a burst of 0 to 2, 1/s to 100/s, no allowance headers), measured
 * on the fake clock through the real recruitingRequest: a first run on a new credential, then a later
 * run after 10 s of quiet. Not a gate: the figures are printed (docs/rate-limits.md, nginx's
 * limit_req), and only the absence of failed items is asserted. Skipped unless asked for:
 *
 *   MEASURE=1 npx jest test/reliability/smallBuckets.measure.test.ts
 *
 * CASES=<regexp> picks cases by name. Ideal: (N − burst) ÷ rate; nginx (`leaky`): (N − burst − 1) ÷ rate.
 */
import { type RateLimitConfig } from '../../sandbox/rateLimit';
import { flush, limitedService, runGets, useFakeClock } from './sendRateBench';

useFakeClock();

const ideal = (n: number, c: RateLimitConfig) => (n - c.burst - (c.shape === 'leaky' ? 1 : 0)) / c.rate;
const cases: [string, RateLimitConfig, number][] = [
	['10/s b1 none', { rate: 10, burst: 1, retryAfter: 'none' }, 300],
	['10/s b1 RA', { rate: 10, burst: 1 }, 300],
	['10/s b2 none', { rate: 10, burst: 2, retryAfter: 'none' }, 300],
	['20/s b3 none', { rate: 20, burst: 3, retryAfter: 'none' }, 300],
	['20/s b3 RA', { rate: 20, burst: 3 }, 300],
	['100/s b1 none', { rate: 100, burst: 1, retryAfter: 'none' }, 1000],
	['100/s b1 RA', { rate: 100, burst: 1 }, 1000],
	['30/s b1 none', { rate: 30, burst: 1, retryAfter: 'none' }, 300],
	['1/s b1 none', { rate: 1, burst: 1, retryAfter: 'none' }, 60],
	['1/s b2 RA', { rate: 1, burst: 2 }, 60],
	['5/s b2 none', { rate: 5, burst: 2, retryAfter: 'none' }, 60],
	['nginx 5 b0 503', { rate: 5, burst: 0, shape: 'leaky' }, 60],
	['nginx 5 b0 503 x300', { rate: 5, burst: 0, shape: 'leaky' }, 300],
	['nginx 5 b2 503', { rate: 5, burst: 2, shape: 'leaky' }, 60],
	['nginx 50 b0 429', { rate: 50, burst: 0, shape: 'leaky', status: 429 }, 1000],
];
const only = process.env.CASES ? new RegExp(process.env.CASES) : undefined;

(process.env.MEASURE ? test : test.skip).each(cases.filter(([name]) => !only || only.test(name)))('%s', async (name, config, n) => {
	const service = limitedService(config);
	const first = await runGets(service, n);
	const r1 = first.stats.refused;
	await flush(10_000);
	const later = await runGets(service, n);
	const r2 = later.stats.refused - r1;
	const i = ideal(n, config);
	console.log(
		`SB ${name.padEnd(22)} n=${n} first ${first.seconds.toFixed(1)} s ${(first.seconds / i).toFixed(2)}x refused ${r1} | later ${later.seconds.toFixed(1)} s ${(later.seconds / i).toFixed(2)}x refused ${r2}`,
	);
	expect([...first.results, ...later.results].filter((r) => r.error)).toEqual([]);
}, 300_000);
