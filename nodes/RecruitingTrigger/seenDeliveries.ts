/**
 * The `webhook-id`s this process accepted lately, for "Drop Duplicate Deliveries". In memory only:
 * workflow static data is saved whole after each request, so concurrent webhook processes would
 * overwrite each other (and the borrowed webhook's saved original). Across queue-mode webhook
 * processes this is best effort. The guarantee is a database insert of `messageId` under a unique
 * key (docs/triggers.md, Duplicates); n8n's Remove Duplicates node is not atomic across concurrent
 * executions (measured: test/n8n/reliability/queueLoad.js).
 */
import { createHash } from 'crypto';

import { instantNow, passedOnBoth, type Instant } from './instant';

/**
 * How long an accepted delivery id is remembered: longer than one message can be accepted at all
 * (its timestamp ± the 5-minute tolerance, checked in whole seconds), so a replay of the same bytes
 * is caught here up to HELD_DELIVERIES_PER_SECOND.
 */
export const DUPLICATE_WINDOW_MS = 10 * 60_000 + 1_000;

/** The window as the node's option and docs/triggers.md say it: "the last 10 minutes". */
export const DUPLICATE_WINDOW_MINUTES = Math.floor(DUPLICATE_WINDOW_MS / 60_000);

/**
 * Upper bound on remembered ids per process; past it the oldest go first. Each id is kept as a
 * 16-character digest with its time on both clocks (133 bytes in V8, measured on Node 20), so the
 * bound is about 67 MB.
 */
export const MAX_REMEMBERED_DELIVERIES = 500_000;

/**
 * The delivery rate up to which every id is kept for the whole window (831 a second): far above
 * what one n8n process can run as executions (the queue-mode load measured 39.7 a second).
 */
export const HELD_DELIVERIES_PER_SECOND = Math.floor(MAX_REMEMBERED_DELIVERIES / (DUPLICATE_WINDOW_MS / 1000));

/**
 * Digest → when it was accepted. An id is forgotten only once both clocks say the window has
 * passed: a wall clock stepped back would otherwise let a replay pass both the timestamp check
 * and this one. A Map iterates in insertion order: the oldest first.
 */
const seen = new Map<string, Instant>();

/**
 * A fixed-size entry for the webhook and message id, whatever their length: the first 96 bits of
 * their SHA-256 (a chance collision among 500,000 ids is about 1 in 10^18).
 */
function digestOf(webhookKey: string, messageId: string): string {
	return createHash('sha256').update(webhookKey).update('\n').update(messageId).digest().toString('base64url', 0, 12);
}

function evict(now: Instant): void {
	for (const [key, at] of seen) {
		if (seen.size <= MAX_REMEMBERED_DELIVERIES && !passedOnBoth(at, now, DUPLICATE_WINDOW_MS)) break;
		seen.delete(key);
	}
}

/**
 * True when `messageId` of this webhook was accepted within the window; otherwise remembers it
 * and returns false. Synchronous, so no other delivery can slip in between check and insert.
 * Call it only for a verified delivery: forged ones must not fill the memory.
 */
export function isDuplicateDelivery(webhookKey: string, messageId: string, now: Instant = instantNow()): boolean {
	const key = digestOf(webhookKey, messageId);
	const at = seen.get(key);
	if (at !== undefined && !passedOnBoth(at, now, DUPLICATE_WINDOW_MS)) return true;
	seen.delete(key);
	seen.set(key, now);
	evict(now);
	return false;
}
