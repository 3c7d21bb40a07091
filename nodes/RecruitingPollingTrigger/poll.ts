import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	accountKeyOf,
	DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
	rateLimitWaitOf,
	resourcePath,
	SHORT_MAX_RATE_LIMIT_WAIT_MS,
	startRun,
} from '../shared/transport';
import { PARENT_STAGES } from '../shared/stages';
import { checkId, instantIn, toIsoDateTime } from '../shared/validation';
import { parseIdList } from '../RecruitingTrigger/filters';
import { advance, isNew, type Cursor, type ListOrder, type TimedEntry } from './cursor';
import { child, pollItem, text, timeOf, type PollEvent, POLL_EVENTS } from './items';
import { ListReader, type PolledList } from './listReader';
import { exclusively, readState, stateOf, writeState, type PollState } from './pollState';
import { readJobApplications, stageChanges } from './stageChanges';

/** The most jobs one trigger follows (each is a request per poll). */
export const MAX_JOBS = 20;

/**
 * A first poll that the service rate-limits past SHORT_MAX_RATE_LIMIT_WAIT_MS (publishing waits for
 * it) does not fail the activation: the next poll reports from the time of publishing, less this
 * much for a difference between n8n's clock and the service's.
 */
export const CLOCK_SKEW_MS = 60_000;

interface Settings {
	event: PollEvent;
	jobIds: string[];
	parentStages: Set<string>;
	/** Options → Start From, in ms; undefined: start where the account stands. */
	startFrom?: number;
}

function readSettings(this: IPollFunctions): Settings {
	const node = this.getNode();
	const event = this.getNodeParameter('event') as PollEvent;
	if (!POLL_EVENTS.includes(event)) throw new NodeOperationError(node, `Event: "${String(event)}" is not one this trigger can poll for`);
	const perJob = event === 'application.stage.updated' || event === 'job.note.created';
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const rawJobs = perJob ? this.getNodeParameter('jobIds', '') : options.jobIds;
	const jobIds = [...parseIdList(rawJobs)].map((id) => checkId(node, 0, 'Job IDs', id));
	if (perJob && jobIds.length === 0) {
		throw new NodeOperationError(node, 'Job IDs: enter at least one job ID (job_…); this event is followed job by job');
	}
	if (jobIds.length > MAX_JOBS) {
		throw new NodeOperationError(node, `Job IDs: at most ${MAX_JOBS} jobs (${jobIds.length} entered)`);
	}
	const parentStages = parseIdList(options.parentStages);
	for (const stage of parentStages) {
		if (!(PARENT_STAGES as readonly string[]).includes(stage)) {
			throw new NodeOperationError(node, `Parent Stages: "${stage}" is not one of ${PARENT_STAGES.join(', ')}`);
		}
	}
	// A time without an offset is meant in the workflow's time zone.
	const startFrom =
		options.startFrom === undefined || options.startFrom === ''
			? undefined
			: instantIn(toIsoDateTime(node, 0, 'Start From', options.startFrom), this.getTimezone());
	return { event, jobIds, parentStages, startFrom };
}

