import { readAllowance, retryAfterSeconds, type StatedAllowance } from './allowance';
import { headerOf, type Headers } from './types';
import { SendQueue } from './sendQueue';

/**
 * How fast one credential sends: one SendRate per credential in this process (state.ts), shared by
 * every run, picker and hook that uses it, since they share the service's allowance.
 *
 * 1. The service publishes no limit, so only a throttle (a 429, or a 503: overload) teaches it
 *    anything; any other failure is the request's own.
 * 2. A throttle cuts the rate to BETA of the rate refused, which then grows as a cubic of the time
 *    since (CUBIC, as the AWS SDKs' adaptive retry), so a rate learned too low comes back by itself
 *    and processes sharing one credential converge without knowing of each other.
 * 3. Requests leave through a token bucket at that rate (none before the first throttle), at most
 *    MAX_IN_FLIGHT at once, doubling from one after a quiet spell, and within what answers state of
 *    the allowance, where "none left" is a throttle announced before any refusal.
 * 4. Nothing leaves before the service's Retry-After, an exhausted allowance's reset or a jittered
 *    back-off doubled for each refusal in a row; each waiting run is charged the pause, and a
 *    request whose run may not wait that long (Max Wait for Rate Limits) fails.
 * 5. Urgent requests (a picker, a key fetch, a hook) go before the runs' requests, which go in
 *    arrival order, and a cancelled run's queued requests are dropped unsent.
 */

/** The cut at a throttle: the share of the rate refused the rate restarts at. */
const BETA = 0.8;
/** The cubic's growth: larger takes over a share another process left sooner, and is refused more often. */
const SCALE = 0.1;
/** The slowest rate, requests a second. */
const MIN_RATE = 0.1;
/** The most requests of one credential in flight at once. */
export const MAX_IN_FLIGHT = 64;
/** What got through in this span is the rate refused; a quiet spell this long starts in flight from one. */
const RECENT_MS = 1000;
/** Without a stated wait: the first back-off, doubled for each further refusal in a row up to the most. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/** The longest pause one answer imposes: a Retry-After of a day must not silence a credential until n8n restarts. */
export const MAX_PAUSE_MS = 60 * 60_000;

export class SendRate extends SendQueue {
	/** CUBIC: the rate refused, when, and the seconds to come back to it; none before the first throttle. */
	private cubic: { max: number; at: number; k: number } | undefined;
	private tokens = 0;
	private refilledAt = 0;
	/** When the answers of the last RECENT_MS that got through came. */
	private through: number[] = [];
	private cap = 1;
	/** The last stated allowance: requests left (less those sent since), and when it is whole again. */
	private allowance: (StatedAllowance & { at: number; left: number; resetAt: number }) | undefined;
	/** A refusal said none was left; until an answer shows it refilling, none left waits for the reset. */
	private windowed = false;
	/** An answer showed the allowance refilling as it is spent. */
	private refills = false;
	private throttlesInARow = 0;
	/** When the latest throttle came: answers to requests sent before it are the same event. */
	private throttledAt = -Infinity;

	protected resumed(idleMs: number): void {
		// After a quiet spell the service's bucket may be full again, and ours is.
		if (idleMs > RECENT_MS) this.cap = 1;
	}

	protected take(now: number): number {
		if (this.inFlight >= this.cap) return Infinity;
		const allowance = this.allowance;
		// Whole again at its reset: its size if stated, else as the next answers say.
		if (allowance && allowance.resetAt <= now) Object.assign(allowance, { remaining: allowance.limit ?? Infinity, left: allowance.limit ?? Infinity, resetAt: Infinity });
		// None left and no rate stated: the answers of those in flight say what refilled.
		if (allowance && allowance.left < 1 && allowance.rate === undefined && this.inFlight > 0) return Infinity;
		const rate = this.rate(now);
		this.tokens = rate === Infinity ? 1 : Math.min(Math.max(1, rate), this.tokens + (Math.max(0, now - this.refilledAt) / 1000) * rate);
		this.refilledAt = now;
		if (this.tokens < 1) return Math.max(1, ((1 - this.tokens) / rate) * 1000);
		this.tokens--;
		if (allowance) allowance.left--;
		return 0;
	}

	/** Requests a second now: the cubic since the last throttle, at most the stated rate; Infinity: no pace. */
	private rate(now: number): number {
		const cubic = this.cubic;
		const grown = cubic ? Math.max(MIN_RATE, cubic.max + SCALE * ((now - cubic.at) / 1000 - cubic.k) ** 3) : Infinity;
		return Math.min(grown, this.allowance?.rate ?? Infinity);
	}

