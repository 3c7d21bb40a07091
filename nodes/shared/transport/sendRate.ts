import { readAllowance, retryAfterSeconds } from './allowance';
import { headerOf, type Headers } from './types';
import { Pace } from './pace';
import { monotonicClock, RateLimitWaitExceeded, RunCancelled, type Clock, type WaitBudget } from './waitBudget';
import { Throughput } from './throughput';
import { SendWindow } from './window';

/**
 * How fast one credential sends: one controller per credential in this n8n process (state.ts),
 * shared by every run, picker and hook that uses it, since they share the service's allowance.
 * The service publishes no limit, so the controller finds it, reacting to throttling only (a 429,
 * or a 503: overload, with or without Retry-After); any other failure is the request's own.
 *
 * - **Window** (window.ts): requests in flight; one at a time after a refusal that told no rate.
 * - **Pace** (pace.ts): requests per second after the first refusal, CUBIC from the real time since.
 * - **Pause**: nothing leaves before a throttling answer's Retry-After; without one, exponential
 *   back-off with jitter from 1 s. Each waiting run is charged the pause (its WaitBudget): past its
 *   Max Wait for Rate Limits, the request fails with what the service asked.
 * - **Queue**: urgent requests (someone waits: a picker, a key fetch, a hook) go first, the others
 *   in arrival order. No timer outlives an empty queue.
 */

/** Without a Retry-After: the first back-off after a refusal, doubled for each further one in a row. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/** The longest pause one answer imposes: a Retry-After of a day must not silence a credential until n8n restarts. */
const MAX_PAUSE_MS = 60 * 60_000;
/** A quiet spell this long starts a new busy period: what is measured does not count the quiet. */
const QUIET_MS = 1000;

/** One request's passage: sent when `acquire` resolves, reported with `done`. */
export interface SendTicket {
	/** The answer: a status with its headers, no answer, or 'cancelled' (the execution stopped). Only throttling changes the controller. */
	done(outcome: { status: number; headers?: Headers } | 'failed' | 'cancelled'): void;
}

/** When a request was sent, and whether when the last answer said nothing was left (pace.ts). */
interface Sent {
	sentAt: number;
	onNothingLeft: boolean;
}

interface Waiter {
	budget: WaitBudget;
	queuedAt: number;
	resolve(ticket: SendTicket): void;
	reject(error: Error): void;
}

export class SendRate {
	private readonly window = new SendWindow();
	private inFlight = 0;
	private readonly pace = new Pace();

	private pausedUntil = 0;
	/** What the service asked with the pause in force, uncapped, its status (429, 503), and whether it said how long. */
	private asked = { until: 0, status: 429, stated: false };
	private throttlesInARow = 0;
	/** When the latest throttling answer came: those of requests sent before it are the same event. */
	private throttledAt = -Infinity;
	private readonly throughput: Throughput;
	private idleSince: number | undefined;

	private readonly queue: Waiter[] = [];
	private pumping = false;
	private wake: (() => void) | undefined;
	/** One function for every budget to call when cancelled (a budget keeps each only once). */
	private readonly wakeUp = () => this.signal();

	constructor(private readonly clock: Clock = monotonicClock) {
		// Measured from now: the monotonic clock's zero is the process's start, hours ago maybe.
		this.idleSince = clock.now();
		this.throughput = new Throughput(this.idleSince);
	}

	/**
	 * Resolves when this request may be sent. Rejects with RateLimitWaitExceeded when a pause the
	 * service asked for lasts longer than `budget` allows, with RunCancelled when its run ended.
	 */
	acquire(budget: WaitBudget): Promise<SendTicket> {
		const now = this.clock.now();
		if (budget.cancelled) return Promise.reject(new RunCancelled());
		if (this.pausedUntil > now && !budget.allows(now, this.pausedUntil)) return Promise.reject(this.exceeded(budget));
		if (this.idleSince !== undefined && now - this.idleSince > QUIET_MS) {
			this.throughput.restart(now);
			// A window of a limit since forgotten would go out whole: start again as at first contact.
			if (this.pace.forgetIfLifted(now)) this.window.restart();
		}
		this.idleSince = undefined;
		return new Promise<SendTicket>((resolve, reject) => {
			const waiter: Waiter = { budget, queuedAt: now, resolve, reject };
			// Urgent after the urgent ones already queued, before every run's.
			const firstPatient = budget.urgent ? this.queue.findIndex((queued) => !queued.budget.urgent) : -1;
			this.queue.splice(firstPatient < 0 ? this.queue.length : firstPatient, 0, waiter);
			budget.whenCancelled(this.wakeUp);
			this.signal();
			if (!this.pumping) void this.pump();
		});
	}

	/** What a request that may not wait that long is told: the wait the service asked, and who asked. */
	exceeded(budget: WaitBudget): RateLimitWaitExceeded {
		const seconds = (until: number) => Math.max(0, until - this.clock.now()) / 1000;
		const { until, status, stated } = this.asked;
		return new RateLimitWaitExceeded(seconds(until), budget.maxMs, budget.waited, status, seconds(this.pausedUntil), stated);
	}

	/** Whether nothing has been in flight or waiting for `ms` (the credential's controller may be forgotten). */
	idleFor(ms: number): boolean {
		return this.idleSince !== undefined && this.clock.now() - this.idleSince >= ms;
	}

	private signal(): void {
		const wake = this.wake;
		this.wake = undefined;
		wake?.();
	}

