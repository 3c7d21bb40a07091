import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { filteredOut } from '../shared/filters';
import { recruitingRequestPage, type ListPage } from '../shared/transport';
import type { TimedEntry } from './cursor';
import { EVENTS, type Settings } from './events';
import { pollItem, text, timeOf } from './items';
import { isNotFound, POLL_PAGE_SIZE, type PolledList } from './read';
import { readJobApplications } from './stages';

/** Pages Fetch Test Event reads at the most before it says nothing matches (someone waits in the editor). */
export const SAMPLE_MAX_PAGES = 20;

/**
 * The newest entry that `toItem` accepts, from the newest end of the list (an oldest-first list's last
 * page, page 1 read first for its length), stopping at the first page that holds one.
 */
async function newestMatch(this: IPollFunctions, list: PolledList, toItem: (entry: TimedEntry<IDataObject>) => IDataObject | undefined) {
	const read = async (page: number): Promise<ListPage> =>
		await recruitingRequestPage.call(this, { path: list.path, qs: list.qs, page, pageSize: POLL_PAGE_SIZE, notFound: list.notFound });
	const matchIn = ({ items }: ListPage) => {
		let best: { time: number; item: IDataObject } | undefined;
		for (const entry of items) {
			const time = list.isEvent?.(entry) === false ? undefined : list.timeOf(entry);
			const id = entry.id === undefined || entry.id === null ? '' : String(entry.id);
			const item = time === undefined || id === '' || (best && best.time >= time) ? undefined : toItem({ entry, id, time });
			if (item) best = { time: time as number, item };
		}
		return best;
	};
	const first = await read(1);
	const last = list.expected === 'newestFirst' ? SAMPLE_MAX_PAGES : Math.ceil((first.totalItems ?? 0) / POLL_PAGE_SIZE);
	const pages = list.expected === 'newestFirst' ? (n: number) => n : (n: number) => last + 1 - n;
	let page = first;
	for (let n = 1; n <= Math.min(last, SAMPLE_MAX_PAGES); n++) {
		if (pages(n) !== 1) page = await read(pages(n));
		const match = matchIn(pages(n) === 1 ? first : page);
		if (match || (list.expected === 'newestFirst' && !page.hasNextPage)) return match;
	}
	return last > SAMPLE_MAX_PAGES ? undefined : matchIn(first);
}

/** The newest entry matching the settings as the event's item, never the production cursor; an error when none does. */
export async function sample(this: IPollFunctions, settings: Settings): Promise<IDataObject[]> {
	const candidates: Array<{ time: number; item: IDataObject }> = [];
	if (settings.event === 'application.stage.updated') {
		const { byJob } = await readJobApplications.call(this, settings.jobIds);
		for (const application of [...byJob.values()].flat()) {
			if (filteredOut(settings.filters, settings.event, application) !== undefined) continue;
			const item = pollItem(settings.event, new Date().toISOString(), `${text(application.id)}:sample`, application, { previousStage: null });
			candidates.push({ time: timeOf(application.applied_at) ?? 0, item });
		}
	}
	const event = EVENTS[settings.event];
	for (const { key, list } of (event.sampleLists ?? event.lists)(settings)) {
		try {
			const match = await newestMatch.call(this, list, (entry) => event.toItem(settings, key, entry));
			if (match) candidates.push(match);
		} catch (error) {
			throw isNotFound(error) && list.whenMissing ? list.whenMissing(this) : error;
		}
	}
	const newest = candidates.sort((a, b) => b.time - a.time)[0];
	if (!newest) {
		throw new NodeOperationError(this.getNode(), "Nothing to show yet: no entry of this event matches the trigger's settings", {
			description: 'The trigger still works once published: it reports what happens from then on.',
		});
	}
	return [newest.item];
}
