import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	accountKeyOf,
	DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
	describeSeconds,
	rateLimitWaitOf,
	resourcePath,
	runOf,
	SHORT_MAX_RATE_LIMIT_WAIT_MS,
	startRun,
} from '../shared/transport';
import { advance, CLOCK_SKEW_MS, isNew, LOOK_BACK_MS, UNSTATED_CLOCK_OFFSET_MS, type Cursor, type ListOrder } from './cursor';
import { withFailureCause } from './failure';
import { filteredOut } from '../shared/filters';
import { pollItem, text, timeOf } from './items';
import { ListReader, nodeErrorOf, type ListRead, type PolledList } from './listReader';
import { EVENTS } from './events';
import { newestMatch } from './sample';
import { exclusively, isActivationPoll, mirroredState, mirrorState, readState, writeState, type PollState } from './pollState';
import { readSettings, type Settings } from './settings';
import { readJobApplications, stageChanges } from './stageChanges';

const ORDER_TEXT: Record<ListOrder, string> = {
	newestFirst: 'newest first',
	oldestFirst: 'oldest first, so each poll reads from the page that held the last known entry',
	unordered: 'in no order by time, so each poll reads every page of it',
};

/** A list without the feedback endpoint (a service with the specification only): say so, naming it. */
function explained(this: IPollFunctions, error: unknown, list: PolledList): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError && error.httpCode === '404' && list.path === resourcePath('feedback')) {
		return new NodeOperationError(this.getNode(), "Feedback Completed needs GET /feedback, an endpoint of the service's full API, which the service at the credential's Base URL does not offer (it answered 404)", {
			description: "Use a service with the full API (such as the hosted one), or the Recruiting Trigger's feedback.submitted event.",
		});
	}
	return nodeErrorOf(this.getNode(), error);
}

/** Reads one list; says in n8n's log when its order changed, or when entries could not be placed. */
async function readList(this: IPollFunctions, list: PolledList, cursor: Cursor, seeding: boolean): Promise<ListRead> {
	let read: ListRead;
	const run = runOf(this);
	try {
		read = await new ListReader(this, list, cursor, seeding, () => run.serviceNow() ?? Date.now()).read();
	} catch (error) {
		throw explained.call(this, error, list);
	}
	const where = { node: this.getNode().name, workflowId: this.getWorkflow().id };
	if (read.orderChanged) {
		this.logger.warn(
			`Recruiting Polling Trigger: the service lists ${list.path} ${ORDER_TEXT[read.orderChanged.to]} (it came ${ORDER_TEXT[read.orderChanged.from].split(',')[0]} before); every new entry is still found`,
			where,
		);
	}
	if (read.unreadable > 0) {
		this.logger.warn(
			`Recruiting Polling Trigger: ${read.unreadable} entries of ${list.path} have no ID or no time the trigger can read; they are left out`,
			where,
		);
	}
	return read;
}

/** Says in n8n's log, for this trigger, what the user should know. */
function warn(this: IPollFunctions, message: string): void {
	this.logger.warn(`Recruiting Polling Trigger: ${message}`, { node: this.getNode().name, workflowId: this.getWorkflow().id });
}

/** What a per-job event follows of a job: said when the job is gone. */
const goneWhat = (settings: Settings) => {
	const { perJob } = EVENTS[settings.event];
	return perJob ? perJob.follows : 'events';
};

const goneText = (jobId: string, what: string) =>
	`job "${jobId}" no longer exists at the service (it answers 404): its ${what} are no longer followed, the other jobs' still are. Remove it from Job IDs.`;

/**
 * Jobs found deleted since the last poll: once, a failed execution naming them, so the user sees it
 * in the workflow's executions and its error workflow runs; the poll itself goes on for the other
 * jobs. (n8n gives a poll no other way into an execution: its items are the events.)
 */
function reportGone(this: IPollFunctions, jobIds: string[], what: string): void {
	const error = new NodeOperationError(this.getNode(), `Job IDs: ${jobIds.map((id) => goneText(id, what)).join(' ')}`, {
		description: 'Reported once per job; n8n\'s log says it at every poll until the job is removed from Job IDs.',
	});
	try {
		this.__emitError(error);
	} catch {
		// A poll context without n8n's recorder (one built outside n8n's trigger manager) throws: the log still says it.
	}
}

/**
 * A per-job list that answered 404 after it was followed (it has a cursor, or the first poll, which
 * would have read it, was rate-limited): its job was deleted. A job read for the first time that
 * answers 404 is a mistyped ID, and fails the poll (at publishing: the activation), naming it.
 */
