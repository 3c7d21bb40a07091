/**
 * The sandbox's seed is deterministic: building it again in a private store gives the same ids
 * the running sandbox holds, so a suite can pick records without going through the API.
 */
import { seed } from '../../sandbox/seed';
import { Store } from '../../sandbox/store';
import { COLLECTIONS, type CollectionName, type SeedSizes } from '../../sandbox';

export function seededIds(companyId: string, sizes: SeedSizes = {}): Record<CollectionName, string[]> {
	const store = new Store();
	seed(store, companyId, sizes);
	return Object.fromEntries(
		COLLECTIONS.map((c) => [c, store.values(c).map((record) => (record as { id: string }).id)]),
	) as Record<CollectionName, string[]>;
}

/** A seeded record, whole (for ids that must fit together, e.g. a note and its candidate). */
export function seededRecords<T = Record<string, unknown>>(
	companyId: string,
	collection: CollectionName,
	sizes: SeedSizes = {},
): T[] {
	const store = new Store();
	seed(store, companyId, sizes);
	return store.values(collection) as unknown as T[];
}
