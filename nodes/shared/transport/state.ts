import type { ItemPolicySource } from './policy';
import type { ToolListPage } from './types';
import { SendRate, URGENT_BUDGET_MS, WaitBudget } from './sendRate';

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
 *   The router starts it with the node's settings; any other context gets the defaults.
 */

/** Requests of a read kept in flight at once (pages of one list, or input items); the send rate decides how many go. */
export const READ_WINDOW = 64;

/** Default of Request Options → Max Wait for Rate Limits (a node run's budget). */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 5 * 60_000;

/**
 * What a context nobody started may wait (a picker or dropdown, a hook, a webhook call): someone
 * is looking at the editor or a sender is waiting. Such requests also go first (sendRate.ts).
 */
export const SHORT_MAX_RATE_LIMIT_WAIT_MS = URGENT_BUDGET_MS;

export interface RunSettings {
	/** The node's Request Options for each item; none for triggers and pickers. */
	items?: ItemPolicySource;
	/** Input items run at once: their list walks share READ_WINDOW. */
	itemsInFlight?: number;
	/** How long the run may wait for the service's rate limits while nothing gets through. */
	maxRateLimitWaitMs?: number;
}

export class RunState {
	readonly items: ItemPolicySource | undefined;
	readonly itemsInFlight: number;
	readonly waitBudget: WaitBudget;
	/** Values an operation reads once per run (keyed by what they are, e.g. 'accountTags'). */
	private readonly memos = new Map<string, Promise<unknown>>();
	/**
	 * As a tool: where each item's list stands, by item index. Kept here rather than on the
	 * records, so an operation that maps or filters them keeps the note.
	 */
	readonly toolListPages = new Map<number, ToolListPage>();

	constructor(settings: RunSettings = {}) {
		this.items = settings.items;
		this.itemsInFlight = Math.max(1, settings.itemsInFlight ?? 1);
		this.waitBudget = new WaitBudget(settings.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS);
	}

	/** The read window of one list walk: READ_WINDOW split among the items in flight. */
	get readWindow(): number {
		return Math.max(1, Math.floor(READ_WINDOW / this.itemsInFlight));
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

/** The router's start of a node run: its settings hold for every request the run makes. */
export function startRun(context: object, settings: RunSettings): RunState {
	const run = new RunState(settings);
	runs.set(context, run);
	return run;
}

/** The run a context belongs to; a context nobody started (a picker, a hook) gets the defaults and a short wait. */
export function runOf(context: object): RunState {
	let run = runs.get(context);
	if (!run) {
		run = new RunState({ maxRateLimitWaitMs: SHORT_MAX_RATE_LIMIT_WAIT_MS });
		runs.set(context, run);
	}
	return run;
}

/**
 * Per credential (its Base URL, company and token, as one opaque key), while it is in use: a send
 * rate idle for FORGET_IDLE_MS is dropped when another credential's is made (a process whose
 * tokens rotate keeps no rate per old token; a quiet hour also refills any service's bucket).
 */
const sendRates = new Map<string, SendRate>();
export const FORGET_IDLE_MS = 60 * 60_000;

export function sendRateFor(credentialKey: string): SendRate {
	let sendRate = sendRates.get(credentialKey);
	if (!sendRate) {
		const before = Date.now() - FORGET_IDLE_MS;
		for (const [key, idle] of sendRates) if (idle.idleBefore(before)) sendRates.delete(key);
		sendRate = new SendRate();
		sendRates.set(credentialKey, sendRate);
	}
	return sendRate;
}

/** How many credentials' send rates this process keeps (for tests). */
export function sendRatesKept(): number {
	return sendRates.size;
}

/** For tests that reuse one credential: forget what every credential's send rate has learned (pauses, pace, window). */
export function forgetSendRates(): void {
	sendRates.clear();
}
