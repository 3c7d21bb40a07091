import type { Allowance } from './allowance';
import { Share } from './share';

/**
 * The pace: how many requests a second one credential sends, as a token bucket of our own, so the
 * requests waiting after a refusal leave spaced, never as a burst.
 *
 * - Until the service first refuses, there is no pace (the window alone limits, sendRate.ts).
 * - Where the service states its allowance in headers, they give it: what is left (less what is on
 *   its way), the rate where stated or as read from what is left over a few seconds, the reset; of
 *   which this process takes its share (share.ts), since other processes may be spending it too.
 * - Otherwise CUBIC, as the AWS SDKs' adaptive retry mode: a refusal restarts the pace at BETA of
 *   the rate refused, and from then on the pace is a cubic of the real time since that refusal. It
 *   comes back to the refused rate after K seconds, stays near it, then probes above it faster and
 *   faster. Being a function of time, not of requests, a pace learned too low comes back by itself
 *   however short the runs are; and since its growth does not depend on the rate, processes sharing
 *   one allowance drift towards equal shares, and when one stops the others soon take it all.
 */

/** After a refusal the pace restarts at this share of the rate refused. */
const BETA = 0.7;
/**
 * Growth of the cubic in requests/s per s³: about 10 s back to a refused 2/s, 17 s to 10/s. Larger
 * probes more often (more refusals); smaller takes longer to take over a share another process left.
 */
const SCALE = 0.0006;
/** The slowest pace: six requests a minute. */
const MIN_RATE = 0.1;
/** Past this multiple of the rate refused, the pace is lifted: the window alone limits again. */
const LIFTED = 16;
/** Our bucket holds one second of the pace (at most of the rate refused): what a quiet spell lets leave at once. */
const BURST_SECONDS = 1;
/** Answers in a row without allowance headers after which the headers are no longer followed. */
const HEADERLESS_ANSWERS = 20;

interface Stated {
	/** Requests per second, stated by the policy or read from what is left; undefined until known. */
	rate?: number;
	limit?: number;
	/** When the stated allowance is whole again (monotonic ms); Infinity once spent or unknown. */
	resetAt: number;
	/**
	 * Set by a refusal: nothing refills before the reset. A window refills nothing before it; a
	 * bucket is whole by then (its reset is when it is full), unless it is seen refilling.
	 */
	windowed?: boolean;
	/** What the last answer said was left, until the next reset. */
	left?: number;
	/** The most an answer said was left: a full allowance less the request answered. */
	most: number;
	/** The answer the refill is read from: what was left then, and the answers since. */
	reference?: { at: number; remaining: number; answers: number; resetAt: number };
}

export class Pace {
	private tokens = Infinity;
	private refilledAt = 0;
	private lastTakenAt = -Infinity;
	/** CUBIC's state: the rate refused, when, and the seconds to come back to it. */
	private refusedRate = Infinity;
	private refusedAt = 0;
	private k = 0;
	/** A rate measured one request at a time is at most the service's: held, not cut, until the cubic passes it. */
	private held = 0;
	private stated: Stated | undefined;
	private headerless = 0;
	private readonly share = new Share();

	/**
	 * Of `left`, what this process may spend at once: its share, rounded down, so that processes do
	 * not all spend the last request (the pace sends it, or in a window a look again).
	 */
	private spendable(left: number, now: number): number {
		return Math.floor(left * this.shareAt(now));
	}

	private shareAt(now: number): number {
		return this.share.of(now, this.stated?.most ?? 0);
	}

	/** Requests per second at `now`; Infinity: no pace. */
	rate(now: number): number {
		if (this.stated) return (this.stated.rate ?? Infinity) * this.shareAt(now);
		if (this.refusedRate === Infinity) return Infinity;
		const rate = this.refusedRate + SCALE * ((now - this.refusedAt) / 1000 - this.k) ** 3;
		return rate >= this.refusedRate * LIFTED ? Infinity : Math.max(MIN_RATE, this.held, rate);
	}

