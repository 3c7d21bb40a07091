import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { recruitingRequestAllItems, resourcePath } from '../shared/transport';
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

/** Every application of each job (the snapshot's size is checked against the cap as they come). */
export async function readJobApplications(this: IPollFunctions, jobIds: string[]): Promise<Map<string, IDataObject[]>> {
	const byJob = new Map<string, IDataObject[]>();
	let followed = 0;
	for (const jobId of jobIds) {
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

/**
 * One item per application whose stage differs from the last poll's snapshot (several moves in
 * between show as one, from the first stage to the last). A job polled for the first time only
 * records its stages; applications new to a job are recorded, not reported (that is New Application).
 */
export function stageChanges(
	byJob: Map<string, IDataObject[]>,
	before: PollState['stages'] | undefined,
	now: string,
): { items: IDataObject[]; stages: PollState['stages'] } {
	const items: IDataObject[] = [];
	const stages: PollState['stages'] = {};
	for (const [jobId, applications] of byJob) {
		const previous = before?.[jobId];
		const snapshot: Record<string, string> = {};
		for (const application of applications) {
			const id = text(application.id);
			if (id === '') continue;
			const key = stageKey(application);
			snapshot[id] = key;
			const was = previous?.[id];
			if (was === undefined || was === key) continue;
			items.push(
				pollItem('application.stage.updated', now, `${id}:${key}:${now}`, application, { previousStage: stageFrom(was) }),
			);
		}
		stages[jobId] = snapshot;
	}
	return { items, stages };
}
