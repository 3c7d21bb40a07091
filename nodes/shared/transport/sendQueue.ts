import { sleep } from 'n8n-workflow';
import type { Headers } from './types';
import { RateLimitWaitExceeded, RunCancelled } from './classify';
import type { WaitBudget } from './state';

/** The send rate's queue (the model is in sendRate.ts): who waits, in which order, and what each run is charged. */

/** One request's passage: sent when `acquire` resolves, reported with `done`. */
export interface SendTicket {
	/** The answer (a status with its headers), no answer, or 'cancelled' (the execution stopped). */
	done(outcome: { status: number; headers?: Headers } | 'failed' | 'cancelled'): void;
}

type Waiter = { budget: WaitBudget; queuedAt: number; resolve(ticket: SendTicket): void; reject(error: Error): void };

export abstract class SendQueue {
	protected inFlight = 0;
	protected pausedUntil = 0;
	/** What the service asked with the pause in force, uncapped, its status, and whether it said how long. */
	protected asked = { until: 0, status: 429, stated: false };
	protected idleSince: number | undefined = performance.now();
	private readonly queue: Waiter[] = [];
	private pumping = false;
	private wake: (() => void) | undefined;

	/** 0: one more request leaves now, and is counted; else milliseconds until one may (Infinity: when an answer comes). */
	protected abstract take(now: number): number;
	protected abstract onAnswer(sentAt: number, status: number, headers: Headers | undefined): void;
	/** A request comes after nothing was in flight or waiting for `idleMs`. */
	protected abstract resumed(idleMs: number): void;

	/** Resolves when this request may be sent; rejects with RateLimitWaitExceeded past `budget`, with RunCancelled once its run ended. */
	acquire(budget: WaitBudget): Promise<SendTicket> {
		const now = performance.now();
		if (budget.cancelled) return Promise.reject(new RunCancelled());
		if (this.pausedUntil > now && !budget.allows(now, this.pausedUntil)) return Promise.reject(this.exceeded(budget));
		if (this.idleSince !== undefined) this.resumed(now - this.idleSince);
		this.idleSince = undefined;
		return new Promise<SendTicket>((resolve, reject) => {
			const waiter: Waiter = { budget, queuedAt: now, resolve, reject };
			const firstPatient = budget.urgent ? this.queue.findIndex((queued) => !queued.budget.urgent) : -1;
			this.queue.splice(firstPatient < 0 ? this.queue.length : firstPatient, 0, waiter);
			budget.onCancel.add(this.signal);
			this.signal();
			if (!this.pumping) void this.pump();
		});
	}

	/** What a request that may not wait that long is told: the wait the service asked, and who asked. */
	exceeded(budget: WaitBudget): RateLimitWaitExceeded {
		const seconds = (until: number) => Math.max(0, until - performance.now()) / 1000;
		const { until, status, stated } = this.asked;
		return new RateLimitWaitExceeded(seconds(until), budget.maxMs, budget.waited, status, seconds(this.pausedUntil), stated);
	}

	/** Whether nothing has been in flight or waiting for `ms` (the credential's send rate may be forgotten). */
	idleFor(ms: number): boolean {
		return this.idleSince !== undefined && performance.now() - this.idleSince >= ms;
	}

	private readonly signal = () => {
		const wake = this.wake;
		this.wake = undefined;
		wake?.();
	};

	/** Waits `ms` (Infinity: until woken), or less when an answer, a request or a cancelled run changes what may be sent. */
	private async waitFor(ms: number): Promise<void> {
		const woken = new Promise<void>((resolve) => (this.wake = resolve));
		if (ms === Infinity) return await woken;
		// Woken early, the timer is cleared (n8n's sleep rejects when aborted): nothing keeps the process waiting for it.
		const timer = new AbortController();
		await Promise.race([sleep(ms, timer.signal).catch(() => undefined), woken]);
		timer.abort();
		this.wake = undefined;
	}

	private async pump(): Promise<void> {
		this.pumping = true;
		try {
			while (this.queue.length > 0) {
				this.drop((waiter) => (waiter.budget.cancelled ? new RunCancelled() : undefined));
				if (this.queue.length === 0) break;
				const now = performance.now();
				if (this.pausedUntil > now) {
					await this.waitOutPause(now);
				} else {
					const delay = this.take(now);
					if (delay > 0) await this.waitFor(delay);
					else (this.queue.shift() as Waiter).resolve(this.ticket(now));
				}
			}
		} finally {
			this.pumping = false;
			this.noteIfIdle();
		}
	}

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
		const after = Math.min(until, performance.now());
		for (const waiter of waiting) waiter.budget.charge(Math.max(now, waiter.queuedAt), after);
	}

	private ticket(sentAt: number): SendTicket {
		this.inFlight++;
		let reported = false;
		return {
			done: (outcome) => {
				if (reported) return;
				reported = true;
				this.inFlight--;
				if (typeof outcome === 'object') this.onAnswer(sentAt, outcome.status, outcome.headers);
				this.noteIfIdle();
				this.signal();
			},
		};
	}

	private noteIfIdle(): void {
		if (this.inFlight === 0 && this.queue.length === 0) this.idleSince ??= performance.now();
	}
}
