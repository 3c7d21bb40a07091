import type { Allowance } from './allowance';

/**
 * The pace: how many requests a second one credential sends, as a token bucket of our own, so the
 * requests waiting after a refusal leave spaced, never as a burst.
 *
 * - Until the service first refuses, there is no pace (the window alone limits, sendRate.ts).
 * - Where the service states its allowance in headers, they give it: what is left (less what is on
 *   its way), the rate where stated or as read from what is left over a few seconds, the reset.
 *   Other processes on the credential (queue mode's workers) spend from the same allowance: once
 *   that shows, what is left only bounds our pace, which is at least what the others leave us (the
 *   rate read) and above it CUBIC's, so that the shares even out.
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
/**
 * The refill is read over this long: a whole number read twice is then a close lower bound, and a
 * share another process left is seen within seconds.
 */
const READ_MS = 8000;
/** Answers in a row without allowance headers after which the headers are no longer followed. */
const HEADERLESS_ANSWERS = 20;

interface Stated {
	/** Requests per second the policy states, if it does. */
	policyRate?: number;
	/** Requests per second read from what is left (less what others spend); undefined until known. */
	read?: number;
	limit?: number;
	/** When the stated allowance is whole again (monotonic ms); Infinity once spent or unknown. */
	resetAt: number;
	/** Set when a request sent with nothing left was refused: a window, not a bucket; wait for its reset. */
	windowed?: boolean;
	/**
	 * Set when others spend from this allowance too: less was left than our own requests explain, or
	 * one was refused while the service said some was left. What is left then only bounds our pace.
	 */
	shared?: boolean;
	/** What the latest answer said was left. */
	left?: number;
	/** Our answers that spent from the allowance, so far. */
	spent: number;
	/** What was left at each answer lately (with `spent` and `resets` then): the refill is read from them. */
	samples: { at: number; remaining: number; spent: number; resets: number }[];
	/** Resets passed so far (a bucket's moves ahead while it is drained: it passes only when full). */
	resets: number;
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

	/** Requests per second at `now`; Infinity: no pace. */
	rate(now: number): number {
		const stated = this.stated;
		if (stated && !stated.shared) return stated.policyRate ?? stated.read ?? Infinity;
		const cubic = this.cubic(now);
		if (!stated || stated.read === undefined) return Math.min(stated?.policyRate ?? Infinity, cubic);
		// Shared with other processes: at least what they leave us (the read); above it, as the refusals
		// say (CUBIC), which evens the shares out; never above the policy.
		return Math.min(stated.policyRate ?? Infinity, cubic === Infinity ? stated.read : Math.max(stated.read, cubic));
	}

	private cubic(now: number): number {
		if (this.refusedRate === Infinity) return Infinity;
		const rate = this.refusedRate + SCALE * ((now - this.refusedAt) / 1000 - this.k) ** 3;
		return rate >= this.refusedRate * LIFTED ? Infinity : Math.max(MIN_RATE, this.held, rate);
	}

	/** Milliseconds until one request may leave (0: now). */
	delay(now: number): number {
		this.refill(now);
		if (this.tokens >= 1) return 0;
		const rate = this.rate(now);
		const refill = rate === Infinity ? Infinity : ((1 - this.tokens) / rate) * 1000;
		const reset = this.stated ? this.stated.resetAt - now : Infinity;
		const lookAgain = this.lookAgainAt(now) - now;
		return Math.max(1, Math.min(refill, reset, lookAgain));
	}

	/**
	 * Nothing left and no rate known: one request a second shows what a bucket refilled (a window
	 * refills nothing before its reset: once one such request is refused, wait for the reset).
	 */
	private lookAgainAt(now: number): number {
		const stated = this.stated;
		return stated?.windowed && !stated.shared && stated.resetAt > now ? Infinity : this.lastTakenAt + 1000;
	}

	/** One request leaves (call only when `delay` said 0). */
	take(now: number): void {
		this.tokens -= 1;
		this.lastTakenAt = now;
	}

