import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { isObject } from './classify';
import type { RequestPolicy } from './policy';
import { recruitingRequest } from './request';
import type { RecruitingContext } from './types';
import { runOf } from './state';
import { walkInOrder } from './walker';

/** Lists: Return All and Limit over the service's pagination envelope. Every item exactly once, in order, or a clear error. */

/** The service's largest page size; Return All always asks for it. */
export const MAX_PAGE_SIZE = 100;

export interface PageEnvelope {
	meta?: {
		page?: number;
		page_size?: number;
		total_items?: number;
		total_pages?: number;
		has_next_page?: boolean;
	};
	items?: IDataObject[];
}

export interface ListRequest {
	path: string;
	qs?: IDataObject;
	/** Undefined: every item (Return All). */
	limit?: number;
	itemIndex?: number;
	notFound?: string;
	policy?: Partial<RequestPolicy>;
	/** Pages in flight at once after the first; default: the item policy's, else the read window. */
	concurrency?: number;
	/** Read again when its length changes between pages: an item added or removed shifts others across pages. */
	rereadIfChanged?: boolean;
}

const READS_OF_A_CHANGING_LIST = 3;

/** A bound on any list: one that keeps saying "next page" with items the repeat guard cannot check (no ids) would never end. */
export const MAX_PAGES = 10_000;

/** The page size that reaches `limit` in the fewest pages and over-fetches least (150: 2 pages of 75). */
export function pageSizeFor(limit: number | undefined): number {
	if (limit === undefined) return MAX_PAGE_SIZE;
	const pages = Math.max(1, Math.ceil(limit / MAX_PAGE_SIZE));
	return Math.max(1, Math.ceil(limit / pages));
}

/** One page of a list, with what the envelope says about the rest. */
export interface ListPage {
	items: IDataObject[];
	totalItems?: number;
	hasNextPage: boolean;
}

/** Exactly one page, for a caller that pages itself (an AI agent's tool), checked like every page of a walk. */
export async function recruitingRequestPage(
	this: RecruitingContext,
	list: Omit<ListRequest, 'limit' | 'concurrency'> & { page: number; pageSize: number },
): Promise<ListPage> {
	const fail = (reason: string) => inconsistentList(this, list, { page: list.page, reason }, `${list.path}, page ${list.page}: ${reason}`);
	const envelope = await checkedPage(() => fetchPage.call(this, list, list.page, list.pageSize), fail, list);
	if (!envelope.items.every(isObject)) throw fail('it holds an entry that is not an object');
	const total = envelope.meta?.total_items;
	return {
		items: envelope.items,
		totalItems: typeof total === 'number' && Number.isSafeInteger(total) && total >= 0 ? total : undefined,
		hasNextPage: envelope.meta?.has_next_page === true,
	};
}

/** Page `page` of `list`, as the service answers it. */
async function fetchPage(this: RecruitingContext, list: Omit<ListRequest, 'limit'>, page: number, pageSize: number): Promise<PageEnvelope | undefined> {
	return (await recruitingRequest.call(this, {
		method: 'GET',
		path: list.path,
		qs: { ...list.qs, page, page_size: pageSize },
		itemIndex: list.itemIndex,
		notFound: list.notFound,
		policy: list.policy,
	})) as PageEnvelope | undefined;
}

function inconsistentList(context: RecruitingContext, list: { itemIndex?: number }, reason: JsonObject, description: string): NodeApiError {
	return new NodeApiError(context.getNode(), reason, {
		message: 'The Recruiting service returned an inconsistent list',
		description,
		itemIndex: list.itemIndex,
	});
}

/**
 * A page with its items array. A short page (empty while it claims a successor, or fewer items than
 * the list's length leaves for it) is asked for once more; empty again with a successor: an error.
 */
async function checkedPage(
	fetch: () => Promise<PageEnvelope | undefined>,
	fail: (reason: string) => Error,
	at: { page: number; pageSize: number },
	answer?: PageEnvelope,
): Promise<PageEnvelope & { items: IDataObject[] }> {
	let envelope = answer ?? (await fetch());
	if (!envelope || !Array.isArray(envelope.items)) throw fail('the answer has no items array');
	const total = envelope.meta?.total_items;
	const owed = typeof total === 'number' ? Math.min(at.pageSize, total - (at.page - 1) * at.pageSize) : 0;
	if ((envelope.items.length === 0 && envelope.meta?.has_next_page === true) || envelope.items.length < owed) {
		envelope = await fetch();
		if (!envelope || !Array.isArray(envelope.items)) throw fail('the answer has no items array');
		if (envelope.items.length === 0 && envelope.meta?.has_next_page === true) throw fail('it is empty but says there is a next page');
	}
	return envelope as PageEnvelope & { items: IDataObject[] };
}