	/** Waits `ms` (Infinity: until woken), or less when an answer, a new request or a cancelled run changes what may be sent. */
	private async waitFor(ms: number): Promise<void> {
		const woken = new Promise<void>((resolve) => (this.wake = resolve));
		if (ms === Infinity) return await woken;
		// Woken early, the timer is cleared: nothing keeps the process waiting for it.
		const timer = new AbortController();
		await Promise.race([this.clock.sleep(ms, timer.signal), woken]);
		timer.abort();
		this.wake = undefined;
	}

	private async pump(): Promise<void> {
		this.pumping = true;
		try {
			while (this.queue.length > 0) {
				this.drop((waiter) => (waiter.budget.cancelled ? new RunCancelled() : undefined));
				if (this.queue.length === 0) break;
				const now = this.clock.now();
				if (this.pausedUntil > now) {
					await this.waitOutPause(now);
					continue;
				}
				if (this.inFlight >= this.window.limit) {
					this.window.filled(now);
					await this.waitFor(Infinity);
					continue;
				}
				const delay = this.pace.delay(now, this.inFlight);
				if (delay > 0) {
					await this.waitFor(delay);
					continue;
				}
				const onNothingLeft = this.pace.take(now);
				(this.queue.shift() as Waiter).resolve(this.ticket({ sentAt: now, onNothingLeft }));
			}
		} finally {
			this.pumping = false;
			this.noteIfIdle();
		}
	}

	/** Rejects the waiters `reason` gives an error for. */
	private drop(reason: (waiter: Waiter) => Error | undefined): void {
		for (const waiter of [...this.queue]) {
			const error = reason(waiter);
			if (!error) continue;
			this.queue.splice(this.queue.indexOf(waiter), 1);
			waiter.reject(error);
		}
	}

	private async waitOutPause(now: number): Promise<void> {
		const until = this.pausedUntil;
		// Those who may not wait that long fail now rather than after the wait.
		this.drop((waiter) => (waiter.budget.allows(now, until) ? undefined : this.exceeded(waiter.budget)));
		if (this.queue.length === 0) return;
		const waiting = [...this.queue];
		await this.waitFor(until - now);
		const after = Math.min(until, this.clock.now());
		for (const waiter of waiting) waiter.budget.charge(Math.max(now, waiter.queuedAt), after);
	}

	private ticket(sent: Sent): SendTicket {
		this.inFlight++;
		let reported = false;
		return {
			done: (outcome) => {
				if (reported) return;
				reported = true;
				this.inFlight--;
				if (typeof outcome === 'object') this.onAnswer(sent, outcome.status, outcome.headers);
				this.noteIfIdle();
				this.signal();
			},
		};
	}

	private noteIfIdle(): void {
		if (this.inFlight === 0 && this.queue.length === 0) this.idleSince ??= this.clock.now();
	}

	private onAnswer(sent: Sent, status: number, headers: Headers | undefined): void {
		const now = this.clock.now();
		const retryAfter = retryAfterSeconds(headerOf(headers, 'retry-after'));
		// A 503 is overload (RFC 9110 §15.6.4), nginx limit_req's default refusal among others: waited out as a 429.
		if (status === 429 || status === 503) {
			this.onThrottle(sent, now, status, retryAfter, headers);
			return;
		}
		// One request's failure (a bad record, a lost connection) says nothing of the allowance.
		if (status >= 500) return;
		this.throttlesInARow = 0;
		this.throughput.answered(now);
		// Cut to one while sending one at a time, the window would otherwise grow by one a round trip for good.
		if (this.pace.lifted(now)) this.window.unthrottled();
		this.window.answered(now, sent.sentAt, this.throttledAt);
		this.pace.answered(now, readAllowance(headers), this.inFlight);
	}

	private onThrottle(sent: Sent, now: number, status: number, retryAfter: number | undefined, headers: Headers | undefined): void {
		const allowance = readAllowance(headers);
		// Answers to requests sent before the last throttling answer are the same event: one cut.
		if (sent.sentAt >= this.throttledAt) {
			this.throttlesInARow++;
			this.throttledAt = now;
			const oneAtATime = this.window.oneAtATime;
			// The shortest pause is half the first back-off.
			const measured = this.throughput.rateAt(now, oneAtATime, FIRST_BACKOFF_MS / 2);
			this.pace.refused(now, this.inFlight, measured, { oneAtATime, onNothingLeft: sent.onNothingLeft, stated: status === 429 && allowance !== undefined });
			this.window.throttled(measured !== undefined || allowance !== undefined);
			this.throughput.restart(now);
		}
		if (allowance) this.pace.answered(now, allowance, this.inFlight);
		// Retry-After is the least wait; without it, an exhausted allowance's reset. Refusals in a row
		// with nothing let through between them (a Retry-After of 0 again and again) back off too.
		const stated = retryAfter ?? (allowance?.remaining === 0 ? allowance.resetSeconds : undefined);
		const inARow = this.throttlesInARow;
		const askedMs = stated === undefined ? this.backoff(inARow) : Math.max(stated * 1000, inARow > 1 ? this.backoff(inARow - 1) : 0);
		if (now + askedMs >= this.asked.until) this.asked = { until: now + askedMs, status, stated: stated !== undefined };
		this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(MAX_PAUSE_MS, askedMs));
	}

	/** Jittered in the upper half of 1 s, 2 s, 4 s… for the n-th refusal in a row. */
	private backoff(inARow: number): number {
		const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, inARow - 1));
		return ceiling / 2 + (this.clock.random() * ceiling) / 2;
	}
}
