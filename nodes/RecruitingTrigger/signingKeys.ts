/**
 * Signing keys live only in the memory of the process that uses them: static data is stored
 * unencrypted with the workflow, so a key never goes there, nor into logs or error messages.
 * A process that has no key (a fresh start, or a queue-mode webhook process that never ran the
 * activation) fetches it with the credential on the first delivery.
 *
 * A key is trusted for at most `maxAgeMs` after it was fetched (10 minutes by default), so a
 * rotated key stops working in a quiet process too; each fetch reads the credential afresh.
 * Ages and intervals end when either clock says so (instant.ts): neither a wall clock stepped back
 * nor a suspended machine's standing monotonic clock keeps a key past its age.
 */
import { rateLimitWaitOf } from '../shared/transport';

import { instantNow, passedOnEither, type Instant } from './instant';

/** How long a fetched key is used before it is fetched again, at most. */
export const SIGNING_KEY_MAX_AGE_MS = 10 * 60_000;

/** The same, as Options → Signing Key Max Age (Seconds) offers it: its default and its maximum. */
export const SIGNING_KEY_MAX_AGE_SECONDS = SIGNING_KEY_MAX_AGE_MS / 1000;

/** After a failed fetch, or a fetch after a signature mismatch: at most one per webhook in this window. */
export const SIGNING_KEY_REFETCH_INTERVAL_MS = 60_000;

interface CacheEntry {
	secret?: string;
	/** When `secret` was fetched (or remembered from the activation's read). */
	fetchedAt?: Instant;
	/** When the last fetch failed: the next one waits for the interval. */
	failedAt?: Instant;
	/** Until when the service asked to wait (monotonic ms), when the last fetch was refused with 429. */
	waitUntil?: number;
	/** When the last fetch after a signature mismatch was allowed. */
	lastRefreshAt?: Instant;
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

/** Credential + webhook id: the same webhook id under two credentials never shares a key. */
export function signingKeyCacheKey(credentialId: string, webhookId: string): string {
	return JSON.stringify([credentialId, webhookId]);
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
export function rememberSigningKey(cacheKey: string, secret: unknown, now: Instant = instantNow()): void {
	if (typeof secret !== 'string' || secret === '') return;
	const entry = entryFor(cacheKey);
	entry.secret = secret;
	entry.fetchedAt = now;
	entry.failedAt = undefined;
}

/** What is left of the wait the service asked for at the last failed fetch of this key, in seconds. */
export function signingKeyWaitSeconds(cacheKey: string, now: Instant = instantNow()): number | undefined {
	const until = cache.get(cacheKey)?.waitUntil;
	return until !== undefined && until > now.monotonic ? (until - now.monotonic) / 1000 : undefined;
}

export function forgetSigningKey(cacheKey: string): void {
	cache.delete(cacheKey);
}

async function fetchShared(entry: CacheEntry, source: SigningKeySource, now: Instant): Promise<string> {
	if (!entry.pending) {
		entry.pending = source.load().then(
			(secret) => {
				entry.pending = undefined;
				rememberSigningKey(source.cacheKey, secret, now);
				return secret;
			},
			(error: unknown) => {
				entry.pending = undefined;
				// A key kept from before is still only used while young (see currentSigningKey).
				entry.failedAt = now;
				const wait = rateLimitWaitOf(error);
				entry.waitUntil = wait === undefined ? undefined : now.monotonic + wait * 1000;
				throw error;
			},
		);
	}
	return await entry.pending;
}

/**
 * The key to verify with: the cached one while younger than `maxAgeMs`, else a fetched one.
 * After a failed fetch, the next runs only once the interval has passed.
 * `undefined`: no usable key, and none may be fetched now.
 */
export async function currentSigningKey(
	source: SigningKeySource,
	now: Instant = instantNow(),
	maxAgeMs: number = SIGNING_KEY_MAX_AGE_MS,
): Promise<string | undefined> {
	const entry = entryFor(source.cacheKey);
	if (entry.secret !== undefined && entry.fetchedAt !== undefined && !passedOnEither(entry.fetchedAt, now, maxAgeMs)) {
		return entry.secret;
	}
	if (!entry.pending && entry.failedAt !== undefined && !passedOnEither(entry.failedAt, now, SIGNING_KEY_REFETCH_INTERVAL_MS)) {
		return undefined;
	}
	return await fetchShared(entry, source, now);
}

/**
 * After a signature did not match the cached key: the key may have been rotated. Fetches it again
 * at most once per interval, so forged deliveries cannot make us hammer the service. Returns the
 * new key only if it differs from the one that failed.
 */
export async function refreshedSigningKey(
	source: SigningKeySource,
	failedSecret: string,
	now: Instant = instantNow(),
): Promise<string | undefined> {
	const entry = entryFor(source.cacheKey);
	if (entry.secret !== undefined && entry.secret !== failedSecret) return entry.secret;
	// Fetched for this very delivery (same clock reading): fetching again cannot tell more.
	if (entry.fetchedAt?.monotonic === now.monotonic) return undefined;
	if (!entry.pending) {
		if (entry.lastRefreshAt !== undefined && !passedOnEither(entry.lastRefreshAt, now, SIGNING_KEY_REFETCH_INTERVAL_MS)) {
			return undefined;
		}
		entry.lastRefreshAt = now;
	}
	const secret = await fetchShared(entry, source, now);
	return secret !== failedSecret ? secret : undefined;
}
