import type { IDisplayOptions, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { idRows } from '../shared/locator';
import { searchJobs } from '../shared/search';
import { PARENT_STAGE_OPTIONS } from '../shared/stages';
import { LOOK_BACK_MS, MAX_SEEN_IDS } from './cursor';
import { poll } from './poll';
import { MAX_JOBS } from './settings';
import { EVENTS, eventsWhere } from './events';

/**
 * Reads the service's lists at n8n's Poll Times and starts the workflow with the new events (one
 * execution per poll that finds any): for an n8n the service cannot reach. The events in events.ts,
 * a poll in poll.ts (its argument: docs/polling-trigger.md). Version 2 picks Job IDs from a list;
 * version 1 (saved workflows) keeps its comma-separated text; settings.ts reads both.
 */

const V1 = { '@version': [1] };
const V2 = { '@version': [{ _cnd: { gte: 2 } }] };

/** The per-job events' jobs, and New Application's filter. */
const PER_JOB_EVENTS = eventsWhere('perJob');
const FILTERED_BY_JOB = eventsWhere('perJob', false).filter((event) => EVENTS[event].applications);

const FOLLOWED = "each poll reads each job's list. A job added to a published workflow is followed from where it stands when it is published again.";
const FROM_THEN_ON = 'Changed on a published workflow: applies to what is found from then on.';

/** Version 1's Job IDs, as text. */
const jobIdsText = (description: string, displayOptions: IDisplayOptions): INodeProperties => ({
	displayName: 'Job IDs',
	name: 'jobIds',
	type: 'string',
	default: '',
	placeholder: 'job_abc123, job_def456',
	description,
	displayOptions,
});

/** Version 2's Job IDs: same name as version 1's text field, so settings.ts reads one parameter. */
const jobPicker = (description: string, displayOptions: IDisplayOptions): INodeProperties => ({
	...idRows({ name: 'jobIds', displayName: 'Job IDs', row: 'job', rowName: 'Job', placeholder: 'job_abc123', searchListMethod: 'searchJobs' }),
	description,
	displayOptions,
});

export class RecruitingPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Recruiting Polling Trigger',
		name: 'recruitingPollingTrigger',
		icon: { light: 'file:../Recruiting/recruiting.svg', dark: 'file:../Recruiting/recruiting.dark.svg' },
		group: ['trigger'],
		version: [1, 2],
		defaultVersion: 2,
		subtitle: `={{ ${JSON.stringify(Object.fromEntries(Object.entries(EVENTS).map(([value, { name }]) => [value, name])))}[$parameter["event"]] }}`,
		description: 'Starts a workflow when the recruiting service has a new application, stage change, completed feedback or job note, by checking it at set times (no public URL needed)',
		defaults: { name: 'Recruiting Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'recruitingApi', required: true }],
		properties: [
			{ displayName: 'Checks the service at the Poll Times set in this node, so events arrive within one interval. Where the service can reach this n8n, the Recruiting Trigger is instant and cheaper; both together miss nothing (README: Never miss an event).', name: 'notice', type: 'notice', default: '' },
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				default: 'application.created',
				description: 'Changed on a published workflow: the new event starts from where the account stands when it is published again (nothing of its past is reported)',
				options: Object.entries(EVENTS).map(([value, { name, description }]) => ({ name, value, description })),
			},
			{ ...jobIdsText(`The jobs to follow (comma-separated, at most ${MAX_JOBS}); ${FOLLOWED}`, { show: { event: PER_JOB_EVENTS, ...V1 } }), required: true },
			jobPicker(`The jobs to follow (at most ${MAX_JOBS}); ${FOLLOWED}`, { show: { event: PER_JOB_EVENTS, ...V2 } }),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					jobIdsText(`Only applications to these jobs (comma-separated). ${FROM_THEN_ON}`, { show: { '/event': FILTERED_BY_JOB, ...V1 } }),
					jobPicker(`Only applications to these jobs. ${FROM_THEN_ON}`, { show: { '/event': FILTERED_BY_JOB, ...V2 } }),
					{
						displayName: 'Parent Stages',
						name: 'parentStages',
						type: 'multiOptions',
						options: PARENT_STAGE_OPTIONS,
						default: [],
						description: 'Only applications in one of these stages (for a stage change: the stage it moved to). Changed on a published workflow: applies to what is found from then on.',
						displayOptions: { show: { '/event': eventsWhere('applications') } },
					},
					{
						displayName: 'Start From',
						name: 'startFrom',
						type: 'dateTime',
						default: '',
						description: `Report everything from this time on at the trigger's first poll. Empty: the first poll only notes where the account stands and reports what comes after. It counts once: changed later, or for a job or event added later, it changes nothing. Entries are found up to ${LOOK_BACK_MS / 60_000} minutes after their own time (${MAX_SEEN_IDS} at most in that window).`,
						displayOptions: { show: { '/event': eventsWhere('startFrom') } },
					},
				],
			},
		],
	};

	methods = { listSearch: { searchJobs } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll.call(this);
	}
}
