/**
 * What a run may wait for rate limits, on the monotonic clock (performance.now): a wall clock
 * stepped back or forward must neither fail every run at once nor hold a request unsent.
 */
export class WaitBudget {
	private waitedMs = 0;
	private waitedUntil = 0;
	private readonly onCancel = new Set<() => void>();
	/** Set when the run failed or was stopped: its requests still waiting are not sent. */
	cancelled = false;

	/** `urgent`: someone waits for the answer (a picker, a key fetch, a hook); said by the caller, never guessed. */
	constructor(readonly maxMs: number, readonly urgent = false) {}

	/** The run failed, was stopped or ended: its waiting requests are dropped at once. */
	cancel(): void {
		this.cancelled = true;
		for (const wake of this.onCancel) wake();
		this.onCancel.clear();
	}

	whenCancelled(wake: () => void): void {
		if (!this.cancelled) this.onCancel.add(wake);
	}

	/** An answer that was no refusal: only a service that keeps refusing ends the run, not one that refuses now and then. */
	progress(): void {
		this.waitedMs = 0;
	}

	get waited(): number {
		return this.waitedMs;
	}

	/** Whether waiting until `until` stays within the budget (time already charged is not charged twice). */
	allows(now: number, until: number): boolean {
		return this.waitedMs + Math.max(0, until - Math.max(now, this.waitedUntil)) <= this.maxMs;
	}

	/** Charges a wait; waits of the run's requests at the same time count once. */
	charge(from: number, until: number): void {
		this.waitedMs += Math.max(0, until - Math.max(from, this.waitedUntil));
		this.waitedUntil = Math.max(this.waitedUntil, until);
	}
}
