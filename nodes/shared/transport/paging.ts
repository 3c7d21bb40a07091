import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import type { RequestPolicy } from './policy';
import { recruitingRequest } from './request';
import type { RecruitingContext } from './types';
import { runOf } from './state';
import { walkInOrder } from './walker';

/**
 * Lists: Return All and Limit over the service's pagination envelope, with several pages in
 * flight. Every item exactly once, in order, or a clear error.
 */

/** The service's largest page size; Return All always asks for it. */
export const MAX_PAGE_SIZE = 100;

/**
 * Pages of a Return All list requested at once: what the calling node's item policy sets, else
 * (and in pickers and dropdowns, which set none) the run's read window (state.ts).
 */
function pagesInFlightOf(this: RecruitingContext, itemIndex: number | undefined): number {
	const run = runOf(this);
	const set = itemIndex === undefined ? undefined : run.items?.pagesInFlight?.(itemIndex);
	return set ?? run.readWindow;
}

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
	/** The most pages a list may have; past it the list is refused (default MAX_PAGES). */
	maxPages?: number;
	/**
	 * Read the list again (at most READS_OF_A_CHANGING_LIST times) when its length changes between
	 * its pages: an item added or removed meanwhile shifts others across a page boundary, so one
	 * would be met twice or missed without a trace.
	 */
	rereadIfChanged?: boolean;
}

const READS_OF_A_CHANGING_LIST = 3;

/**
 * A bound on any list: a service that keeps saying "next page" with items the repeat guard cannot
 * check (no ids) would otherwise be read forever. 10,000 pages of 100 is a million records.
 */
export const MAX_PAGES = 10_000;

/**
 * The page size that reaches `limit` in the fewest pages and over-fetches least:
 * limit 150 → 2 pages of 75; Return All → pages of 100.
 */
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

/**
 * Exactly one page (`page`, of `pageSize` items), for a caller that pages itself (an AI agent's
 * tool asks for the next page in a later call). Checked like every page of a longer walk.
 */
export async function recruitingRequestPage(
	this: RecruitingContext,
	list: Omit<ListRequest, 'limit' | 'concurrency' | 'maxPages'> & { page: number; pageSize: number },
): Promise<ListPage> {
	const fetch = async () =>
		(await recruitingRequest.call(this, {
			method: 'GET',
			path: list.path,
			qs: { ...list.qs, page: list.page, page_size: list.pageSize },
			itemIndex: list.itemIndex,
			notFound: list.notFound,
			policy: list.policy,
		})) as PageEnvelope | undefined;
	const fail = (reason: string) =>
		new NodeApiError(this.getNode(), { page: list.page, reason } as JsonObject, {
			message: 'The Recruiting service returned an inconsistent list',
			description: `${list.path}, page ${list.page}: ${reason}`,
			itemIndex: list.itemIndex,
		});
	const envelope = await checkedPage(fetch, fail, list);
	if (envelope.items.some((item) => typeof item !== 'object' || item === null || Array.isArray(item))) {
		throw fail('it holds an entry that is not an object');
	}
	const total = envelope.meta?.total_items;
	return {
		items: envelope.items,
		totalItems: typeof total === 'number' && Number.isSafeInteger(total) && total >= 0 ? total : undefined,
		hasNextPage: envelope.meta?.has_next_page === true,
	};
}

/**
 * A page with its items array. A short page (empty while it claims a successor, or holding fewer
 * items than the list's length leaves for it) would silently drop items: it is asked for once more,
 * here and nowhere else. Empty again with a successor: an error; short again: the length is taken to lie.
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
 * Walks the pagination envelope by page number (never by `links.next`, which could point at
 * another host and take the token with it). Guards against an envelope that never ends or
 * repeats a page, so a faulty service gives a clear error instead of a loop or duplicates.
 *
 * The first page is fetched alone. With a concurrency above 1, once it tells `total_pages`, the
 * pages still needed go through `walkInOrder`: up to `concurrency` at a time, checked and
 * collected strictly in page order, exactly as one after another would (the same guards, the same
 * items in the same order). After the first failure no further page is requested, the ones in
 * flight are awaited, and the failure of the earliest page is thrown.
 */
export async function recruitingRequestAllItems(
	this: RecruitingContext,
	list: ListRequest,
): Promise<IDataObject[]> {
	for (let read = 1; ; read++) {
		const items = await readAllItems.call(this, list);
		if (items !== undefined) return items;
		if (read === READS_OF_A_CHANGING_LIST) {
			throw new NodeApiError(this.getNode(), { reason: 'list kept changing' } as JsonObject, {
				message: 'The Recruiting service returned an inconsistent list',
				description: `${list.path}: its length changed while it was read, ${read} times in a row. Stopped to avoid losing or repeating items; try again shortly.`,
				itemIndex: list.itemIndex,
			});
		}
	}
}

