import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { filteredOut, type DeliveryFilters } from '../shared/filters';
import { resourcePath } from '../shared/transport';
import { identity, type TimedEntry } from './cursor';
import { pollItem, text, timeOf, type PollEvent } from './items';
import type { PolledList } from './read';
import { MAX_FOLLOWED_APPLICATIONS } from './stages';

/**
 * The node's parameters, read and checked by settings.ts: the jobs followed (per-job events) or
 * New Application's Job IDs filter; the webhook trigger's filters an entry must pass; Start From in ms.
 */
export interface Settings {
	event: PollEvent;
	jobIds: string[];
	parentStages: Set<string>;
	filters: DeliveryFilters;
	startFrom?: number;
}

/** A list an event reads, with the key of its cursor in the state. */
export interface EventList { key: string; list: PolledList }

/**
 * Everything the trigger knows of one event: how the editor shows it (`name`, `description`), whether
 * it is followed job by job (what it follows of a job, named when one is gone), whether its entries
 * are applications (the Parent Stages filter) and found by their own times (Start From), the lists
 * read at each poll (none for stage changes: stages.ts compares snapshots) and Fetch Test Event's
 * where they differ, and the item an entry becomes (undefined: filtered out). Adding an event is
 * adding an entry here (and its test).
 */
export interface PollEventDefinition {
	name: string;
	description: string;
	perJob: false | { follows: string };
	applications: boolean;
	startFrom: boolean;
	lists(settings: Settings): EventList[];
	sampleLists?(settings: Settings): EventList[];
	toItem(settings: Settings, listKey: string, entry: TimedEntry<IDataObject>): IDataObject | undefined;
}

const APPLICATIONS_NEWEST_FIRST = { sort: '-applied_at' };

const applicationList = (qs: IDataObject): PolledList => ({
	path: resourcePath('applications'),
	qs,
	expected: 'newestFirst',
	timeOf: (a) => timeOf(a.applied_at),
});

export const EVENTS: Record<PollEvent, PollEventDefinition> = {
	'application.created': {
		name: 'New Application',
		description: 'A candidate applied to a job, or was added to one',
		perJob: false,
		applications: true,
		startFrom: true,
		// The whole account, filtered here (one request while idle); Fetch Test Event asks for the Job IDs filter's jobs.
		lists: () => [{ key: 'applications', list: applicationList(APPLICATIONS_NEWEST_FIRST) }],
		sampleLists: (settings) =>
			settings.jobIds.length === 0
				? EVENTS['application.created'].lists(settings)
				: settings.jobIds.map((jobId) => ({ key: 'applications', list: applicationList({ ...APPLICATIONS_NEWEST_FIRST, job_id: jobId }) })),
		toItem: (settings, _listKey, { entry, id }) =>
			filteredOut(settings.filters, settings.event, entry) === undefined ? pollItem(settings.event, text(entry.applied_at), id, entry) : undefined,
	},
	'application.stage.updated': {
		name: 'Application Stage Changed',
		description: `An application of the chosen jobs moved to another stage (at most ${MAX_FOLLOWED_APPLICATIONS} applications followed)`,
		perJob: { follows: 'stage changes' },
		applications: true,
		startFrom: false,
		lists: () => [],
		toItem: () => undefined,
	},
	'feedback.submitted': {
		name: 'Feedback Completed',
		description: "A reviewer completed feedback (needs the service's full API)",
		perJob: false,
		applications: false,
		startFrom: true,
		lists: () => [
			{
				key: 'feedback',
				list: {
					path: resourcePath('feedback'),
					qs: { sort: '-date_complete' },
					expected: 'newestFirst',
					isEvent: (f) => f.status === 'complete',
					timeOf: (f) => timeOf(f.date_complete),
					whenMissing: (context) =>
						new NodeOperationError(context.getNode(), "Feedback Completed needs GET /feedback, an endpoint of the service's full API, which the service at the credential's Base URL does not offer (it answered 404)", {
							description: "Use a service with the full API (such as the hosted one), or the Recruiting Trigger's feedback.submitted event.",
						}),
				},
			},
		],
		// Completed again (reopened first) is another event: the completion's time is part of its ID.
		toItem: (settings, _listKey, timed) => pollItem(settings.event, text(timed.entry.date_complete), identity({ id: timed.id, time: timed.time }), timed.entry),
	},
	'job.note.created': {
		name: 'New Job Note',
		description: 'A note was added to one of the chosen jobs',
		perJob: { follows: 'notes' },
		applications: false,
		startFrom: true,
		lists: (settings) =>
			settings.jobIds.map((jobId) => ({
				key: `job:${jobId}`,
				// No sort: the service lists notes oldest first.
				list: { path: resourcePath('jobs', jobId, 'notes'), expected: 'oldestFirst', timeOf: (n) => timeOf(n.date_created), notFound: `job "${jobId}"` },
			})),
		toItem: (settings, listKey, { entry, id }) => {
			const jobId = listKey.slice('job:'.length);
			return pollItem(settings.event, text(entry.date_created), `${jobId}:${id}`, entry, { jobId });
		},
	},
};

/** The events with a property set, for the editor's display options. */
export const eventsWhere = (property: 'perJob' | 'applications' | 'startFrom', value = true): PollEvent[] =>
	(Object.keys(EVENTS) as PollEvent[]).filter((event) => Boolean(EVENTS[event][property]) === value);