	protected onAnswer(sentAt: number, status: number, headers: Headers | undefined): void {
		const now = performance.now();
		const stated = readAllowance(headers);
		const before = this.allowance;
		// More left than the last answer said, with neither its reset nor a pause between: it refills as
		// it is spent. (Not the whole allowance again: a reset stated in whole seconds may come late.)
		const refilling = stated && before && stated.remaining > before.remaining && stated.remaining < (stated.limit ?? Infinity) - 1;
		if (refilling && before.resetAt > now && this.pausedUntil <= before.at) {
			this.windowed = false;
			this.refills = true;
		}
		this.allowance = stated && { at: now, left: stated.remaining - this.inFlight, resetAt: now + (stated.resetSeconds ?? Infinity) * 1000, ...stated };
		// A 503 is overload (RFC 9110), nginx limit_req's default refusal among others.
		if (status === 429 || status === 503) return this.onThrottle(sentAt, now, status, headers, stated);
		// One request's failure (a bad record, a lost connection) says nothing of the allowance.
		if (status >= 500) return;
		this.throttlesInARow = 0;
		this.cap = Math.min(MAX_IN_FLIGHT, this.cap + 1);
		this.through.push(now);
		while (this.through[0] <= now - RECENT_MS) this.through.shift();
		// None left, no rate stated: a throttle announced before any refusal, and nothing leaves
		// before the reset once a refusal showed the service means it.
		if (stated?.remaining === 0 && stated.rate === undefined && stated.resetSeconds !== undefined) {
			this.cut(sentAt, now);
			if (this.windowed) this.pause(now, stated.resetSeconds * 1000, 429, true);
		}
		// None left of an allowance seen refilling at a stated rate, where the last answer left some:
		// others spend it too (alone, the rate would keep some left).
		if (stated?.remaining === 0 && stated.rate !== undefined && this.refills && before && before.resetAt > now && before.remaining > 0) this.cut(sentAt, now);
	}

	/** CUBIC's cut, once per event; false for an answer to a request sent before the last throttle. */
	private cut(sentAt: number, now: number): boolean {
		if (sentAt < this.throttledAt) return false;
		this.throttledAt = now;
		// The rate refused: what got through lately, or the rate in force if lower; neither (a lone
		// request, refusals before any pace): nothing to cut, the pause does it.
		const measured = this.through.filter((at) => at > now - RECENT_MS).length / (RECENT_MS / 1000);
		const refused = Math.min(this.rate(now), measured || Infinity);
		const max = Math.max(MIN_RATE, refused);
		if (refused < Infinity) this.cubic = { max, at: now, k: Math.cbrt((max * (1 - BETA)) / SCALE) };
		// Whatever was in flight was refused at once: one at a time again.
		this.cap = 1;
		return true;
	}

	private onThrottle(sentAt: number, now: number, status: number, headers: Headers | undefined, stated: StatedAllowance | undefined): void {
		if (this.cut(sentAt, now)) this.throttlesInARow++;
		const retryAfter = retryAfterSeconds(headerOf(headers, 'retry-after'));
		// None left, and come back only at the reset (within its whole second): nothing refills before it.
		if (stated?.remaining === 0 && (retryAfter ?? Infinity) >= (stated.resetSeconds ?? 0) - 1) this.windowed = true;
		// Retry-After is the least wait, else an exhausted allowance's reset; refusals in a row with
		// nothing through between them (a Retry-After of 0 again and again) back off too.
		const told = retryAfter ?? (stated?.remaining === 0 ? stated.resetSeconds : undefined);
		const inARow = this.throttlesInARow;
		const askedMs = told === undefined ? this.backoff(inARow) : Math.max(told * 1000, inARow > 1 ? this.backoff(inARow - 1) : 0);
		this.pause(now, askedMs, status, told !== undefined);
		// The pause fills our bucket with one request, not a burst the service would refuse at once.
		this.tokens = 1;
		this.refilledAt = this.pausedUntil;
	}

	/** Nothing leaves for `ms`, capped; `asked` keeps what the service asked, for a run that may not wait. */
	private pause(now: number, ms: number, status: number, stated: boolean): void {
		if (now + ms >= this.asked.until) this.asked = { until: now + ms, status, stated };
		this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(MAX_PAUSE_MS, ms));
	}

	/** Jittered in the upper half of the doubled back-off, for the n-th refusal in a row. */
	private backoff(inARow: number): number {
		const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, inARow - 1));
		return ceiling / 2 + (Math.random() * ceiling) / 2;
	}
}
