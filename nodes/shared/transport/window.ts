/**
 * How many requests one credential has in flight (sendRate.ts keeps one per credential): one at
 * first, +0.5 per answer (×1.5 a round trip) up to MAX_WINDOW, while it holds requests back; halved
 * by a throttling event, then +1 per window's worth of answers. What is in flight when a bucket runs
 * dry is refused at once, so the window decides what a first contact costs.
 */

/** One in flight at first: when a small bucket first runs dry, 1 + burst ÷ 2 are (all refused). */
const INITIAL_WINDOW = 1;
const SLOW_START_GROWTH = 0.5;
/** The most requests in flight per credential (what made Return All fast on a real network: BENCHMARKS.md). */
const MAX_WINDOW = 64;
/** Single file ends after this long of its own answers without a refusal. */
const SINGLE_FILE_MS = 1000;

export class SendWindow {
	private size = INITIAL_WINDOW;
	private growing = true;
	/**
	 * Set by a refusal that told no rate (a burst's): one request at a time, so the next refusal,
	 * which tells it, costs one request. `since`: the first answer of a request sent after it.
	 */
	private singleFile: { since?: number } | undefined;
	private filledAt = -Infinity;

	/** Requests that may be in flight now. */
	get limit(): number {
		return this.singleFile ? 1 : Math.floor(this.size);
	}

	/** Whether requests go one at a time (what gets through is then no burst). */
	get oneAtATime(): boolean {
		return this.singleFile !== undefined;
	}

	/** Requests waited because the window was full. */
	filled(now: number): void {
		this.filledAt = now;
	}

	/**
	 * An answer let through, to a request sent at `sentAt`; the last throttling event was at
	 * `throttledAt`. The window grows only if it held requests back since that one left: a size the
	 * pace or a short run never used was never tested, and would go out whole once nothing else held
	 * it back (as TCP's, RFC 7661).
	 */
	answered(now: number, sentAt: number, throttledAt: number): void {
		const single = this.singleFile;
		if (single && sentAt >= throttledAt && now - (single.since ??= now) >= SINGLE_FILE_MS) {
			// The service refills faster than one at a time drains it: grow again from one, so the next
			// refusal (which will tell the rate) costs a small window.
			this.singleFile = undefined;
			this.size = INITIAL_WINDOW;
			this.growing = true;
		}
		if (this.filledAt >= sentAt) this.size = Math.min(MAX_WINDOW, this.size + (this.growing ? SLOW_START_GROWTH : 1 / this.size));
	}

	/** The limit found by refusals is forgotten (the pace lifted): the window grows again as at first contact. */
	unthrottled(): void {
		this.growing = true;
	}

	/** After a quiet spell that let the pace's limit be forgotten: as at first contact. */
	restart(): void {
		this.size = INITIAL_WINDOW;
		this.unthrottled();
	}

	/** A throttling event: halved, and one at a time when it told no rate. */
	throttled(toldRate: boolean): void {
		this.growing = false;
		this.size = Math.max(1, Math.floor(this.size / 2));
		this.singleFile = toldRate ? undefined : {};
	}
}
