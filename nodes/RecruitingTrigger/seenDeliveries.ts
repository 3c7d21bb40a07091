/**
 * The `webhook-id`s this process accepted lately, for "Drop Duplicate Deliveries". In memory only:
 * workflow static data is saved whole after each request, so concurrent webhook processes would
 * overwrite each other (and the borrowed webhook's saved original). Across queue-mode webhook
 * processes this is best effort. The guarantee is a database insert of `messageId` under a unique
 * key (README, Duplicates); n8n's Remove Duplicates node is not atomic across concurrent
 * executions (measured: test/n8n/reliability/queueLoad.js).
 */

/**
 * How long an accepted delivery id is remembered: longer than one message can be accepted at all
 * (its timestamp ± the 5-minute tolerance, checked in whole seconds), so a replay of the same bytes
 * is always caught here.
 */
export const DUPLICATE_WINDOW_MS = 10 * 60_000 + 1_000;

/** Upper bound on remembered ids per process; the oldest go first. */
export const MAX_REMEMBERED_DELIVERIES = 20_000;

/** Key → when it was accepted. A Map iterates in insertion order: the oldest first. */
const seen = new Map<string, number>();

function evict(nowMs: number): void {
	for (const [key, at] of seen) {
		if (seen.size <= MAX_REMEMBERED_DELIVERIES && nowMs - at < DUPLICATE_WINDOW_MS) break;
		seen.delete(key);
	}
}

/**
 * True when `messageId` of this webhook was accepted within the window; otherwise remembers it
 * and returns false. Synchronous, so no other delivery can slip in between check and insert.
 * Call it only for a verified delivery: forged ones must not fill the memory.
 */
export function isDuplicateDelivery(webhookKey: string, messageId: string, nowMs: number = Date.now()): boolean {
	const key = `${webhookKey}\n${messageId}`;
	const at = seen.get(key);
	if (at !== undefined && nowMs - at < DUPLICATE_WINDOW_MS) return true;
	seen.delete(key);
	seen.set(key, nowMs);
	evict(nowMs);
	return false;
}

/** Forgets every id, as in a freshly started process. For tests. */
export function clearSeenDeliveries(): void {
	seen.clear();
}