	/**
	 * Whether a pace found by refusals has been lifted: nothing spaces the requests, as before the
	 * first refusal. Never where the service states its allowance: what is left spaces them.
	 */
	lifted(now: number): boolean {
		return this.stated === undefined && this.refusedRate !== Infinity && this.rate(now) === Infinity;
	}

	/** A lifted pace is forgotten, as if never refused; true if it was. */
	forgetIfLifted(now: number): boolean {
		if (!this.lifted(now)) return false;
		// `held` and the cubic's other state are read only once refused again, which sets them anew.
		this.refusedRate = Infinity;
		return true;
	}

	/** Milliseconds until one request may leave (0: now). */
	delay(now: number, inFlight: number): number {
		this.refill(now, inFlight);
		if (this.tokens >= 1) return 0;
		const rate = this.rate(now);
		const paced = rate !== Infinity && !this.waitingForReset(now);
		const refill = paced ? ((1 - this.tokens) / rate) * 1000 : Infinity;
		const reset = this.stated ? this.stated.resetAt - now : Infinity;
		// A look again is due only where nothing refills (refill, below): else it would wake us every ms.
		const lookAgain = paced ? Infinity : this.lookAgainAt(now) - now;
		return Math.max(1, Math.min(refill, reset, lookAgain));
	}

	/**
	 * Nothing left and no refill (no rate known, or a window waiting for its reset): one request a
	 * second shows what a bucket refilled. A window refills nothing before its reset: once one such
	 * request is refused, wait for the reset, unless the last answer left some that our share did not
	 * spend, or the reset's time is unknown (none stated, or the last one spent): waiting for it could
	 * be for ever.
	 */
	private lookAgainAt(now: number): number {
		const unspent = (this.stated?.left ?? 0) >= 1;
		const known = this.stated?.resetAt !== Infinity;
		return this.waitingForReset(now) && !unspent && known ? Infinity : this.lastTakenAt + 1000;
	}

	/** A window (stated.windowed) refills nothing before its reset, whatever rate its policy states. */
	private waitingForReset(now: number): boolean {
		return this.stated?.windowed === true && this.stated.resetAt > now;
	}

	/**
	 * One request leaves (call only when `delay` said 0). True when the last answer said nothing was
	 * left: it leaves on our own reckoning (the rate's refill, a look again), not on the service's word.
	 */
	take(now: number): boolean {
		this.tokens -= 1;
		this.lastTakenAt = now;
		return (this.stated?.left ?? 1) < 1;
	}

	/**
	 * A refusal: CUBIC's cut, from the rate refused (or what got through lately, if less). A refusal
	 * with nothing let through since the last one tells no rate: the back-off handles it. Measured
	 * one request at a time through a pause (`oneAtATime`), no cut: that is at most the service's rate.
	 * A refusal by the limiter (`stated`: a 429 stating the allowance; not a proxy's 429 without it,
	 * nor a 503, which say nothing of the allowance) marks a window, and cuts the share unless the
	 * request left when nothing was (`onNothingLeft`): its refusal says nothing of other processes.
	 */
	refused(now: number, inFlight: number, measured: number | undefined, sent: { oneAtATime: boolean; onNothingLeft: boolean; stated: boolean }): void {
		this.refill(now, inFlight);
		if (this.stated && sent.stated) {
			this.stated.windowed = true;
			if (!sent.onNothingLeft) this.share.cut(now);
		}
		if (measured === undefined) return;
		this.refusedRate = Math.max(MIN_RATE, Math.min(this.rate(now), measured));
		this.refusedAt = now;
		this.k = Math.cbrt((this.refusedRate * (1 - BETA)) / SCALE);
		this.held = sent.oneAtATime ? this.refusedRate : 0;
		this.tokens = 0;
	}

