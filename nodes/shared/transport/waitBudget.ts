import { sleep } from 'n8n-workflow';

/**
 * Time as the send rate sees it, and what a run may wait. Every interval is on a monotonic clock:
 * a wall clock stepped back or forward must neither fail every run at once nor hold a request unsent.
 */
export interface Clock {
	now(): number;
	/** Resolves after `ms`; an abort ends it early (and clears its timer). */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
	/** 0..1, the back-off's jitter. */
	random(): number;
}

export const monotonicClock: Clock = {
	now: () => performance.now(),
	// n8n's sleep rejects when aborted (older versions ignore the signal and resolve later).
	sleep: async (ms, signal) => await sleep(ms, signal).catch(() => undefined),
	// Read at each call, so a test's seeded Math.random reaches the jitter.
	random: () => Math.random(),
};

/** What a run may still wait for rate limits; one per run, charged by every request it makes. */
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

	/** An answer that was no refusal: only a service that keeps refusing ends the run, however often it refuses now and then. */
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

/** A request that would have to wait for the service longer than its run may. */
export class RateLimitWaitExceeded extends Error {
	constructor(
		/** Seconds the service asked to wait from now, as asked (not capped). */
		readonly askedSeconds: number,
		readonly budgetMs: number,
		readonly waitedMs: number,
		/** The answer that asked: 429 (rate limited) or 503 (unavailable). */
		readonly status = 429,
		/** Seconds until this process tries again (a pause lasts an hour at most). */
		readonly retrySeconds = askedSeconds,
		/** Whether the service said how long, or the wait is the node's back-off. */
		readonly stated = true,
	) {
		super('The service asked to wait longer than this run may wait');
	}
}

/** A request whose run failed while it waited to be sent: it is not sent. */
export class RunCancelled extends Error {
	constructor() {
		super('Not sent: the run had already failed');
	}
}
