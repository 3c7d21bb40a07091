import type { IDataObject } from 'n8n-workflow';
import { resourcePath } from '../shared/transport';
import type { TimedEntry } from './cursor';
import { filteredOut } from '../shared/filters';
import { pollItem, text, timeOf } from './items';
import type { PolledList } from './listReader';
import type { Settings } from './settings';

/** A list an event reads, with the key of its cursor in the state. */
export interface EventList {
	key: string;
	list: PolledList;
}

const APPLICATIONS_NEWEST_FIRST = { sort: '-applied_at' };

const applicationList = (qs: IDataObject): PolledList => ({
	path: resourcePath('applications'),
	qs,
	expected: 'newestFirst',
	timeOf: (a) => timeOf(a.applied_at),
});

/** The lists an event reads at each poll (stage changes read their jobs' applications: stageChanges.ts). */
export function listsOf(settings: Settings): EventList[] {
	switch (settings.event) {
		case 'application.created':
			// The whole account, filtered here: one request while idle, whatever the number of jobs.
			return [{ key: 'applications', list: applicationList(APPLICATIONS_NEWEST_FIRST) }];
		case 'feedback.submitted':
			return [
				{
					key: 'feedback',
					list: {
						path: resourcePath('feedback'),
						qs: { sort: '-date_complete' },
						expected: 'newestFirst',
						isEvent: (f) => f.status === 'complete',
						timeOf: (f) => timeOf(f.date_complete),
					},
				},
			];
		case 'job.note.created':
			// The notes list has no sort: the service lists them oldest first.
			return settings.jobIds.map((jobId) => ({
				key: `job:${jobId}`,
				list: { path: resourcePath('jobs', jobId, 'notes'), expected: 'oldestFirst', timeOf: (n) => timeOf(n.date_created), notFound: `job "${jobId}"` },
			}));
		default:
			return [];
	}
}

/** What Fetch Test Event reads: New Application with a job filter asks the service for those jobs' applications. */
export function sampleListsOf(settings: Settings): EventList[] {
	if (settings.event !== 'application.created' || settings.jobIds.length === 0) return listsOf(settings);
	return settings.jobIds.map((jobId) => ({ key: 'applications', list: applicationList({ ...APPLICATIONS_NEWEST_FIRST, job_id: jobId }) }));
}

/** Whether a found entry passes the trigger's filters, and the item it becomes. */
export function toItem(settings: Settings, listKey: string, { entry, id }: TimedEntry<IDataObject>): IDataObject | undefined {
	switch (settings.event) {
		case 'application.created':
			if (filteredOut(settings.filters, settings.event, entry) !== undefined) return undefined;
			return pollItem(settings.event, text(entry.applied_at), id, entry);
		case 'feedback.submitted':
			return pollItem(settings.event, text(entry.date_complete), id, entry);
		default: {
			const jobId = listKey.slice('job:'.length);
			return pollItem(settings.event, text(entry.date_created), `${jobId}:${id}`, entry, { jobId });
		}
	}
}