const isGone = (error: unknown, listKey: string, kept: Cursor | undefined, before: PollState | undefined) =>
	(kept !== undefined || before?.since !== undefined) && listKey.startsWith('job:') && error instanceof NodeApiError && error.httpCode === '404';

/**
 * One production poll: the new items, and the state to keep. Reads only; the caller stores. A list
 * without a cursor is seeded (where it stands is recorded, nothing reported) unless this is the
 * trigger's first poll with Start From, or the one after a rate-limited first poll (`since`).
 */
async function pollOnce(this: IPollFunctions, settings: Settings, before: PollState | undefined, key: string, activation: boolean) {
	const state: PollState = { version: 1, key, cursors: {}, stages: {} };
	const found: Array<{ time: number; item: IDataObject }> = [];
	const goneJobs: string[] = [];
	/** Jobs the service showed it has: one reported gone before was restored, and is reported again if deleted again. */
	const presentJobs: string[] = [];
	const startFrom = before === undefined ? settings.startFrom : before.since;
	if (settings.event === 'application.stage.updated') {
		const { byJob, gone, present } = await readJobApplications.call(this, settings.jobIds, before?.stages, activation);
		presentJobs.push(...present);
		const changes = stageChanges(byJob, before?.stages, new Date(runOf(this).serviceNow() ?? Date.now()).toISOString());
		state.stages = changes.stages;
		for (const jobId of gone) {
			warn.call(this, goneText(jobId, goneWhat(settings)));
			state.stages[jobId] = before?.stages[jobId] ?? {};
			goneJobs.push(jobId);
		}
		for (const item of changes.items) {
			if (filteredOut(settings.filters, settings.event, item.object as IDataObject) === undefined) found.push({ time: 0, item });
		}
	}
	const event = EVENTS[settings.event];
	for (const { key: listKey, list } of event.lists(settings)) {
		const kept = before?.cursors[listKey];
		const seeding = kept === undefined && startFrom === undefined;
		const cursor: Cursor = kept ?? { floor: startFrom ?? null, seen: {} };
		let read: ListRead;
		const readStart = Date.now();
		try {
			read = await readList.call(this, list, cursor, seeding);
		} catch (error) {
			if (!isGone(error, listKey, kept, before)) throw nodeErrorOf(this.getNode(), error);
			warn.call(this, goneText(listKey.slice('job:'.length), goneWhat(settings)));
			state.cursors[listKey] = cursor;
			goneJobs.push(listKey.slice('job:'.length));
			continue;
		}
		if (listKey.startsWith('job:')) presentJobs.push(listKey.slice('job:'.length));
		for (const entry of read.entries) {
			if (seeding || !isNew(cursor, entry.id, entry.time)) continue;
			const item = event.toItem(settings, listKey, entry);
			if (item) found.push({ time: entry.time, item });
		}
		// The service's clock (its Date header); the read began that much earlier. Without it, no
		// time of this poll goes into the cursor: n8n's clock may be minutes off the service's.
		const clock = runOf(this).serviceNow();
		const readAt = clock === undefined ? undefined : clock - (Date.now() - readStart);
		// An empty list when seeded starts from now less the look-back, as a list with entries does
		// from its newest: an empty page from a faulty service must not turn the whole history into
		// news later, and an entry that turns up late is found as in any list. The earlier of the
		// service's clock and n8n's (a floor too early replays nothing of a list that was empty);
		// without the service's, n8n's less the offset it may have.
		const emptyFrom = clock === undefined ? Date.now() - UNSTATED_CLOCK_OFFSET_MS : Math.min(clock, Date.now());
		const from: Cursor = seeding ? { floor: read.entries.length === 0 ? emptyFrom - LOOK_BACK_MS : null, seen: {} } : cursor;
		state.cursors[listKey] = advance(from, read.entries, read, clock ?? Date.now(), readAt);
	}
	found.sort((a, b) => a.time - b.time);
	// Reported once per job: what earlier polls found gone stays known while the job is in Job IDs
	// and not found again.
	const reported = (before?.gone ?? []).filter((jobId) => settings.jobIds.includes(jobId) && !presentJobs.includes(jobId));
	const newlyGone = goneJobs.filter((jobId) => !reported.includes(jobId));
	if (reported.length + newlyGone.length > 0) state.gone = [...reported, ...newlyGone];
	return { items: found.map((f) => f.item), state, newlyGone };
}

