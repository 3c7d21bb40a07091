import { SHORT_MAX_RATE_LIMIT_WAIT_MS, DEFAULT_MAX_RATE_LIMIT_WAIT_MS, type ItemPolicySource } from './policy';
import type { ToolListPage } from './types';
import { MAX_IN_FLIGHT, MAX_PAUSE_MS, SendRate } from './sendRate';

/**
 * What the transport keeps between requests: per credential, its SendRate; per execution context (a
 * node run, a picker call, a hook, a webhook call), a RunState, which every entry point starts and ends.
 */

/** Requests of a read kept in flight at once (pages of one list, or input items): as many as the send rate lets fly. */
export const READ_WINDOW = MAX_IN_FLIGHT;

export interface RunSettings {
	/** The node's Request Options for each item; none for triggers and pickers. */
	items?: ItemPolicySource;
	/** Input items run at once: their list walks share READ_WINDOW. */
	itemsInFlight?: number;
	/** How long the run may wait for the service's rate limits while nothing gets through. */
	maxRateLimitWaitMs?: number;
	/** Someone waits for the answer (a picker, a hook, a key fetch): its requests go first. Said by the caller, never guessed. */
	urgent?: boolean;
	/** The execution's stop: the run's waiting requests are dropped. */
	cancelSignal?: AbortSignal;
}

/**
 * What a run may wait for rate limits, on the monotonic clock (performance.now): a wall clock
 * stepped back or forward must neither fail every run at once nor hold a request unsent.
 */
export class WaitBudget {
	/** Milliseconds waited since the last answer that was no refusal (request.ts resets it). */
	waited = 0;
	private waitedUntil = 0;
	/** Called once the run is cancelled: a queue holding its requests wakes to drop them. */
	readonly onCancel = new Set<() => void>();
	cancelled = false;

	constructor(readonly maxMs: number, readonly urgent = false) {}

	/** The run failed, was stopped or ended: its waiting requests are dropped at once. */
	cancel(): void {
		this.cancelled = true;
		for (const wake of this.onCancel) wake();
		this.onCancel.clear();
	}

	/** Whether waiting until `until` stays within the budget (time already charged is not charged twice). */
	allows(now: number, until: number): boolean {
		return this.waited + Math.max(0, until - Math.max(now, this.waitedUntil)) <= this.maxMs;
	}

	/** Charges a wait; waits of the run's requests at the same time count once. */
	charge(from: number, until: number): void {
		this.waited += Math.max(0, until - Math.max(from, this.waitedUntil));
		this.waitedUntil = Math.max(this.waitedUntil, until);
	}
}

/** A picker's, dropdown's, hook's or webhook call's run: urgent, and short on waiting. */
export const URGENT_RUN: RunSettings = { urgent: true, maxRateLimitWaitMs: SHORT_MAX_RATE_LIMIT_WAIT_MS };

/** One run: the credential read once, its Request Options, its wait budget, what it reads once. */
export class RunState {
	readonly items: ItemPolicySource | undefined;
	/** The read window of one list walk: READ_WINDOW split among the items in flight. */
	readonly readWindow: number;
	readonly waitBudget: WaitBudget;
	private readonly memos = new Map<string, Promise<unknown>>();
	/** The service's clock as its last answer's `Date` told it: what a poll's cursors are measured on, never n8n's. */
	private serviceClock: { serviceMs: number; localMs: number } | undefined;
	/** As an AI agent's tool: where each item's list stands, by item index. */
	readonly toolListPages = new Map<number, ToolListPage>();
	/** The execution's signal no longer holds the run (a loop of many node runs keeps no listener). */
	readonly end: () => void;

	constructor(settings: RunSettings = {}) {
		this.items = settings.items;
		this.readWindow = Math.max(1, Math.floor(READ_WINDOW / Math.max(1, settings.itemsInFlight ?? 1)));
		this.waitBudget = new WaitBudget(settings.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS, settings.urgent ?? false);
		const { cancelSignal } = settings;
		const stop = () => this.waitBudget.cancel();
		if (cancelSignal?.aborted) stop();
		else cancelSignal?.addEventListener('abort', stop, { once: true });
		this.end = () => cancelSignal?.removeEventListener('abort', stop);
	}

	/** Notes an answer's `Date` header; a missing or unreadable one changes nothing. */
	noteServiceDate(date: string | undefined): void {
		const serviceMs = date === undefined ? NaN : Date.parse(date);
		if (Number.isFinite(serviceMs)) this.serviceClock = { serviceMs, localMs: Date.now() };
	}

	/** The service's time now, from its last answer's `Date`; undefined until an answer said it. */
	serviceNow(): number | undefined {
		return this.serviceClock && this.serviceClock.serviceMs + (Date.now() - this.serviceClock.localMs);
	}

	/** `read()` once per run (keyed by what it reads); a failed read is not kept, so a later item tries again. */
	once<T>(key: string, read: () => Promise<T>): Promise<T> {
		const known = this.memos.get(key) as Promise<T> | undefined;
		if (known) return known;
		const memo = read();
		this.memos.set(key, memo);
		memo.catch(() => this.memos.delete(key));
		return memo;
	}
}

const runs = new WeakMap<object, RunState>();

/** The start of a run: its settings hold for every request it makes. */
export function startRun(context: object, settings: RunSettings): RunState {
	runs.get(context)?.end();
	const run = new RunState(settings);
	runs.set(context, run);
	return run;
}

/** `work` as one run of `context`, ended however it ends; a later request from the context fails. */
export async function inRun<T>(context: object, settings: RunSettings, work: () => Promise<T>): Promise<T> {
	const run = startRun(context, settings);
	try {
		return await work();
	} finally {
		run.end();
		runs.delete(context);
	}
}

export function runOf(context: object): RunState {
	const run = runs.get(context);
	if (!run) throw new Error('Recruiting transport: a request outside a run (startRun was not called for this context)');
	return run;
}

/**
 * A credential's send rate idle longer than the longest pause is dropped when another credential's
 * is made: a process whose tokens rotate keeps no rate per old token, and nothing it learned holds.
 */
export const FORGET_IDLE_MS = MAX_PAUSE_MS;

/** Send rates by credential (its Base URL, company and token, as one opaque key). */
export class SendRates extends Map<string, SendRate> {
	for(credentialKey: string): SendRate {
		const known = this.get(credentialKey);
		if (known) return known;
		for (const [key, idle] of this) if (idle.idleFor(FORGET_IDLE_MS)) this.delete(key);
		const sendRate = new SendRate();
		this.set(credentialKey, sendRate);
		return sendRate;
	}
}

/** This process's: every run, picker and hook on one credential shares its send rate. */
export const sendRates = new SendRates();
