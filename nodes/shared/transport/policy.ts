import type { IHttpRequestMethods } from 'n8n-workflow';

/** The numbers every request starts from, and what a node may set per input item (it knows no node's parameters). */

export interface RequestPolicy {
	/** Per attempt, in milliseconds. */
	timeoutMs: number;
	/** Further attempts after a 5xx or a network error, for GET, PUT and DELETE only. */
	maxRetries: number;
	/** Ceiling of the first back-off in milliseconds (full jitter), doubled on each retry. */
	retryDelayMs: number;
	/**
	 * How long this request may wait for rate limits, in milliseconds; unset: its run's budget
	 * (Request Options → Max Wait for Rate Limits). 0: a 429 fails it at once.
	 */
	maxRateLimitWaitMs?: number;
}

/** The one source of the defaults (the editor's Timeout default reads it too). */
export const DEFAULT_POLICY: RequestPolicy = {
	timeoutMs: 30_000,
	maxRetries: 2,
	retryDelayMs: 250,
};

/** Default of Request Options → Max Wait for Rate Limits (a node run's budget). */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 5 * 60_000;

/** What an urgent run may wait (a picker, a hook, a webhook call): someone is looking at the editor, or a sender waits. */
export const SHORT_MAX_RATE_LIMIT_WAIT_MS = 30_000;

/** What a node sets per input item, asked only when needed (an option that does not apply is never read); may throw. */
export interface ItemPolicySource {
	/** Per-attempt timeout of this item's requests, in milliseconds. */
	timeoutMs?(itemIndex: number): number | undefined;
	/** Pages of one of this item's lists requested at once (Return All). */
	pagesInFlight?(itemIndex: number): number | undefined;
}

/** Methods that may be sent again without doing the work twice: only these are retried after a failure. */
export function isIdempotent(method: IHttpRequestMethods): boolean {
	return method === 'GET' || method === 'PUT' || method === 'DELETE' || method === 'HEAD';
}