	/**
	 * A refusal: CUBIC's cut, from the rate refused (or what got through lately, if less). A refusal
	 * with nothing let through since the last one tells no rate: the back-off handles it. Measured
	 * one request at a time through a pause (`oneAtATime`), no cut: that is at most the service's rate.
	 */
	refused(now: number, measured: number | undefined, oneAtATime = false): void {
		const stated = this.stated;
		if (stated && (stated.left ?? 0) >= 1) stated.shared = true;
		else if (stated) stated.windowed = true;
		this.refill(now);
		if (measured === undefined) return;
		this.refusedRate = Math.max(MIN_RATE, Math.min(this.rate(now), measured));
		this.refusedAt = now;
		this.k = Math.cbrt((this.refusedRate * (1 - BETA)) / SCALE);
		this.held = oneAtATime ? this.refusedRate : 0;
		this.tokens = 0;
	}

	/** An answer: its allowance headers, if any, are followed; `inFlight` requests will still spend from it. */
	answered(now: number, allowance: Allowance | undefined, inFlight: number, spent = true): void {
		if (allowance) {
			this.headerless = 0;
			this.follow(now, allowance, inFlight, spent);
		} else if (this.stated && ++this.headerless >= HEADERLESS_ANSWERS) {
			// Headers seen once (say only on a 429) and then no more: the refusals give the pace again.
			this.stated = undefined;
		}
	}

	private refill(now: number): void {
		const stated = this.stated;
		if (stated && stated.resetAt <= now) {
			// The stated allowance is whole again: spend it (all of it when its size is unknown: the next
			// answers say what is left); shared with others, one request to see what they left.
			this.tokens = stated.shared ? Math.max(this.tokens, 1) : (stated.limit ?? Infinity);
			stated.resetAt = Infinity;
			stated.resets++;
		}
		const rate = this.rate(now);
		if (rate === Infinity) {
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

	private follow(now: number, allowance: Allowance, inFlight: number, spent: boolean): void {
		const stated = (this.stated ??= { resetAt: Infinity, resets: 0, spent: 0, samples: [] });
		// A reset passed since the last answer is counted before this answer states the next.
		this.refill(now);
		if (allowance.limit !== undefined) stated.limit = Math.max(1, allowance.limit);
		stated.resetAt = allowance.resetSeconds === undefined ? Infinity : now + allowance.resetSeconds * 1000;
		if (allowance.rate !== undefined && allowance.rate > 0) stated.policyRate = allowance.rate;
		const full = stated.limit !== undefined && allowance.remaining >= stated.limit - 1;
		this.readRefill(stated, allowance, now, spent, full);
		// Less left than this request and those still on their way explain: others spend from it too.
		if (stated.left !== undefined && allowance.remaining < stated.left - 1 - inFlight) stated.shared = true;
		stated.left = allowance.remaining;
		// The service's word, less what is on its way, replaces ours (between answers it refills at the
		// rate); shared with others, it only bounds ours.
		const left = Math.max(0, allowance.remaining - inFlight);
		this.refilledAt = now;
		if (!stated.shared || this.rate(now) === Infinity) this.tokens = left;
		// Full, nobody spends from it now: half of it is ours (the other half for whoever else is there).
		else this.tokens = Math.min(left, full ? Math.max(this.tokens, Math.floor(left / 2)) : this.tokens);
	}

	/**
	 * What is left, read over the last READ_MS, tells the rate (where no policy states it) and what
	 * other processes leave us: the allowance refilled by (left now − left then + what we spent in
	 * between), less what they spent from it.
	 * A full allowance (which cannot grow) starts the reading afresh, and so does a reset passed
	 * since: a fixed window refills nothing before its reset, and all at once at it, which is no rate.
	 */
	private readRefill(stated: Stated, allowance: Allowance, now: number, spent: boolean, full: boolean): void {
		if (spent) stated.spent++;
		const samples = stated.samples;
		// A reset counts where the allowance's size is unknown; known, a whole allowance shows as full.
		const reset = allowance.limit === undefined && samples.length > 0 && samples[0].resets !== stated.resets;
		if (full || reset) samples.length = 0;
		samples.push({ at: now, remaining: allowance.remaining, spent: stated.spent, resets: stated.resets });
		while (samples.length > 2 && now - samples[1].at >= READ_MS) samples.shift();
		const then = samples[0];
		const seconds = (now - then.at) / 1000;
		const refilled = allowance.remaining - then.remaining + (stated.spent - then.spent);
		// What is left comes as a whole number, the bucket's fraction dropped: one less is the least refilled.
		if (seconds >= 2 && refilled > 1) stated.read = Math.max(MIN_RATE, (refilled - 1) / seconds);
	}
}
