import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { MAX_PAGES, recruitingRequestAllItems, recruitingRequestPage, type ListPage } from '../shared/transport';
import { LOOK_BACK_MS, type Cursor, type ListOrder, type TimedEntry } from './cursor';

/** Pages of the largest size: the fewest requests for a poll that finds many new items. */
export const POLL_PAGE_SIZE = 100;

/** A list the trigger polls, and how to read an entry's own time. */
export interface PolledList {
	path: string;
	qs?: IDataObject;
	/** The order the list is asked for (newest first where a sort is sent). */
	expected: ListOrder;
	/** The entry's own time in ms, or undefined when it has none yet (pending feedback). */
	timeOf(entry: IDataObject): number | undefined;
	/** What a 404 means, e.g. `job "job_1"`. */
	notFound?: string;
}

export interface ListRead {
	/** Every entry read at or after the floor (new or not), each once, oldest first where the list has an order. */
	entries: Array<TimedEntry<IDataObject>>;
	count?: number;
	order: ListOrder;
	/** Set when the list came in another order than the cursor expected. */
	orderChanged?: { from: ListOrder; to: ListOrder };
}

/** Reads what a poll needs of one list, and no more; `seeding` reads the look-back window before the newest entry. */
export class ListReader {
	private readonly pages = new Map<number, Promise<ListPage>>();

	private readonly entries = new Map<string, TimedEntry<IDataObject>>();

	private newest = -Infinity;

	/** The list's length, as the last page read said. */
	private count: number | undefined;

	constructor(
		private readonly context: IPollFunctions,
		private readonly list: PolledList,
		private readonly cursor: Cursor,
		private readonly seeding: boolean,
	) {}

	/**
	 * Newest first: from page 1 until an entry older than the floor. Oldest first: from the page
	 * that held the last known entry. Neither (the service ignored the sort): every page.
	 */
	async read(): Promise<ListRead> {
		const from = this.cursor.order ?? this.list.expected;
		let order = from;
		if (order === 'newestFirst') order = await this.attempt(order, () => this.readNewestFirst());
		if (order === 'oldestFirst') order = await this.attempt(order, () => this.readOldestFirst());
		if (order === 'unordered') await this.readEverything();
		// Oldest first, as the list orders entries that share a time (a newest-first list, read backwards).
		const entries = [...this.entries.values()];
		if (order === 'newestFirst') entries.reverse();
		return {
			entries,
			count: this.count,
			order,
			...(order !== from && { orderChanged: { from, to: order } }),
		};
	}

	/** Runs a read that expects `order`; when the list came in another, what was kept is dropped and that order returned. */
	private async attempt(order: ListOrder, read: () => Promise<ListOrder | undefined>): Promise<ListOrder> {
		const broken = await read();
		if (broken === undefined) return order;
		this.entries.clear();
		this.newest = -Infinity;
		return broken;
	}

	/** Entries before this time are old: the cursor's floor, or while seeding the look-back before the newest entry. */
	private floor(): number {
		if (this.seeding) return this.newest - LOOK_BACK_MS;
		return this.cursor.floor ?? -Infinity;
	}

	private page(page: number): Promise<ListPage> {
		let read = this.pages.get(page);
		if (!read) {
			read = recruitingRequestPage.call(this.context, {
				path: this.list.path,
				qs: this.list.qs,
				page,
				pageSize: POLL_PAGE_SIZE,
				notFound: this.list.notFound,
			});
			this.pages.set(page, read);
			read.catch(() => this.pages.delete(page));
		}
		return read;
	}

	/** Timed entries of a page, in the page's order. */
	private timed(page: ListPage): Array<TimedEntry<IDataObject>> {
		this.count = page.totalItems ?? this.count;
		const timed: Array<TimedEntry<IDataObject>> = [];
		for (const entry of page.items) {
			const time = this.list.timeOf(entry);
			const id = entry.id;
			if (time === undefined || (typeof id !== 'string' && typeof id !== 'number')) continue;
			timed.push({ entry, id: String(id), time });
		}
		return timed;
	}

	private keep(timed: Array<TimedEntry<IDataObject>>): void {
		for (const entry of timed) {
			this.newest = Math.max(this.newest, entry.time);
			if (entry.time >= this.floor() && !this.entries.has(entry.id)) this.entries.set(entry.id, entry);
		}
	}

	/** Undefined when the list came newest first, else the order it showed. */
	private async readNewestFirst(): Promise<ListOrder | undefined> {
		let previous = Infinity;
		for (let page = 1; page <= MAX_PAGES; page++) {
			const read = await this.page(page);
			const timed = this.timed(read);
			for (const { time } of timed) {
				if (time > previous) {
					const ascending = page === 1 && timed.every((e, i) => i === 0 || e.time >= timed[i - 1].time);
					return ascending ? 'oldestFirst' : 'unordered';
				}
				previous = time;
			}
			this.keep(timed);
			// The rest of the list is older than the floor.
			if (!read.hasNextPage || read.items.length === 0 || previous < this.floor()) return undefined;
		}
		return undefined;
	}

	/** Undefined when the list came oldest first, else 'unordered'. */
	private async readOldestFirst(): Promise<ListOrder | undefined> {
		const lastPageOf = (count: number | undefined) => Math.max(1, Math.ceil((count ?? 0) / POLL_PAGE_SIZE));
		let start = lastPageOf(this.cursor.count);
		let read = await this.page(start);
		if (read.items.length === 0 && start > 1) {
			// The list shrank: its last page is where the count now says.
			start = Math.min(start - 1, lastPageOf(read.totalItems));
			read = await this.page(start);
		}
		// Step back while the page begins at or after the floor: an earlier page may hold new entries too.
		for (;;) {
			const timed = this.timed(read);
			for (const entry of timed) this.newest = Math.max(this.newest, entry.time);
			const first = timed[0];
			if (start === 1 || (first !== undefined && first.time < this.floor())) break;
			start -= 1;
			read = await this.page(start);
		}
		let previous = -Infinity;
		for (let page = start; page <= MAX_PAGES; page++) {
			read = await this.page(page);
			const timed = this.timed(read);
			for (const { time } of timed) {
				if (time < previous) return 'unordered';
				previous = time;
			}
			this.keep(timed);
			if (!read.hasNextPage || read.items.length === 0) return undefined;
		}
		return undefined;
	}

	private async readEverything(): Promise<void> {
		const all = await recruitingRequestAllItems.call(this.context, {
			path: this.list.path,
			qs: this.list.qs,
			notFound: this.list.notFound,
		});
		const timed = this.timed({ items: all, hasNextPage: false });
		for (const entry of timed) this.newest = Math.max(this.newest, entry.time);
		this.keep(timed);
	}
}
