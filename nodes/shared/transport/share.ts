/**
 * This process's share of an allowance the service states in headers (pace.ts), which other n8n
 * processes on the same credential (queue-mode workers, a second instance) may be spending too.
 * Nothing tells a process of the others but the service's answers, so every process follows the
 * same rules, and their shares converge like TCP's (additive increase, multiplicative decrease):
 *
 * - a refusal by the limiter halves it (not that of a request sent when the last answer said
 *   nothing was left, which says nothing of the others, nor a proxy's 429 or a 503);
 * - while the answers say nothing is left of a bucket whose rate is known, within CONTESTED_MS of
 *   a refusal, it shrinks by DECAY a second: every process spending the allowance sees that, not
 *   only the one refused, so the one that takes the most is not the last to give way (a process
 *   alone, not refused, sees nothing left whenever it spends the whole rate, and keeps its share);
 * - otherwise it grows, the faster the more is left unspent (what a process that stopped leaves).
 *
 * A process alone is not refused, and what a share below whole leaves unspent it finds left in its
 * next answers and spends then.
 */

const CUT = 0.5;
/** Growth a second while nothing is left unspent; up to (1 + UNSPENT_GROWTH) times that while all is. */
const GROWTH = 0.01;
const UNSPENT_GROWTH = 10;
const DECAY = 0.1;
/** For this long after a refusal, nothing left means others may be spending it too (DECAY). */
const CONTESTED_MS = 30_000;
/** The least share: a twentieth of the allowance. */
const MIN_SHARE = 0.05;

export class Share {
	/** The share at `at` (monotonic ms), changing by `perSecond` since. */
	private value = 1;
	private at = 0;
	private perSecond = 0;
	private cutAt = -Infinity;

	/**
	 * The share at `now`: never so small that `most` (the most an answer said was left) would give
	 * this process none of it (a bucket of 1 or 2, where answers say 0 or 1 is left, is not shared out).
	 */
	of(now: number, most: number): number {
		return Math.max(this.current(now), 1 / Math.max(1, most));
	}

	/** A refusal by the limiter whose allowance is stated, of a request sent on what an answer said was left. */
	cut(now: number): void {
		this.set(now, this.current(now) * CUT, GROWTH);
		this.cutAt = now;
	}

	/** An answer said `left` of `limit` (undefined: unknown) was left; `rateKnown`: the allowance's refill rate is. */
	answered(now: number, left: number, limit: number | undefined, rateKnown: boolean): void {
		const unspent = left / (limit ?? Math.max(1, left));
		const contested = left < 1 && rateKnown && now - this.cutAt < CONTESTED_MS;
		this.set(now, this.current(now), contested ? -DECAY : GROWTH * (1 + UNSPENT_GROWTH * unspent));
	}

	private current(now: number): number {
		return Math.min(1, Math.max(MIN_SHARE, this.value + (this.perSecond * (now - this.at)) / 1000));
	}

	private set(now: number, value: number, perSecond: number): void {
		this.value = Math.max(MIN_SHARE, value);
		this.at = now;
		this.perSecond = perSecond;
	}
}