	/** An answer: its allowance headers, if any, are followed; `inFlight` requests will still spend from it. */
	answered(now: number, allowance: Allowance | undefined, inFlight: number): void {
		if (allowance) {
			this.headerless = 0;
			this.follow(now, allowance, inFlight);
		} else if (this.stated && ++this.headerless >= HEADERLESS_ANSWERS) {
			// Headers seen once (say only on a 429) and then no more: the refusals give the pace again.
			this.stated = undefined;
		}
	}

	private refill(now: number, inFlight: number): void {
		const stated = this.stated;
		if (stated && stated.resetAt <= now) {
			// The stated allowance is whole again: spend our share of it. A bucket's policy may state its
			// quota per window, more than the bucket holds: the most answers showed left caps it. Of a
			// size neither stated nor seen, all of it: the next answers say what is left.
			const seen = stated.most > 0 ? stated.most + 1 : Infinity;
			const whole = Math.min(stated.limit ?? Infinity, seen);
			this.tokens = whole === Infinity ? Infinity : Math.max(0, this.spendable(whole, now) - inFlight);
			stated.resetAt = Infinity;
			stated.left = undefined;
		}
		const rate = this.rate(now);
		if (rate === Infinity || this.waitingForReset(now)) {
			if (!stated) this.tokens = Infinity;
			else if (this.tokens < 1 && now >= this.lookAgainAt(now)) this.tokens = 1;
		} else {
			// Probing above the rate refused goes paced, never as a burst: a burst the size of the probe
			// after a quiet spell would be refused all at once.
			const capacity = stated?.limit ?? Math.max(1, Math.min(rate, this.refusedRate) * BURST_SECONDS);
			const filled = this.tokens === Infinity ? capacity : this.tokens + ((now - this.refilledAt) / 1000) * rate;
			this.tokens = Math.min(capacity, filled);
		}
		this.refilledAt = now;
	}

	private follow(now: number, allowance: Allowance, inFlight: number): void {
		const stated = (this.stated ??= { resetAt: Infinity, most: 0 });
		if (allowance.limit !== undefined) stated.limit = Math.max(1, allowance.limit);
		// More left than the last answer said, before a reset: a bucket refilling, not a window.
		if (stated.left !== undefined && allowance.remaining > stated.left && stated.resetAt > now) stated.windowed = false;
		stated.left = allowance.remaining;
		if (Number.isFinite(allowance.remaining)) stated.most = Math.max(stated.most, allowance.remaining);
		stated.resetAt = allowance.resetSeconds === undefined ? Infinity : now + allowance.resetSeconds * 1000;
		if (allowance.rate !== undefined && allowance.rate > 0) stated.rate = allowance.rate;
		else this.readRefill(stated, allowance, now);
		this.share.answered(now, allowance.remaining, stated.limit, stated.rate !== undefined);
		this.refilledAt = now;
		// The service's word, less what is on its way, replaces ours (between answers it refills at the rate).
		this.tokens = Math.max(0, this.spendable(allowance.remaining, now) - inFlight);
	}

	/**
	 * No stated rate: what is left, read over a few seconds, tells it. From a reference answer on,
	 * the allowance refilled by (left now − left then + the answers in between); a full allowance
	 * (which cannot grow) starts a new reference, and so does a reset passed since: a fixed window
	 * refills nothing before its reset, and all at once at it, which is no rate.
	 */
	private readRefill(stated: Stated, allowance: Allowance, now: number): void {
		const full = allowance.limit !== undefined && allowance.remaining >= allowance.limit - 1;
		if (!stated.reference || full || stated.reference.resetAt <= now) {
			stated.reference = { at: now, remaining: allowance.remaining, answers: 0, resetAt: stated.resetAt };
			return;
		}
		stated.reference.answers++;
		const seconds = (now - stated.reference.at) / 1000;
		const refilled = allowance.remaining - stated.reference.remaining + stated.reference.answers;
		// What is left comes as a whole number, the bucket's fraction dropped: one less is the least refilled.
		if (seconds >= 2 && refilled > 1) stated.rate = Math.max(MIN_RATE, (refilled - 1) / seconds);
	}
}
