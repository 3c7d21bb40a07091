/** The in-memory signing key cache: one shared fetch, a bounded age, rate-limited refetches, nothing persisted. */
import type { isDuplicateDelivery as IsDuplicateDelivery } from '../../nodes/RecruitingTrigger/seenDeliveries';
import { DUPLICATE_WINDOW_MS } from '../../nodes/RecruitingTrigger/seenDeliveries';
import type * as SigningKeys from '../../nodes/RecruitingTrigger/signingKeys';
import { SIGNING_KEY_MAX_AGE_MS, SIGNING_KEY_REFETCH_INTERVAL_MS, signingKeyCacheKey } from '../../nodes/RecruitingTrigger/signingKeys';
import { clocksAt } from '../harness/clocks';
import { seenDeliveriesInNewProcess, signingKeysInNewProcess } from './process';

function source(keys: Array<string | Error>) {
	const calls = { count: 0 };
	return {
		calls,
		source: {
			cacheKey: signingKeyCacheKey('cred_1', 'wh_1'),
			load: async () => {
				const next = keys[Math.min(calls.count++, keys.length - 1)];
				if (next instanceof Error) throw next;
				return next;
			},
		},
	};
}

// Each test runs in a freshly started process: no key and no delivery id in memory.
let currentSigningKey: typeof SigningKeys.currentSigningKey;
let forgetSigningKey: typeof SigningKeys.forgetSigningKey;
let refreshedSigningKey: typeof SigningKeys.refreshedSigningKey;
let rememberSigningKey: typeof SigningKeys.rememberSigningKey;
let isDuplicateDelivery: typeof IsDuplicateDelivery;
beforeEach(() => {
	({ currentSigningKey, forgetSigningKey, refreshedSigningKey, rememberSigningKey } = signingKeysInNewProcess());
	({ isDuplicateDelivery } = seenDeliveriesInNewProcess());
});

/** The same reading on both clocks. */
const at = (ms: number) => ({ monotonic: ms, wall: ms });

it('keys by credential and webhook id', () => {
	expect(signingKeyCacheKey('c', 'w')).toBe(signingKeyCacheKey('c', 'w'));
	expect(signingKeyCacheKey('c', 'w')).not.toBe(signingKeyCacheKey('d', 'w'));
	// No separator trick makes two different pairs collide.
	expect(signingKeyCacheKey('c/w', 'x')).not.toBe(signingKeyCacheKey('c', 'w/x'));
});

it('a key is used for at most its max age, then fetched again', async () => {
	const { source: s, calls } = source(['k1', 'k2']);
	const t = 2_000_000;
	expect(await currentSigningKey(s, at(t))).toBe('k1');
	expect(await currentSigningKey(s, at(t + SIGNING_KEY_MAX_AGE_MS - 1))).toBe('k1');
	expect(calls.count).toBe(1);
	expect(await currentSigningKey(s, at(t + SIGNING_KEY_MAX_AGE_MS))).toBe('k2');
	expect(calls.count).toBe(2);
	// A shorter age (the node option) expires it sooner.
	expect(await currentSigningKey(s, at(t + SIGNING_KEY_MAX_AGE_MS + 1000), 1000)).toBe('k2');
	expect(calls.count).toBe(3);
});

it('an expired key is not used when fetching it again fails', async () => {
	const { source: s } = source(['k1', new Error('down')]);
	const t = 3_000_000;
	expect(await currentSigningKey(s, at(t))).toBe('k1');
	await expect(currentSigningKey(s, at(t + SIGNING_KEY_MAX_AGE_MS))).rejects.toThrow('down');
	expect(await currentSigningKey(s, at(t + SIGNING_KEY_MAX_AGE_MS + 1))).toBeUndefined();
});

it('fetches once, then serves from memory; concurrent lookups share one fetch', async () => {
	const { source: s, calls } = source(['k1']);
	const keys = await Promise.all([currentSigningKey(s), currentSigningKey(s), currentSigningKey(s)]);
	expect(keys).toEqual(['k1', 'k1', 'k1']);
	expect(await currentSigningKey(s)).toBe('k1');
	expect(calls.count).toBe(1);
});

