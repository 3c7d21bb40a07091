import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { recruitingRequestPage, type ListPage } from '../shared/transport';
import type { TimedEntry } from './cursor';
import { POLL_PAGE_SIZE, type PolledList } from './listReader';

/** Pages Fetch Test Event reads at the most before it says nothing matches (someone waits in the editor). */
export const SAMPLE_MAX_PAGES = 20;

/**
 * Fetch Test Event's read: the newest entry that `toItem` accepts, from the newest end of the list
 * (page 1 of a newest-first list, the last page of an oldest-first one), stopping at the first page
 * that holds one. Undefined when none of the newest SAMPLE_MAX_PAGES pages does.
 */
export async function newestMatch(
	this: IPollFunctions,
	list: PolledList,
	toItem: (entry: TimedEntry<IDataObject>) => IDataObject | undefined,
): Promise<{ time: number; item: IDataObject } | undefined> {
	const read = (page: number): Promise<ListPage> =>
		recruitingRequestPage.call(this, { path: list.path, qs: list.qs, page, pageSize: POLL_PAGE_SIZE, notFound: list.notFound });
	const matchIn = ({ items }: ListPage) => {
		let best: { time: number; item: IDataObject } | undefined;
		for (const entry of items) {
			const time = list.isEvent?.(entry) === false ? undefined : list.timeOf(entry);
			const id = entry.id === undefined || entry.id === null ? '' : String(entry.id);
			if (time === undefined || id === '' || (best && best.time >= time)) continue;
			const item = toItem({ entry, id, time });
			if (item) best = { time, item };
		}
		return best;
	};
	const first = await read(1);
	let match = matchIn(first);
	if (list.expected === 'newestFirst') {
		for (let page = 2, last = first; !match && last.hasNextPage && page <= SAMPLE_MAX_PAGES; page++) {
			last = await read(page);
			match = matchIn(last);
		}
		return match;
	}
	// Oldest first: from the last page back; page 1, read first for the list's length, comes last.
	const pages = Math.ceil((first.totalItems ?? 0) / POLL_PAGE_SIZE);
	for (let page = pages; page > 1 && pages - page < SAMPLE_MAX_PAGES; page--) {
		const found = matchIn(await read(page));
		if (found) return found;
	}
	return match;
}
