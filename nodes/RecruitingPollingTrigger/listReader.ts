import type { IDataObject, INode, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { MAX_PAGES, recruitingRequestAllItems, recruitingRequestPage, type ListPage } from '../shared/transport';
import { CLOCK_SKEW_MS, LOOK_BACK_MS, settledBefore, type Cursor, type ListOrder, type TimedEntry } from './cursor';

/** Pages of the largest size: the fewest requests for a poll that finds many new items. */
export const POLL_PAGE_SIZE = 100;

/** Reads of one list in one poll when it keeps shrinking while it is read (an entry deleted between two pages). */
const READ_ATTEMPTS = 3;

/** Pages an oldest-first read steps back before it reads the whole list instead (a count that lies). */
const MAX_STEPS_BACK = 20;

/** A list the trigger polls, and how to read an entry's own time. */
export interface PolledList {
	path: string;
	qs?: IDataObject;
	/** The order the list is asked for (newest first where a sort is sent). */
	expected: ListOrder;
	/** The entry's own time in ms, or undefined when it has none yet (pending feedback). */
	timeOf(entry: IDataObject): number | undefined;
	/** Entries that are not events at all (pending feedback): left out without a word. */
	isEvent?(entry: IDataObject): boolean;
	/** What a 404 means, e.g. `job "job_1"`. */
	notFound?: string;
}

export interface ListRead {
	/** Every entry read at or after the floor (new or not), each once, oldest first where the list has an order. */
	entries: Array<TimedEntry<IDataObject>>;
	count?: number;
	order: ListOrder;
	/** Polls in a row the list came in another order than asked for (the expected one is tried again at 1, 2, 4, 8… of them). */
	offOrderPolls: number;
	/** Set when the list came in another order than at the last poll. */
	orderChanged?: { from: ListOrder; to: ListOrder };
	/** Entries left out because they have no ID or no readable time. */
	unreadable: number;
}

/** Tried again on these counts of off-order polls: a one-off glitch is forgotten at the next poll, a lasting order costs little. */
const isRecheck = (polls: number) => polls > 0 && (polls & (polls - 1)) === 0;

/** The transport's errors as they are; anything else (a defect) as a NodeOperationError. */
export function nodeErrorOf(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error);
}

/** The list shrank between two of its pages: an entry may have moved onto a page already read. */
class ListShrank extends Error {}

/** Reads what a poll needs of one list, and no more; `seeding` reads the look-back window before the newest entry. */
export class ListReader {
	private pages = new Map<number, Promise<ListPage>>();

	private entries = new Map<string, TimedEntry<IDataObject>>();

	private newest = -Infinity;

	/** The list's length as its first page read said, and as the last one said. */
	private firstCount: number | undefined;

	private count: number | undefined;

	private unreadable = new Set<IDataObject>();

	/** IDs read from the list's pages in this read: one met again on a later page was pushed down by new entries. */
	private readIds = new Set<string>();

	/**
	 * @param seeding reads the look-back window before the newest entry.
	 * @param now the time now (the service's, else n8n's): an entry stamped further ahead of it than
	 *   CLOCK_SKEW_MS counts as that while seeding, so that it does not hide the entries before it.
	 */
	constructor(
		private readonly context: IPollFunctions,
		private readonly list: PolledList,
		private readonly cursor: Cursor,
		private readonly seeding: boolean,
		private readonly now: () => number = () => Date.now(),
	) {}

	/**
	 * Newest first: from page 1 until an entry older than the floor. Oldest first: from the page
	 * that held the last known entry. Neither (the service ignored the sort): every page. A list that
	 * shrinks while it is read is read again.
	 */
	async read(): Promise<ListRead> {
		for (let attempt = 1; ; attempt++) {
			this.reset();
			try {
				return await this.readOnce();
			} catch (error) {
				if (!(error instanceof ListShrank)) throw nodeErrorOf(this.context.getNode(), error);
				if (attempt === READ_ATTEMPTS) {
					const changing = new NodeOperationError(this.context.getNode(), `The list ${this.list.path} kept changing while it was read (entries deleted between its pages)`, {
						description: `Read ${READ_ATTEMPTS} times; nothing was reported and the next poll reads it again.`,
					});
					throw Object.assign(changing, { failure: { cause: 'temporarily-unavailable' } });
				}
			}
		}
	}

	private reset(): void {
		this.pages = new Map();
		this.entries = new Map();
		this.newest = -Infinity;
		this.firstCount = undefined;
		this.count = undefined;
		this.unreadable = new Set();
		this.readIds = new Set();
	}

	private async readOnce(): Promise<ListRead> {
		const stored = this.cursor.order ?? this.list.expected;
		const offOrderPolls = stored === this.list.expected ? 0 : (this.cursor.offOrderPolls ?? 0) + 1;
		let order = isRecheck(offOrderPolls) ? this.list.expected : stored;
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
			offOrderPolls: order === this.list.expected ? 0 : offOrderPolls,
			...(order !== stored && { orderChanged: { from: stored, to: order } }),
			unreadable: this.unreadable.size,
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
		if (this.seeding) return Math.min(this.newest, this.now() + CLOCK_SKEW_MS) - LOOK_BACK_MS;
		return this.cursor.floor ?? -Infinity;
	}

