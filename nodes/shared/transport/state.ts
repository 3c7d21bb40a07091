import type { ItemPolicySource } from './policy';
import type { ToolListPage } from './types';
import { SendRate } from './sendRate';
import { WaitBudget } from './waitBudget';

/**
 * Everything the transport keeps between requests, and how long it lives:
 *
 * - **Per credential, while it is in use** (forgotten after an idle hour): its SendRate (sendRate.ts). The service's
 *   allowance belongs to the credential, so every run, picker and hook that uses the credential at
 *   the same time shares one, and what one run learned (the service's pace) the next starts from.
 * - **Per execution context** (one node run, one picker or dropdown call, one hook, one webhook
 *   call), a RunState: the credential read once, what the node set for its items (Request Options),
 *   how many of its items are in flight (their list walks share the read window), what it may
 *   still wait for rate limits, what its operations read once per run (the account's tags), and,
 *   as an AI agent's tool, the page each item's list returned (for the model's "next page" note).
 *   Every entry point starts its run (`startRun`, or `inRun` around its work) and ends it
 *   (`endRun`): the router with the node's settings, pickers, dropdowns, hooks and webhook calls
 *   as urgent. A request from a context nobody started is a bug, and fails.
 */

/** Requests of a read kept in flight at once (pages of one list, or input items); the send rate decides how many go. */
export const READ_WINDOW = 64;

/** Default of Request Options → Max Wait for Rate Limits (a node run's budget). */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 5 * 60_000;

/** What an urgent run may wait (a picker or dropdown, a hook, a webhook call): someone is looking at the editor or a sender is waiting. */
export const SHORT_MAX_RATE_LIMIT_WAIT_MS = 30_000;

export interface RunSettings {
	/** The node's Request Options for each item; none for triggers and pickers. */
	items?: ItemPolicySource;
	/** Input items run at once: their list walks share READ_WINDOW. */
	itemsInFlight?: number;
	/** How long the run may wait for the service's rate limits while nothing gets through. */
	maxRateLimitWaitMs?: number;
	/** Someone waits for the answer (a picker, a hook, a key fetch): its requests go before the runs' queue. */
	urgent?: boolean;
	/** The execution's stop: the run's waiting requests are dropped (listened to until `endRun`). */
	cancelSignal?: AbortSignal;
}

/** A picker's, dropdown's, hook's or webhook call's run: urgent, and short on waiting. */
export const URGENT_RUN: RunSettings = { urgent: true, maxRateLimitWaitMs: SHORT_MAX_RATE_LIMIT_WAIT_MS };

export class RunState {
	readonly items: ItemPolicySource | undefined;
	readonly itemsInFlight: number;
	readonly waitBudget: WaitBudget;
	/** Values an operation reads once per run (keyed by what they are, e.g. 'accountTags'). */
	private readonly memos = new Map<string, Promise<unknown>>();
	/**
	 * The service's clock as its last answer's `Date` header told it (whole seconds, so never ahead):
	 * what a poll's cursors are measured on, so n8n's own clock never mixes in.
	 */
	private serviceClock: { serviceMs: number; localMs: number } | undefined;
	/**
	 * As a tool: where each item's list stands, by item index. Kept here rather than on the
	 * records, so an operation that maps or filters them keeps the note.
	 */
	readonly toolListPages = new Map<number, ToolListPage>();

	constructor(settings: RunSettings = {}) {
		this.items = settings.items;
		this.itemsInFlight = Math.max(1, settings.itemsInFlight ?? 1);
		this.waitBudget = new WaitBudget(settings.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS, settings.urgent ?? false);
		this.cancelSignal = settings.cancelSignal;
		if (this.cancelSignal?.aborted) this.waitBudget.cancel();
		else this.cancelSignal?.addEventListener('abort', this.stop, { once: true });
	}

	private readonly cancelSignal: AbortSignal | undefined;
	private readonly stop = () => this.waitBudget.cancel();

	/** The run is over: the execution's signal no longer holds it (a loop of 500 node runs keeps no listener). */
	end(): void {
		this.cancelSignal?.removeEventListener('abort', this.stop);
	}

	/** The read window of one list walk: READ_WINDOW split among the items in flight. */
	get readWindow(): number {
		return Math.max(1, Math.floor(READ_WINDOW / this.itemsInFlight));
	}

	/** Notes an answer's `Date` header (an answer without one, or with an unreadable one, changes nothing). */
	noteServiceDate(date: string | undefined): void {
		const serviceMs = date === undefined ? NaN : Date.parse(date);
		if (Number.isFinite(serviceMs)) this.serviceClock = { serviceMs, localMs: Date.now() };
	}

	/** The service's time now, from its last answer's `Date`; undefined until an answer said it. */
	serviceNow(): number | undefined {
		return this.serviceClock && this.serviceClock.serviceMs + (Date.now() - this.serviceClock.localMs);
	}

	/** `read()` once per run; a failed read is not kept, so a later item tries again. */
	once<T>(key: string, read: () => Promise<T>): Promise<T> {
		let memo = this.memos.get(key) as Promise<T> | undefined;
		if (!memo) {
			memo = read();
			this.memos.set(key, memo);
			memo.catch(() => this.memos.delete(key));
		}
		return memo;
	}
}

const runs = new WeakMap<object, RunState>();

/** The start of a run (a node run, a picker call, a hook, a webhook call): its settings hold for every request it makes. */
export function startRun(context: object, settings: RunSettings): RunState {
	runs.get(context)?.end();
	const run = new RunState(settings);
	runs.set(context, run);
	return run;
}

/** The end of a run: its cancellation listener is removed. Idempotent; a later request from the context fails. */
export function endRun(context: object): void {
	runs.get(context)?.end();
	runs.delete(context);
}

/** `work` as one run of `context`, ended however it ends. */
export async function inRun<T>(context: object, settings: RunSettings, work: () => Promise<T>): Promise<T> {
	startRun(context, settings);
	try {
		return await work();
	} finally {
		endRun(context);
	}
}

/** The run a context belongs to; every entry point starts one, so none is an error. */
export function runOf(context: object): RunState {
	const run = runs.get(context);
	if (!run) throw new Error('Recruiting transport: a request outside a run (startRun was not called for this context)');
	return run;
}

/**
 * Per credential (its Base URL, company and token, as one opaque key), while it is in use: a send
 * rate idle for `forgetIdleMs` is dropped when another credential's is made (a process whose
 * tokens rotate keeps no rate per old token; a quiet hour also refills any service's bucket).
 */
export const FORGET_IDLE_MS = 60 * 60_000;

export class SendRates {
	private readonly byCredential = new Map<string, SendRate>();

	constructor(private readonly forgetIdleMs = FORGET_IDLE_MS) {}

	for(credentialKey: string): SendRate {
		let sendRate = this.byCredential.get(credentialKey);
		if (!sendRate) {
			for (const [key, idle] of this.byCredential) if (idle.idleFor(this.forgetIdleMs)) this.byCredential.delete(key);
			sendRate = new SendRate();
			this.byCredential.set(credentialKey, sendRate);
		}
		return sendRate;
	}

	/** How many credentials' send rates are kept. */
	get size(): number {
		return this.byCredential.size;
	}
}

/** This process's: every run, picker and hook on one credential shares its send rate. */
const sendRates = new SendRates();

export function sendRateFor(credentialKey: string): SendRate {
	return sendRates.for(credentialKey);
}
