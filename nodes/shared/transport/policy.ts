/**
 * How the transport behaves for a caller: the fixed numbers every request starts from, and what
 * a node may set per input item. The transport knows no node's parameters: a node that has
 * options of its own hands them over as a `ItemPolicySource` (see `useItemPolicy`).
 */

export interface RequestPolicy {
	/** Per attempt, in milliseconds. */
	timeoutMs: number;
	/** Further attempts after a 5xx or a network error, for GET, PUT and DELETE only. */
	maxRetries: number;
	/** First back-off in milliseconds; doubled on each retry. */
	retryDelayMs: number;
	/** How many 429 answers one call waits out before giving up. */
	maxRateLimitWaits: number;
	/** Upper bound on a single Retry-After wait, in seconds. */
	maxRetryAfterSeconds: number;
}

export const DEFAULT_POLICY: RequestPolicy = {
	timeoutMs: 30_000,
	maxRetries: 2,
	retryDelayMs: 250,
	maxRateLimitWaits: 5,
	maxRetryAfterSeconds: 60,
};

/**
 * What a node sets for the requests of one input item. Each is asked only when the transport
 * needs it (so an option that does not apply is never read, nor refused), and may throw to refuse
 * a value. Undefined: the transport's own choice.
 */
export interface ItemPolicySource {
	/** Per-attempt timeout of this item's requests, in milliseconds. */
	timeoutMs?(itemIndex: number): number | undefined;
	/** Pages of one of this item's lists requested at once (Return All). */
	pagesInFlight?(itemIndex: number): number | undefined;
}

/** Per execution context, so nothing outlives a node run. */
const itemPolicies = new WeakMap<object, ItemPolicySource>();

/** Requests made in `context` with an `itemIndex` follow `source` from now on. */
export function useItemPolicy(context: object, source: ItemPolicySource): void {
	itemPolicies.set(context, source);
}

/** The item policy of a context; none for contexts whose node set none (triggers, pickers). */
export function itemPolicyOf(context: object): ItemPolicySource | undefined {
	return itemPolicies.get(context);
}