	/** Where a read may stop: below the floor, or below the entries that are settled. */
	private readTo(): number {
		if (this.seeding) return this.floor();
		return Math.max(this.floor(), settledBefore(this.cursor) ?? -Infinity);
	}

	private page(page: number): Promise<ListPage> {
		let read = this.pages.get(page);
		if (!read) {
			read = this.fetchPage(page);
			this.pages.set(page, read);
			read.catch(() => this.pages.delete(page));
		}
		return read;
	}

	/**
	 * One page. A page with fewer entries than its list's length says it holds (an empty page that
	 * says more follow, a last page cut short) would drop entries: it is asked for once more.
	 */
	private async fetchPage(page: number): Promise<ListPage> {
		const request = () =>
			recruitingRequestPage.call(this.context, { path: this.list.path, qs: this.list.qs, page, pageSize: POLL_PAGE_SIZE, notFound: this.list.notFound });
		const short = (read: ListPage) => {
			const owed = read.totalItems === undefined ? 0 : Math.min(POLL_PAGE_SIZE, read.totalItems - (page - 1) * POLL_PAGE_SIZE);
			return (read.items.length === 0 && read.hasNextPage) || read.items.length < owed;
		};
		const read = await request();
		if (!short(read)) return read;
		const again = await request();
		if (!short(again)) return again;
		throw new NodeApiError(this.context.getNode(), { page, reason: 'short page' } as JsonObject, {
			message: 'The Recruiting service returned an inconsistent list',
			description: `${this.list.path}, page ${page}: it holds ${again.items.length} entries where the list's length (${again.totalItems ?? 'not given'}) and the next-page flag say there are more. Nothing was reported; the next poll reads it again.`,
		});
	}

	/** Timed entries of a page, in the page's order; notes the list's length (and whether it shrank). */
	private timed(page: ListPage): Array<TimedEntry<IDataObject>> {
		if (page.totalItems !== undefined) {
			this.firstCount ??= page.totalItems;
			if (page.totalItems < (this.count ?? this.firstCount)) throw new ListShrank();
			this.count = page.totalItems;
		}
		const timed: Array<TimedEntry<IDataObject>> = [];
		for (const entry of page.items) {
			if (this.list.isEvent?.(entry) === false) continue;
			const time = this.list.timeOf(entry);
			const id = entry.id;
			if (time === undefined || (typeof id !== 'string' && typeof id !== 'number') || String(id) === '') {
				this.unreadable.add(entry);
				continue;
			}
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
			// Entries that arrived while the pages were read push earlier ones onto the next page: met
			// again, they are no break in the order (the new ones are found by the next poll).
			const timed = this.timed(read).filter((entry) => !this.readIds.has(entry.id));
			for (const { id, time } of timed) {
				if (time > previous) {
					const ascending = page === 1 && timed.every((e, i) => i === 0 || e.time >= timed[i - 1].time);
					return ascending ? 'oldestFirst' : 'unordered';
				}
				previous = time;
				this.readIds.add(id);
			}
			this.keep(timed);
			// The rest of the list is older than the floor, or settled. (An empty page that says more follow is passed over.)
			if (!read.hasNextPage || previous < this.readTo()) return undefined;
		}
		return undefined;
	}

	/** Undefined when the list came oldest first, else 'unordered'. */
	private async readOldestFirst(): Promise<ListOrder | undefined> {
		const lastPageOf = (count: number | undefined) => Math.max(1, Math.ceil((count ?? 0) / POLL_PAGE_SIZE));
		let start = lastPageOf(this.cursor.count);
		let read = await this.page(start);
		if (read.items.length === 0 && start > 1) {
			// The list shrank since the last poll: its last page is where the count now says.
			start = Math.min(start - 1, lastPageOf(read.totalItems));
			this.firstCount = undefined;
			this.count = undefined;
			read = await this.page(start);
		}
		// Step back while the page begins at or after the floor: an earlier page may hold new entries too.
		for (let steps = 0; ; steps++) {
			const timed = this.timed(read);
			for (const entry of timed) this.newest = Math.max(this.newest, entry.time);
			const first = timed[0];
			if (start === 1 || (first !== undefined && first.time < this.readTo())) break;
			if (steps === MAX_STEPS_BACK) return 'unordered';
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
			if (!read.hasNextPage) return undefined;
		}
		return undefined;
	}

	private async readEverything(): Promise<void> {
		const all = await recruitingRequestAllItems.call(this.context, {
			path: this.list.path,
			qs: this.list.qs,
			notFound: this.list.notFound,
			// In no order, any entry added or removed meanwhile may shift another onto a page already read.
			rereadIfChanged: true,
		});
		const timed = this.timed({ items: all, hasNextPage: false });
		for (const entry of timed) this.newest = Math.max(this.newest, entry.time);
		this.keep(timed);
	}
}
