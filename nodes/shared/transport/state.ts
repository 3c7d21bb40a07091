import { SHORT_MAX_RATE_LIMIT_WAIT_MS, DEFAULT_MAX_RATE_LIMIT_WAIT_MS, type ItemPolicySource } from './policy';
import type { ToolListPage } from './types';
import { MAX_IN_FLIGHT, MAX_PAUSE_MS, SendRate } from './sendRate';
import { WaitBudget } from './waitBudget';

/**
 * What the transport keeps between requests: per credential while it is in use, its SendRate
 * (every run, picker and hook on the credential shares the service's allowance, and what one run
 * learned the next starts from); per execution context (a node run, a picker or dropdown call, a
 * hook, a webhook call), a RunState: the credential read once, the node's Request Options, its
 * items in flight, its wait budget, what its operations read once, and as an AI agent's tool the
 * page each item's list returned. Every entry point starts its run (`startRun`, or `inRun`) and ends
 * it (`endRun`); a request from a context nobody started is a bug, and fails.
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
	/** The service's clock as its last answer's `Date` told it: what a poll's cursors are measured on, never n8n's. */
	private serviceClock: { serviceMs: number; localMs: number } | undefined;
	/** As a tool: where each item's list stands, by item index (here, so an operation that maps the records keeps it). */
	readonly toolListPages = new Map<number, ToolListPage>();

	private readonly cancelSignal: AbortSignal | undefined;
	private readonly stop = () => this.waitBudget.cancel();

	constructor(settings: RunSettings = {}) {
		this.items = settings.items;
		this.itemsInFlight = Math.max(1, settings.itemsInFlight ?? 1);
		this.waitBudget = new WaitBudget(settings.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS, settings.urgent ?? false);
		this.cancelSignal = settings.cancelSignal;
		if (this.cancelSignal?.aborted) this.waitBudget.cancel();
		else this.cancelSignal?.addEventListener('abort', this.stop, { once: true });
	}

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
 * rate idle longer than the longest pause is dropped when another credential's is made (a process
 * whose tokens rotate keeps no rate per old token; nothing it learned still holds).
 */
export const FORGET_IDLE_MS = MAX_PAUSE_MS;

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
