/**
 * What got through lately, for the rate a refusal came at (sendRate.ts): the answers since the
 * last refusal or the start of the busy period, and when the last RECENT_MS of them came.
 */

/** The rate refused is read over this long before the refusal, and over all the time since the last one. */
const RECENT_MS = 2000;

export class Throughput {
	private since: number;
	private answers = 0;
	private recentAt: number[] = [];

	constructor(now: number) {
		this.since = now;
	}

	/** Counts afresh from `now`: after a refusal, or after a quiet spell (the quiet is no rate). */
	restart(now: number): void {
		this.since = now;
		this.answers = 0;
		this.recentAt = [];
	}

	/** An answer let through. */
	answered(now: number): void {
		this.answers++;
		this.recentAt.push(now);
		if (this.recentAt[0] < now - 2 * RECENT_MS) this.recentAt = this.recentAt.filter((at) => at >= now - RECENT_MS);
	}

	/**
	 * The rate refused, per second: the mean of what got through since the restart (which a pace
	 * below the limit lowers: alone, it settles at 70 % of a 5/s limit) and in the last RECENT_MS
	 * (which a burst drained in it raises: alone, refusals come in pairs). Undefined when it tells no
	 * rate: less than a second is a burst, unless it went one at a time through a pause of at least
	 * `shortestPauseMs`.
	 */
	rateAt(now: number, oneAtATime: boolean, shortestPauseMs: number): number | undefined {
		const sinceMs = now - this.since;
		const recentMs = Math.min(RECENT_MS, sinceMs);
		const recent = this.recentAt.filter((at) => at > now - recentMs).length;
		const told = recent > 0 && (sinceMs >= 1000 || (oneAtATime && sinceMs >= shortestPauseMs));
		return told ? (this.answers / (sinceMs / 1000) + recent / (recentMs / 1000)) / 2 : undefined;
	}
}
