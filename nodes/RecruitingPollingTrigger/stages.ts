import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { MAX_PAGE_SIZE, recruitingRequest, recruitingRequestAllItems, resourcePath } from '../shared/transport';
import { child } from '../shared/filters';
import { pollItem, text } from './items';

/** The most applications the stage snapshot follows, across the chosen jobs (about 60 bytes each in static data). */
export const MAX_FOLLOWED_APPLICATIONS = 1000;

/** Longer custom stage names are cut in the snapshot (they only name the previous stage). */
const STAGE_NAME_KEPT = 60;

/** An application's stage as the snapshot keeps it; `moves` counts the changes reported for it. */
interface Stage { parent: string; customId: string; customName: string; moves: number }

function stageOf(application: IDataObject): Omit<Stage, 'moves'> {
	const custom = child(application.stage, 'custom_stage');
	return {
		parent: text(child(application.stage, 'parent_stage')),
		customId: text(child(custom, 'id')),
		customName: text(child(custom, 'name')).slice(0, STAGE_NAME_KEPT),
	};
}

/** A move changes the parent stage or the custom stage (by ID, by name only where it has none): a renamed stage is no move. */
function sameStage(a: Omit<Stage, 'moves'>, b: Omit<Stage, 'moves'>): boolean {
	if (a.parent !== b.parent) return false;
	return a.customId !== '' || b.customId !== '' ? a.customId === b.customId : a.customName === b.customName;
}

/** By job: application ID → `[moves, parent stage, custom stage ID, custom stage name]`. */
export type StageSnapshots = Record<string, Record<string, [number, string, string, string]>>;

/** The stage as the application shows it, from a snapshot entry. */
function shownStage(stage: Stage): IDataObject {
	const hasCustom = stage.customId !== '' || stage.customName !== '';
	return { parent_stage: stage.parent || null, custom_stage: hasCustom ? { id: stage.customId || null, name: stage.customName || null } : null };
}


/**
 * Every application of each job, in full pages (the cap checked as they come); the followed jobs
 * the service no longer has, and those it showed it has (a job reported gone and found again was
 * restored). A job followed for the first time is looked up first: a mistyped ID's list is only
 * empty. A followed job is looked up again at activation and when its list turns empty (at every
 * poll it would double an idle poll's cost).
 */
export async function readJobApplications(
	this: IPollFunctions,
	jobIds: string[],
	known: StageSnapshots = {},
	lookUpFollowed = false,
): Promise<{ byJob: Map<string, IDataObject[]>; gone: string[]; present: string[] }> {
	const byJob = new Map<string, IDataObject[]>();
	const gone: string[] = [];
	const present: string[] = [];
	let followed = 0;
	for (const jobId of jobIds) {
		const job = { method: 'GET' as const, path: resourcePath('jobs', jobId), notFound: `job "${jobId}"` };
		const exists = async () => (await recruitingRequest.call(this, { ...job, allowNotFound: true })) !== undefined;
		if (known[jobId] === undefined) await recruitingRequest.call(this, job);
		else if (lookUpFollowed && !(await exists())) {
			gone.push(jobId);
			continue;
		}
		if (known[jobId] === undefined || lookUpFollowed) present.push(jobId);
		const room = MAX_FOLLOWED_APPLICATIONS - followed + 1;
		const applications = await recruitingRequestAllItems.call(this, {
			path: resourcePath('applications'),
			qs: { job_id: jobId },
			// Full pages: an idle job of 95 applications is one request.
			limit: Math.ceil(room / MAX_PAGE_SIZE) * MAX_PAGE_SIZE,
			// An application missed because another was removed meanwhile would come back as a move from nowhere.
			rereadIfChanged: true,
		});
		const emptied = applications.length === 0 && Object.keys(known[jobId] ?? {}).length > 0;
		if (emptied && !(await exists())) {
			gone.push(jobId);
			continue;
		}
		followed += applications.length;
		if (followed > MAX_FOLLOWED_APPLICATIONS) {
			throw new NodeOperationError(
				this.getNode(),
				`The chosen jobs have more than ${MAX_FOLLOWED_APPLICATIONS} applications: too many to follow their stages by polling`,
				{ description: `Job IDs: choose fewer jobs (the trigger follows at most ${MAX_FOLLOWED_APPLICATIONS} applications across them, reaching that at ${jobId}), or use the Recruiting Trigger's application.stage.updated event, which has no such limit.` },
			);
		}
		byJob.set(jobId, applications);
		if (applications.length > 0 && !present.includes(jobId)) present.push(jobId);
	}
	return { byJob, gone, present };
}

/** The parent stage applications arrive in: one found elsewhere was moved, or added there. */
const FIRST_PARENT_STAGE = 'new';

/**
 * One item per application that moved since the last snapshot (moves in between show as one; a
 * move to another followed job counts). A job followed for the first time only records its stages.
 * An application the snapshot does not know is reported with `previousStage: null` when past the
 * first stage. A stage renamed is no move. `messageId` names the stages moved from and to and counts
 * the application's moves: the same move found twice has the same one, a move back and forth a new one.
 */
export function stageChanges(byJob: Map<string, IDataObject[]>, before: StageSnapshots | undefined, now: string): { items: IDataObject[]; stages: StageSnapshots } {
	const previousOf = new Map<string, Stage>();
	for (const snapshot of Object.values(before ?? {})) for (const [id, entry] of Object.entries(snapshot)) previousOf.set(id, { moves: entry[0], parent: entry[1], customId: entry[2], customName: entry[3] });
	const items: IDataObject[] = [];
	const stages: StageSnapshots = {};
	for (const [jobId, applications] of byJob) {
		const firstTime = before?.[jobId] === undefined;
		const snapshot: StageSnapshots[string] = {};
		for (const application of applications) {
			const id = text(application.id);
			if (id === '') continue;
			const was = previousOf.get(id);
			const stage: Stage = { ...stageOf(application), moves: was?.moves ?? 0 };
			const moved = !firstTime && (was === undefined ? stage.parent !== FIRST_PARENT_STAGE : !sameStage(was, stage));
			if (moved) {
				stage.moves += 1;
				// From and to: a job followed again starts counting anew, and must not reuse a messageId.
				const from = was ? `${was.parent}|${was.customId}` : '';
				const change = `${id}:${from}>${stage.parent}|${stage.customId}:${stage.moves}`;
				items.push(pollItem('application.stage.updated', now, change, application, { previousStage: was ? shownStage(was) : null }));
			}
			snapshot[id] = [stage.moves, stage.parent, stage.customId, stage.customName];
		}
		stages[jobId] = snapshot;
	}
	return { items, stages };
}