/** One read of the list, as recruitingRequestAllItems says; undefined when it changed (rereadIfChanged). */
async function readAllItems(this: RecruitingContext, list: ListRequest): Promise<IDataObject[] | undefined> {
	const node = this.getNode();
	const pageSize = pageSizeFor(list.limit);
	const concurrency = Math.max(1, Math.floor(list.concurrency ?? pagesInFlightOf.call(this, list.itemIndex)));
	const collected: IDataObject[] = [];
	const idsSeen = new Set<string>();
	let totalPages: number | undefined;
	let firstTotal: number | undefined;
	let changed = false;

	const fetchPage = async (page: number) =>
		(await recruitingRequest.call(this, {
			method: 'GET',
			path: list.path,
			qs: { ...list.qs, page, page_size: pageSize },
			itemIndex: list.itemIndex,
			notFound: list.notFound,
			policy: list.policy,
		})) as PageEnvelope | undefined;

	const fail = (page: number, reason: string) =>
		new NodeApiError(node, { page, reason } as JsonObject, {
			message: 'The Recruiting service returned an inconsistent list',
			description: `${list.path}, page ${page}: ${reason}. Stopped to avoid losing or repeating items.`,
			itemIndex: list.itemIndex,
		});

	/** Checks one page and collects its items; true once the list (or the limit) is complete. */
	const accept = async (page: number, answer: PageEnvelope | undefined): Promise<boolean> => {
		const envelope = await checkedPage(() => fetchPage(page), (reason) => fail(page, reason), { page, pageSize }, answer);
		const items = envelope.items;
		const length = envelope.meta?.total_items;
		if (list.rereadIfChanged && typeof length === 'number') {
			firstTotal ??= length;
			if (length !== firstTotal) return (changed = true);
		}
		// Any id seen before means a repeated or shifted page: the list would hold duplicates.
		for (const item of items) {
			if (typeof item !== 'object' || item === null || Array.isArray(item)) {
				throw fail(page, 'it holds an entry that is not an object');
			}
			const id = item.id === undefined || item.id === null ? '' : String(item.id);
			if (id === '') continue;
			// Read again where it may change (an entry moved meanwhile), else a faulty list.
			if (idsSeen.has(id) && list.rereadIfChanged) return (changed = true);
			if (idsSeen.has(id)) throw fail(page, `it repeats an earlier page (item "${id}")`);
			idsSeen.add(id);
		}
		totalPages ??= envelope.meta?.total_pages;

		for (const item of items) {
			if (list.limit !== undefined && collected.length >= list.limit) break;
			collected.push(item);
		}
		if (list.limit !== undefined && collected.length >= list.limit) return true;
		if (envelope.meta?.has_next_page !== true) {
			// The last page: an empty or short page must not silently drop items the list says it has.
			const total = envelope.meta?.total_items;
			if (typeof total === 'number' && collected.length < total) {
				throw fail(page, `the list ended after ${collected.length} items but says it holds ${total}`);
			}
			return true;
		}
		if (totalPages !== undefined && page >= totalPages) {
			throw fail(page, `it says there is a next page beyond the last one (${totalPages})`);
		}
		if (page >= (list.maxPages ?? MAX_PAGES)) {
			throw fail(page, `it says there are more than ${list.maxPages ?? MAX_PAGES} pages`);
		}
		return false;
	};

	let finished = await accept(1, await fetchPage(1));

	// The pages the list says are still needed, a bounded number in flight, consumed in order.
	const known = typeof totalPages === 'number' && Number.isInteger(totalPages) ? totalPages : 0;
	const lastPage = list.limit === undefined ? known : Math.min(known, Math.ceil(list.limit / pageSize));
	let next = 2;
	if (!finished && concurrency > 1 && lastPage > 2) {
		await walkInOrder({
			first: 2,
			last: lastPage,
			window: concurrency,
			start: fetchPage,
			accept: async (page, envelope) => (finished = await accept(page, envelope)),
		});
		next = lastPage + 1;
	}
	// One after another: no `total_pages`, one page at a time asked for, or a short list under a limit.
	if (!finished) await walkInOrder({ first: next, last: Infinity, window: 1, start: fetchPage, accept });
	return changed ? undefined : collected;
}