it('uses a key remembered from the activation GET without fetching', async () => {
	const { source: s, calls } = source(['fetched']);
	rememberSigningKey(s.cacheKey, 'remembered');
	expect(await currentSigningKey(s)).toBe('remembered');
	expect(calls.count).toBe(0);
	forgetSigningKey(s.cacheKey);
	expect(await currentSigningKey(s)).toBe('fetched');
});

it('refetches after a mismatch at most once per interval', async () => {
	const { source: s, calls } = source(['old', 'new', 'newer']);
	const t = 1_000_000;
	expect(await currentSigningKey(s, at(t))).toBe('old');
	expect(await refreshedSigningKey(s, 'old', at(t + 1))).toBe('new');
	// A flood of forged deliveries: no fetch within the interval.
	for (let i = 0; i < 100; i++) expect(await refreshedSigningKey(s, 'new', at(t + 2 + i))).toBeUndefined();
	expect(calls.count).toBe(2);
	expect(await refreshedSigningKey(s, 'new', at(t + 1 + SIGNING_KEY_REFETCH_INTERVAL_MS))).toBe('newer');
	expect(calls.count).toBe(3);
});

it('a refetch that returns the same key reports no new key', async () => {
	const { source: s } = source(['same']);
	await currentSigningKey(s, at(0));
	expect(await refreshedSigningKey(s, 'same', at(1))).toBeUndefined();
});

it('a key already replaced by another delivery is used without fetching', async () => {
	const { source: s, calls } = source(['a']);
	rememberSigningKey(s.cacheKey, 'b');
	expect(await refreshedSigningKey(s, 'a', at(0))).toBe('b');
	expect(calls.count).toBe(0);
});

it('after a failed fetch, retries at most once per interval', async () => {
	const { source: s, calls } = source([new Error('down'), new Error('down'), 'k']);
	const t = 5_000_000;
	await expect(currentSigningKey(s, at(t))).rejects.toThrow('down');
	expect(await currentSigningKey(s, at(t + 1))).toBeUndefined();
	expect(calls.count).toBe(1);
	await expect(currentSigningKey(s, at(t + SIGNING_KEY_REFETCH_INTERVAL_MS))).rejects.toThrow('down');
	expect(await currentSigningKey(s, at(t + SIGNING_KEY_REFETCH_INTERVAL_MS + 1))).toBeUndefined();
	expect(await currentSigningKey(s, at(t + 2 * SIGNING_KEY_REFETCH_INTERVAL_MS))).toBe('k');
	expect(calls.count).toBe(3);
});

describe('ages on both clocks (issue 32, item 5)', () => {
	it.each([
		['a wall clock stepped back an hour does not keep a key past its age (the monotonic clock ends it)', -60 * 60_000, SIGNING_KEY_MAX_AGE_MS + 1000],
		['a machine suspended past the age (the monotonic clock stood still): the key is fetched again', SIGNING_KEY_MAX_AGE_MS + 1000, 0],
	])('%s', async (_, wallMovedMs, monotonicMovedMs) => {
		const { source: s, calls } = source(['k1', 'k2']);
		expect(await currentSigningKey(s)).toBe('k1');
		const restore = clocksAt(Date.now() + wallMovedMs, monotonicMovedMs);
		try {
			expect(await currentSigningKey(s)).toBe('k2');
			expect(calls.count).toBe(2);
		} finally {
			restore();
		}
	});

	it('a delivery id is remembered until both clocks say the window passed: a replay after the wall clock stepped back is caught', async () => {
		expect(isDuplicateDelivery('wh', 'msg_1')).toBe(false);
		// The wall clock stepped back 6 min while 10 min 2 s passed: the message's timestamp is
		// within the 5-minute tolerance again, and the monotonic clock alone would have forgotten it.
		let restore = clocksAt(Date.now() - 6 * 60_000, DUPLICATE_WINDOW_MS + 1000);
		expect(isDuplicateDelivery('wh', 'msg_1')).toBe(true);
		restore();
		// Stepped forward an hour while a second passed: the wall clock alone would have forgotten it.
		restore = clocksAt(Date.now() + 60 * 60_000, 1000);
		expect(isDuplicateDelivery('wh', 'msg_1')).toBe(true);
		restore();
	});
});
