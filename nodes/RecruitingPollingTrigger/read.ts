import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { MAX_PAGES, recruitingRequestAllItems, recruitingRequestPage, type ListPage } from '../shared/transport';
import type { ListOrder, ListRead, TimedEntry } from './cursor';

/**
 * One read of a list, from its newest end back to `stop`, in the order its last read showed: newest
 * first from page 1; oldest first from the page that held the last entry, stepping back while a page
 * begins at or after `stop`, then on to the end. A read whose pages cannot be trusted (the list got
 * shorter between pages, or its order broke) becomes a whole read, which records the list's real order.
 */

/** Pages of the largest size: the fewest requests for a poll that finds many new entries. */
export const POLL_PAGE_SIZE = 100;

/** Pages an oldest-first read steps back before it reads the whole list instead (a length that lies). */
const MAX_STEPS_BACK = 20;

/**
 * A list the trigger polls: the order it is asked for, an entry's own time (none yet: not placed),
 * which entries are no events (pending feedback: left out without a word), what a 404 means.
 */
export interface PolledList {
	path: string;
	qs?: IDataObject;
	expected: ListOrder;
	timeOf(entry: IDataObject): number | undefined;
	isEvent?(entry: IDataObject): boolean;
	notFound?: string;
	whenMissing?(context: IPollFunctions): Error;
}

/** Where a read stops: entries before this time are old. Given the newest entry met so far (a first read stops relative to it). */
export type StopAt = (newest: number) => number;

/** `unreadable`: entries left out for having no ID or no readable time. */
type Read = ListRead<IDataObject> & { unreadable: number };

/** The transport's errors as they are; anything else (a defect) as a NodeOperationError. */
export function nodeErrorOf(node: INode, error: unknown): NodeApiError | NodeOperationError {
	return error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(node, error as Error);
}

export const isNotFound = (error: unknown) => error instanceof NodeApiError && error.httpCode === '404';

/** The pages' order can no longer be trusted: read the list whole. */
class Untrusted extends Error {}

/** The order entries show; undefined while they share one time (an empty list shows none). */
const orderOf = (entries: Array<TimedEntry<unknown>>): ListOrder | undefined => {
	const steps = new Set(entries.slice(1).map((e, i) => Math.sign(e.time - entries[i].time)));
	if (steps.has(1) && steps.has(-1)) return 'unordered';
	return steps.has(1) ? 'oldestFirst' : steps.has(-1) ? 'newestFirst' : undefined;
};

/** `known`: the list as its last read left it, its order and length (where an oldest-first read starts). */
export async function readList(this: IPollFunctions, list: PolledList, known: { order: ListOrder; count?: number }, stop: StopAt): Promise<Read> {
	let unreadable = 0;
	const timed = (page: ListPage) => {
		const entries: Array<TimedEntry<IDataObject>> = [];
		for (const entry of page.items) {
			if (list.isEvent?.(entry) === false) continue;
			const time = list.timeOf(entry);
			const id = typeof entry.id === 'string' || typeof entry.id === 'number' ? String(entry.id) : '';
			if (time === undefined || id === '') unreadable += 1;
			else entries.push({ entry, id, time });
		}
		return entries;
	};
	const pages = new Map<number, Promise<ListPage>>();
	const page = (n: number) => {
		if (!pages.has(n)) pages.set(n, recruitingRequestPage.call(this, { path: list.path, qs: list.qs, page: n, pageSize: POLL_PAGE_SIZE, notFound: list.notFound }));
		return pages.get(n) as Promise<ListPage>;
	};
	let count: number | undefined;
	/** A page read after another: the list must not have got shorter between them. */
	const counted = async (n: number) => {
		const read = await page(n);
		if (read.totalItems !== undefined) {
			if (count !== undefined && read.totalItems < count) throw new Untrusted();
			count = read.totalItems;
		}
		return read;
	};
	const within = (entries: Array<TimedEntry<IDataObject>>) => {
		const from = stop(entries.reduce((newest, e) => Math.max(newest, e.time), -Infinity));
		return entries.filter((e) => e.time >= from);
	};

	const newestFirst = async () => {
		const entries: Array<TimedEntry<IDataObject>> = [];
		const met = new Set<string>();
		for (let n = 1; n <= MAX_PAGES; n++) {
			const read = await counted(n);
			// An entry met again (here or oldest first) was pushed on by entries added meanwhile: the next poll finds those.
			for (const entry of timed(read).filter((e) => !met.has(e.id))) {
				if (entries.length > 0 && entry.time > entries[entries.length - 1].time) throw new Untrusted();
				met.add(entry.id);
				entries.push(entry);
			}
			const oldest = entries[entries.length - 1];
			if (!read.hasNextPage || (oldest && oldest.time < stop(entries[0].time))) break;
		}
		return entries.reverse();
	};

	const oldestFirst = async () => {
		const lastPage = (length: number) => Math.max(1, Math.ceil(length / POLL_PAGE_SIZE));
		// Where the last read ended; a list read for the first time says its length on page 1.
		const last = lastPage(known.count ?? (await counted(1)).totalItems ?? 0);
		if (last > 1 && (await counted(last)).items.length === 0) throw new Untrusted();
		let start = last;
		let newest = -Infinity;
		for (;;) {
			const entries = timed(await counted(start));
			if (start === last) newest = Math.max(newest, ...entries.map((e) => e.time));
			if (start === 1 || (entries.length > 0 && entries[0].time < stop(newest))) break;
			if (last - start === MAX_STEPS_BACK) throw new Untrusted();
			start -= 1;
		}
		const entries: Array<TimedEntry<IDataObject>> = [];
		const met = new Set<string>();
		for (let n = start; n <= MAX_PAGES; n++) {
			const read = await counted(n);
			for (const entry of timed(read).filter((e) => !met.has(e.id))) {
				met.add(entry.id);
				if (entries.length > 0 && entry.time < entries[entries.length - 1].time) throw new Untrusted();
				entries.push(entry);
			}
			if (!read.hasNextPage) break;
		}
		return entries;
	};

	const whole = async (): Promise<Read> => {
		unreadable = 0;
		const items = await recruitingRequestAllItems.call(this, { path: list.path, qs: list.qs, notFound: list.notFound, rereadIfChanged: true });
		const entries = timed({ items, hasNextPage: false });
		const found = orderOf(entries) ?? known.order;
		const sorted = found === 'newestFirst' ? entries.reverse() : entries;
		return { entries: within(sorted), order: found, count: items.length, unreadable };
	};

	try {
		if (known.order === 'unordered') return await whole();
		const entries = known.order === 'newestFirst' ? await newestFirst() : await oldestFirst();
		return { entries: within(entries), order: known.order, count, unreadable };
	} catch (error) {
		if (!(error instanceof Untrusted)) throw nodeErrorOf(this.getNode(), error);
		return await whole();
	}
}
