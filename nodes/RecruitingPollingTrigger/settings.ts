import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { PARENT_STAGES } from '../shared/stages';
import { checkId, instantIn, toIsoDateTime } from '../shared/validation';
import { parseIdList } from '../shared/filters';
import { idsInRows } from '../shared/locator';
import { EVENTS, type Settings } from './events';
import { POLL_EVENTS, type PollEvent } from './items';

/** The most jobs a per-job event follows (each is a request per poll). */
export const MAX_JOBS = 20;

/** The node's parameters, checked before any request: each error names its field. */
export function readSettings(this: IPollFunctions): Settings {
	const node = this.getNode();
	const event = this.getNodeParameter('event') as PollEvent;
	if (!POLL_EVENTS.includes(event)) throw new NodeOperationError(node, `Event: "${String(event)}" is not one this trigger can poll for`);
	const perJob = EVENTS[event].perJob;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const rawJobs = perJob ? this.getNodeParameter('jobIds', '') : options.jobIds;
	const jobIds = idsInRows(rawJobs, 'job').map((id) => checkId(node, 0, 'Job IDs', id));
	if (perJob && jobIds.length === 0) throw new NodeOperationError(node, 'Job IDs: enter at least one job ID (job_…); this event is followed job by job');
	if (perJob && jobIds.length > MAX_JOBS) throw new NodeOperationError(node, `Job IDs: at most ${MAX_JOBS} jobs (${jobIds.length} entered); each is read at every poll`);
	const parentStages = parseIdList(options.parentStages);
	const unknown = [...parentStages].find((stage) => !(PARENT_STAGES as readonly string[]).includes(stage));
	if (unknown !== undefined) throw new NodeOperationError(node, `Parent Stages: "${unknown}" is not one of ${PARENT_STAGES.join(', ')}`);
	// A time without an offset is meant in the workflow's time zone.
	const startFrom =
		options.startFrom === undefined || options.startFrom === ''
			? undefined
			: instantIn(toIsoDateTime(node, 0, 'Start From', options.startFrom), this.getTimezone());
	const filters = { jobIds: new Set(perJob ? [] : jobIds), parentStages };
	return { event, jobIds, parentStages, filters, startFrom };
}
