import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { recruitingRequest, recruitingRequestAllItems, resourcePath } from '../shared/transport';
import { child, pollItem, text } from './items';
import type { PollState } from './pollState';

/** The most applications the stage snapshot follows, across the chosen jobs (about 60 bytes each in static data). */
export const MAX_FOLLOWED_APPLICATIONS = 1000;

/** Longer custom stage names are cut in the snapshot (they only name the previous stage). */
const STAGE_NAME_KEPT = 60;

/** `parent|custom id|custom name`: what the snapshot keeps of a stage. */
export function stageKey(application: IDataObject): string {
	const stage = application.stage;
	const custom = child(stage, 'custom_stage');
	return [text(child(stage, 'parent_stage')), text(child(custom, 'id')), text(child(custom, 'name')).slice(0, STAGE_NAME_KEPT)].join('|');
}

/** The stage as the application shows it, from a snapshot entry. */
function stageFrom(key: string): IDataObject {
	const [parent, id, name] = key.split('|');
	return { parent_stage: parent || null, custom_stage: id || name ? { id: id || null, name: name || null } : null };
}

/**
 * Every application of each job (the snapshot's size is checked against the cap as they come). A
 * job followed for the first time is looked up first: the list of a job that does not exist is
 * only empty, and a mistyped ID would be followed, empty, for ever.
 */
export async function readJobApplications(
	this: IPollFunctions,
	jobIds: string[],
	known: ReadonlySet<string> = new Set(),
): Promise<Map<string, IDataObject[]>> {
	const byJob = new Map<string, IDataObject[]>();
	let followed = 0;
	for (const jobId of jobIds) {
		if (!known.has(jobId)) await recruitingRequest.call(this, { method: 'GET', path: resourcePath('jobs', jobId), notFound: `job "${jobId}"` });
		const applications = await recruitingRequestAllItems.call(this, {
			path: resourcePath('applications'),
			qs: { job_id: jobId },
			limit: MAX_FOLLOWED_APPLICATIONS - followed + 1,
		});
		followed += applications.length;
		if (followed > MAX_FOLLOWED_APPLICATIONS) {
			throw new NodeOperationError(
				this.getNode(),
				`The chosen jobs have more than ${MAX_FOLLOWED_APPLICATIONS} applications: too many to follow their stages by polling`,
				{
					description: `Job IDs: choose fewer jobs (the trigger follows at most ${MAX_FOLLOWED_APPLICATIONS} applications across them, reaching that at ${jobId}), or use the Recruiting Trigger's application.stage.updated event, which has no such limit.`,
				},
			);
		}
		byJob.set(jobId, applications);
	}
	return byJob;
}

/** The parent stage applications arrive in: one found elsewhere was moved, or added there. */
const FIRST_PARENT_STAGE = 'new';

/**
 * One item per application whose stage differs from the last poll's snapshot (several moves in
 * between show as one, from the first stage to the last; a move to another followed job counts).
 * A job followed for the first time only records its stages. An application the snapshot does not
 * know is recorded, and reported with `previousStage: null` when it is past the first stage: it
 * moved, or was added there, since the last snapshot n8n saved.
 */
export function stageChanges(
	byJob: Map<string, IDataObject[]>,
	before: PollState['stages'] | undefined,
	now: string,
): { items: IDataObject[]; stages: PollState['stages'] } {
	const previousOf = new Map<string, string>();
	for (const snapshot of Object.values(before ?? {})) for (const [id, key] of Object.entries(snapshot)) previousOf.set(id, key);
	const items: IDataObject[] = [];
	const stages: PollState['stages'] = {};
	for (const [jobId, applications] of byJob) {
		const firstTime = before?.[jobId] === undefined;
		const snapshot: Record<string, string> = {};
		for (const application of applications) {
			const id = text(application.id);
			if (id === '') continue;
			const key = stageKey(application);
			snapshot[id] = key;
			if (firstTime) continue;
			const was = previousOf.get(id);
			if (was === key) continue;
			if (was === undefined && text(child(application.stage, 'parent_stage')) === FIRST_PARENT_STAGE) continue;
			const previousStage = was === undefined ? null : stageFrom(was);
			items.push(pollItem('application.stage.updated', now, `${id}:${key}:${now}`, application, { previousStage }));
		}
		stages[jobId] = snapshot;
	}
	return { items, stages };
}