/** The lists an event reads, each with the key of its cursor. */
function listsOf(settings: Settings): Array<{ key: string; list: PolledList }> {
	switch (settings.event) {
		case 'application.created':
			return [{ key: 'applications', list: { path: resourcePath('applications'), qs: { sort: '-applied_at' }, expected: 'newestFirst', timeOf: (a) => timeOf(a.applied_at) } }];
		case 'feedback.submitted':
			return [{ key: 'feedback', list: { path: resourcePath('feedback'), qs: { sort: '-date_complete' }, expected: 'newestFirst', timeOf: (f) => (f.status === 'complete' ? timeOf(f.date_complete) : undefined) } }];
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

/** Whether a found entry passes the trigger's filters, and the item it becomes. */
function toItem(settings: Settings, listKey: string, { entry, id }: TimedEntry<IDataObject>): IDataObject | undefined {
	switch (settings.event) {
		case 'application.created': {
			const jobId = text(child(entry.job, 'id'));
			const stage = text(child(entry.stage, 'parent_stage'));
			if (settings.jobIds.length > 0 && !settings.jobIds.includes(jobId)) return undefined;
			if (settings.parentStages.size > 0 && !settings.parentStages.has(stage)) return undefined;
			return pollItem(settings.event, text(entry.applied_at), id, entry);
		}
		case 'feedback.submitted':
			return pollItem(settings.event, text(entry.date_complete), id, entry);
		default:
			return pollItem(settings.event, text(entry.date_created), `${listKey.slice(4)}:${id}`, entry, { jobId: listKey.slice(4) });
	}
}

const ORDER_TEXT: Record<ListOrder, string> = {
	newestFirst: 'newest first',
	oldestFirst: 'oldest first, so each poll reads from the page that held the last known entry',
	unordered: 'in no order by time, so each poll reads every page of it',
};

/** A list without the feedback endpoint (a service with the specification only): say so, naming it. */
function explained(this: IPollFunctions, error: unknown, list: PolledList): unknown {
	if (error instanceof NodeApiError && error.httpCode === '404' && list.path === resourcePath('feedback')) {
		return new NodeOperationError(this.getNode(), "Feedback Completed needs GET /feedback, an endpoint of the service's full API, which the service at the credential's Base URL does not offer (it answered 404)", {
			description: "Use a service with the full API (such as the hosted one), or the Recruiting Trigger's feedback.submitted event.",
		});
	}
	return error;
}

async function readList(this: IPollFunctions, list: PolledList, cursor: Cursor, seeding: boolean) {
	try {
		const read = await new ListReader(this, list, cursor, seeding).read();
		if (read.orderChanged) {
			this.logger.warn(
				`Recruiting Polling Trigger: the service lists ${list.path} ${ORDER_TEXT[read.orderChanged.to]} (asked for ${ORDER_TEXT[read.orderChanged.from].split(',')[0]}); every new entry is still found`,
				{ node: this.getNode().name, workflowId: this.getWorkflow().id },
			);
		}
		return read;
	} catch (error) {
		throw explained.call(this, error, list);
	}
}

/** One production poll: the new items, and the state to keep. Reads only; the caller stores. */
async function pollOnce(this: IPollFunctions, settings: Settings, before: PollState | undefined, key: string) {
	const state: PollState = { version: 1, key, cursors: {}, stages: {} };
	const found: Array<{ time: number; item: IDataObject }> = [];
	if (settings.event === 'application.stage.updated') {
		const now = new Date().toISOString();
		const changes = stageChanges(await readJobApplications.call(this, settings.jobIds), before?.stages, now);
		state.stages = changes.stages;
		for (const item of changes.items) {
			if (settings.parentStages.size > 0 && !settings.parentStages.has(text(child(child(item.object, 'stage'), 'parent_stage')))) continue;
			found.push({ time: 0, item });
		}
	}
	for (const { key: listKey, list } of listsOf(settings)) {
		const kept = before?.cursors[listKey];
		const startFrom = settings.startFrom ?? before?.since;
		// First poll of this list: record where it stands (or start from the chosen date) and emit nothing.
		const seeding = kept === undefined && startFrom === undefined;
		const cursor: Cursor = kept ?? { floor: startFrom ?? null, seen: {} };
		const read = await readList.call(this, list, cursor, seeding);
		for (const entry of read.entries) {
			if (seeding || !isNew(cursor, entry.id, entry.time)) continue;
			const item = toItem(settings, listKey, entry);
			if (item) found.push({ time: entry.time, item });
		}
		state.cursors[listKey] = advance(seeding ? { floor: null, seen: {} } : cursor, read.entries, read);
	}
	found.sort((a, b) => a.time - b.time);
	return { items: found.map((f) => f.item), state };
}

/** Fetch Test Event: the newest matching entry; reads only, never the production cursor. */
async function sample(this: IPollFunctions, settings: Settings): Promise<IDataObject[]> {
	if (settings.event === 'application.stage.updated') {
		const byJob = await readJobApplications.call(this, settings.jobIds);
		const newest = [...byJob.values()].flat().sort((a, b) => (timeOf(b.applied_at) ?? 0) - (timeOf(a.applied_at) ?? 0))[0];
		return newest ? [pollItem(settings.event, new Date().toISOString(), `${text(newest.id)}:sample`, newest, { previousStage: null })] : [];
	}
	const candidates: Array<{ time: number; item: IDataObject }> = [];
	for (const { key, list } of listsOf(settings)) {
		// The look-back before the newest entry first; with filters that match none of it, the whole list.
		for (const seeding of [true, false]) {
			const read = await readList.call(this, list, { floor: null, seen: {} }, seeding);
			const items = read.entries.flatMap((entry) => {
				const item = toItem(settings, key, entry);
				return item ? [{ time: entry.time, item }] : [];
			});
			candidates.push(...items);
			if (items.length > 0) break;
		}
	}
	candidates.sort((a, b) => b.time - a.time);
	return candidates.slice(0, 1).map((c) => c.item);
}

/** The transport's errors as they are; anything else (a defect) as a NodeOperationError. */
function nodeError(this: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(this.getNode(), error as Error);
}

/** n8n's budget for one poll where it has one (2.x), within the action node's default Max Wait. */
function pollWaitMs(this: IPollFunctions): number {
	const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
	return budget !== undefined && Number.isFinite(budget) && budget > 0 ? Math.min(budget, DEFAULT_MAX_RATE_LIMIT_WAIT_MS) : DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
}

export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings.call(this);
	startRun(this, { maxRateLimitWaitMs: pollWaitMs.call(this) });
	if (this.getMode() === 'manual') {
		const items = await sample.call(this, settings);
		if (items.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Nothing to show yet: no entry of this event matches the trigger\'s settings', {
				description: 'The trigger still works once published: it reports what happens from then on.',
			});
		}
		return [this.helpers.returnJsonArray(items)];
	}
	const staticData = this.getWorkflowStaticData('node');
	const key = [await accountKeyOf.call(this), settings.event, settings.startFrom ?? ''].join(':');
	const outcome = await exclusively(`${this.getWorkflow().id}:${this.getNode().id}`, async () => {
		const began = stateOf(staticData);
		const before = readState(staticData, key);
		// The first poll runs while publishing waits for it: it waits less for a rate limit.
		if (before === undefined) startRun(this, { maxRateLimitWaitMs: SHORT_MAX_RATE_LIMIT_WAIT_MS });
		let result;
		try {
			result = await pollOnce.call(this, settings, before, key);
		} catch (error) {
			if (before !== undefined || rateLimitWaitOf(error) === undefined) throw nodeError.call(this, error);
			const since = Date.now() - CLOCK_SKEW_MS;
			writeState(staticData, { version: 1, key, cursors: {}, stages: {}, since });
			this.logger.warn(
				`Recruiting Polling Trigger: the service rate-limited the first poll; the next poll reports what is new since ${new Date(since).toISOString()}`,
				{ node: this.getNode().name, workflowId: this.getWorkflow().id },
			);
			return [];
		}
		// Changed under us (the workflow was loaded again meanwhile): that poll's state stands.
		if (stateOf(staticData) !== began) return undefined;
		writeState(staticData, result.state);
		return result.items;
	});
	return outcome && outcome.length > 0 ? [this.helpers.returnJsonArray(outcome)] : null;
}
