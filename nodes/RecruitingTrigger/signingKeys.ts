/**
 * Signing keys live only in the memory of the process that uses them: static data is stored
 * unencrypted with the workflow, so a key never goes there, nor into logs or error messages.
 * A process that has no key (a fresh start, or a queue-mode webhook process that never ran the
 * activation) fetches it with the credential on the first delivery.
 */

import { trimTrailingSlashes } from '../shared/transport';

/** After the first lookup, at most one fetch per webhook in this window (rotation, or a retry after a failure). */
export const SIGNING_KEY_REFETCH_INTERVAL_MS = 60_000;

interface CacheEntry {
	secret?: string;
	/** A fetch has been tried: later ones are rate limited. */
	attempted?: boolean;
	/** When the last rate-limited fetch was allowed. */
	lastRefetchAt?: number;
	/** One fetch at a time per webhook: concurrent deliveries share it. */
	pending?: Promise<string>;
}

export interface SigningKeySource {
	/** From `signingKeyCacheKey`. */
	cacheKey: string;
	/** Reads the key from the service (GET /webhooks/{id} → signing_key). */
	load: () => Promise<string>;
}

const cache = new Map<string, CacheEntry>();

/** Base URL + company + webhook id: the same webhook id under two accounts never shares a key. */
export function signingKeyCacheKey(baseUrl: string, companyId: string, webhookId: string): string {
	return JSON.stringify([trimTrailingSlashes(baseUrl), companyId, webhookId]);
}

function entryFor(cacheKey: string): CacheEntry {
	let entry = cache.get(cacheKey);
	if (!entry) {
		entry = {};
		cache.set(cacheKey, entry);
	}
	return entry;
}

/** Stores a key read by another call (activation's GET), so the first delivery needs no fetch. */
export function rememberSigningKey(cacheKey: string, secret: unknown): void {
	if (typeof secret !== 'string' || secret === '') return;
	entryFor(cacheKey).secret = secret;
}

export function forgetSigningKey(cacheKey: string): void {
	cache.delete(cacheKey);
}

/** Records a rate-limited fetch if one is allowed now. */
function claimRefetch(entry: CacheEntry, nowMs: number): boolean {
	if (
		entry.lastRefetchAt !== undefined &&
		nowMs - entry.lastRefetchAt < SIGNING_KEY_REFETCH_INTERVAL_MS
	) {
		return false;
	}
	entry.lastRefetchAt = nowMs;
	return true;
}

async function fetchShared(entry: CacheEntry, source: SigningKeySource): Promise<string> {
	entry.attempted = true;
	if (!entry.pending) {
		entry.pending = source.load().finally(() => {
			entry.pending = undefined;
		});
	}
	const secret = await entry.pending;
	if (typeof secret === 'string' && secret !== '') entry.secret = secret;
	return secret;
}

/**
 * The key to verify with: the cached one, else a fetched one. The first fetch is free; after a
 * failed one, another runs at most once per interval. `undefined`: no key, and none may be fetched now.
 */
export async function currentSigningKey(
	source: SigningKeySource,
	nowMs: number = Date.now(),
): Promise<string | undefined> {
	const entry = entryFor(source.cacheKey);
	if (entry.secret !== undefined) return entry.secret;
	if (entry.attempted && !entry.pending && !claimRefetch(entry, nowMs)) return undefined;
	return await fetchShared(entry, source);
}

/**
 * After a signature did not match the cached key: the key may have been rotated. Fetches it again
 * at most once per interval, so forged deliveries cannot make us hammer the service. Returns the
 * new key only if it differs from the one that failed.
 */
export async function refreshedSigningKey(
	source: SigningKeySource,
	failedSecret: string,
	nowMs: number = Date.now(),
): Promise<string | undefined> {
	const entry = entryFor(source.cacheKey);
	if (entry.secret !== undefined && entry.secret !== failedSecret) return entry.secret;
	if (!entry.pending && !claimRefetch(entry, nowMs)) return undefined;
	const secret = await fetchShared(entry, source);
	return secret !== failedSecret ? secret : undefined;
}

/** Empties the cache, as in a freshly started process. For tests. */
export function clearSigningKeyCache(): void {
	cache.clear();
}