/** Fetch Test Event: the newest matching entry, reading no further than the first page with one; never the production cursor. */
async function sample(this: IPollFunctions, settings: Settings): Promise<IDataObject[]> {
	if (settings.event === 'application.stage.updated') {
		const { byJob } = await readJobApplications.call(this, settings.jobIds);
		const newest = [...byJob.values()]
			.flat()
			.filter((application) => filteredOut(settings.filters, settings.event, application) === undefined)
			.sort((a, b) => (timeOf(b.applied_at) ?? 0) - (timeOf(a.applied_at) ?? 0))[0];
		return newest ? [pollItem(settings.event, new Date().toISOString(), `${text(newest.id)}:sample`, newest, { previousStage: null })] : [];
	}
	const candidates: Array<{ time: number; item: IDataObject }> = [];
	const event = EVENTS[settings.event];
	for (const { key, list } of (event.sampleLists ?? event.lists)(settings)) {
		try {
			const match = await newestMatch.call(this, list, (entry) => event.toItem(settings, key, entry));
			if (match) candidates.push(match);
		} catch (error) {
			throw explained.call(this, error, list);
		}
	}
	candidates.sort((a, b) => b.time - a.time);
	return candidates.slice(0, 1).map((c) => c.item);
}

/** n8n's budget for one poll where it has one (2.x), within the action node's default Max Wait. */
function pollWaitMs(this: IPollFunctions): number {
	const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
	return budget !== undefined && Number.isFinite(budget) && budget > 0 ? Math.min(budget, DEFAULT_MAX_RATE_LIMIT_WAIT_MS) : DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
}

/**
 * n8n-core's default poll budget. n8n's durable scheduler gives each scheduled poll a context of
 * its own with a budget of its own (its poll timeout less a margin): such a poll is never the activation's.
 */
const N8N_DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

/** The poll n8n runs while publishing (or restarting, or taking over leadership): a throw fails the activation. */
function activating(this: IPollFunctions): boolean {
	const first = isActivationPoll(this);
	return first && !(typeof this.getPollBudgetMs === 'function' && this.getPollBudgetMs() !== N8N_DEFAULT_POLL_BUDGET_MS);
}

export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings.call(this);
	if (this.getMode() === 'manual') {
		// Someone waits in the editor: a short wait for a rate limit.
		startRun(this, { maxRateLimitWaitMs: Math.min(SHORT_MAX_RATE_LIMIT_WAIT_MS, pollWaitMs.call(this)) });
		let items: IDataObject[];
		try {
			items = await sample.call(this, settings);
		} catch (error) {
			throw withFailureCause(nodeErrorOf(this.getNode(), error));
		}
		if (items.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Nothing to show yet: no entry of this event matches the trigger\'s settings', {
				description: 'The trigger still works once published: it reports what happens from then on.',
			});
		}
		return [this.helpers.returnJsonArray(items)];
	}
	const activation = activating.call(this);
	// Publishing waits for the activation poll: it waits less for a rate limit, and never fails for one.
	startRun(this, { maxRateLimitWaitMs: activation ? Math.min(SHORT_MAX_RATE_LIMIT_WAIT_MS, pollWaitMs.call(this)) : pollWaitMs.call(this) });
	const staticData = this.getWorkflowStaticData('node');
	// The account only: changing the event, the jobs or the start date later neither repeats nor skips what the cursors know.
	const key = await accountKeyOf.call(this);
	const globalData = this.getWorkflowStaticData('global');
	const nodeId = this.getNode().id;
	const trigger = `${this.getWorkflow().id ?? ''}:${nodeId}`;
	const outcome = await exclusively(staticData, trigger, activation, async () => {
		const before = readState(staticData, key) ?? mirroredState(globalData, nodeId, key);
		const keep = (state: PollState) => {
			writeState(staticData, state);
			mirrorState(globalData, nodeId, state);
		};
		let result;
		try {
			result = await pollOnce.call(this, settings, before, key, activation);
		} catch (error) {
			const wait = rateLimitWaitOf(error);
			if (!activation || wait === undefined) throw withFailureCause(nodeErrorOf(this.getNode(), error));
			if (before === undefined) {
				// The earlier clock, less a minute: what arrives after publishing is reported whichever clock is behind.
				const since = settings.startFrom ?? Math.min(runOf(this).serviceNow() ?? Date.now(), Date.now()) - CLOCK_SKEW_MS;
				keep({ version: 1, key, cursors: {}, stages: {}, since });
				warn.call(this, `the service rate-limited the first poll (for ${describeSeconds(wait)}); the next poll reports what is new since ${new Date(since).toISOString()}`);
			} else {
				keep(before);
				warn.call(this, `the service rate-limited the poll at activation (for ${describeSeconds(wait)}); the next poll goes on from where the trigger stood`);
			}
			return [];
		}
		keep(result.state);
		if (result.newlyGone.length > 0) reportGone.call(this, result.newlyGone, goneWhat(settings));
		return result.items;
	});
	return outcome && outcome.length > 0 ? [this.helpers.returnJsonArray(outcome)] : null;
}