/**
 * Walks the envelope by page number (never by `links.next`, which could take the token to another
 * host), guarded against one that never ends or repeats a page. The first page comes alone; the
 * pages it says are still needed then go several at a time (walker.ts), taken in page order.
 */
export async function recruitingRequestAllItems(
	this: RecruitingContext,
	list: ListRequest,
): Promise<IDataObject[]> {
	for (let read = 1; ; read++) {
		const items = await readAllItems.call(this, list);
		if (items !== undefined) return items;
		if (read === READS_OF_A_CHANGING_LIST) {
			const why = `its length changed while it was read, ${read} times in a row. Stopped to avoid losing or repeating items; try again shortly.`;
			throw inconsistentList(this, list, { reason: 'list kept changing' }, `${list.path}: ${why}`);
		}
	}
}

/** One read of the list, as recruitingRequestAllItems says; undefined when it changed (rereadIfChanged). */
async function readAllItems(this: RecruitingContext, list: ListRequest): Promise<IDataObject[] | undefined> {
	const pageSize = pageSizeFor(list.limit);
	// Pages in flight: the caller's, else the node's item policy, else (pickers set none) the run's read window.
	const run = runOf(this);
	const set = list.concurrency ?? (list.itemIndex === undefined ? undefined : run.items?.pagesInFlight?.(list.itemIndex));
	const concurrency = Math.max(1, Math.floor(set ?? run.readWindow));
	const collected: IDataObject[] = [];
	const idsSeen = new Set<string>();
	let totalPages: number | undefined;
	let firstTotal: number | undefined;
	let changed = false;

	const fetch = async (page: number) => await fetchPage.call(this, list, page, pageSize);
	const fail = (page: number, reason: string) =>
		inconsistentList(this, list, { page, reason }, `${list.path}, page ${page}: ${reason}. Stopped to avoid losing or repeating items.`);

	/** Checks one page and collects its items; true once the list (or the limit) is complete. */
	const accept = async (page: number, answer: PageEnvelope | undefined): Promise<boolean> => {
		const envelope = await checkedPage(() => fetch(page), (reason) => fail(page, reason), { page, pageSize }, answer);
		const total = envelope.meta?.total_items;
		if (list.rereadIfChanged && typeof total === 'number') {
			firstTotal ??= total;
			if (total !== firstTotal) return (changed = true);
		}
		// Any id seen before means a repeated or shifted page: the list would hold duplicates.
		for (const item of envelope.items) {
			if (!isObject(item)) throw fail(page, 'it holds an entry that is not an object');
			const id = item.id === undefined || item.id === null ? '' : String(item.id);
			if (id === '') continue;
			// Read again where it may change (an entry moved meanwhile), else a faulty list.
			if (idsSeen.has(id) && list.rereadIfChanged) return (changed = true);
			if (idsSeen.has(id)) throw fail(page, `it repeats an earlier page (item "${id}")`);
			idsSeen.add(id);
		}
		totalPages ??= envelope.meta?.total_pages;

		for (const item of envelope.items) {
			if (list.limit !== undefined && collected.length >= list.limit) break;
			collected.push(item);
		}
		if (list.limit !== undefined && collected.length >= list.limit) return true;
		if (envelope.meta?.has_next_page !== true) {
			// The last page: an empty or short page must not silently drop items the list says it has.
			if (typeof total === 'number' && collected.length < total) {
				throw fail(page, `the list ended after ${collected.length} items but says it holds ${total}`);
			}
			return true;
		}
		if (totalPages !== undefined && page >= totalPages) {
			throw fail(page, `it says there is a next page beyond the last one (${totalPages})`);
		}
		if (page >= MAX_PAGES) throw fail(page, `it says there are more than ${MAX_PAGES} pages`);
		return false;
	};

	let finished = await accept(1, await fetch(1));

	// The pages the list says are still needed, a bounded number in flight, consumed in order.
	const known = typeof totalPages === 'number' && Number.isInteger(totalPages) ? totalPages : 0;
	const lastPage = list.limit === undefined ? known : Math.min(known, Math.ceil(list.limit / pageSize));
	let next = 2;
	if (!finished && concurrency > 1 && lastPage > 2) {
		await walkInOrder({
			first: 2,
			last: lastPage,
			window: concurrency,
			start: fetch,
			accept: async (page, envelope) => (finished = await accept(page, envelope)),
		});
		next = lastPage + 1;
	}
	// One after another: no `total_pages`, one page at a time asked for, or a short list under a limit.
	if (!finished) await walkInOrder({ first: next, last: Infinity, window: 1, start: fetch, accept });
	return changed ? undefined : collected;
}
