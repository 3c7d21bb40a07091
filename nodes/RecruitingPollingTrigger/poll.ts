import type { Failure, IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { filteredOut } from '../shared/filters';
import { accountKeyOf, DEFAULT_MAX_RATE_LIMIT_WAIT_MS, describeSeconds, rateLimitWaitOf, runOf, SHORT_MAX_RATE_LIMIT_WAIT_MS, startRun } from '../shared/transport';
import { advance, isNew, LOOK_BACK_MS, type Cursor } from './cursor';
import { EVENTS, type Settings } from './events';
import { isNotFound, nodeErrorOf, readList, type StopAt } from './read';
import { sample } from './sample';
import { readSettings } from './settings';
import { readJobApplications, stageChanges } from './stages';
import { exclusively, nextRevision, readState, writeState, type PollState } from './state';

/**
 * One poll: the newest state (state.ts), each list read back to its floor (read.ts), what is new
 * reported (cursor.ts), the state written with its revision raised; every error declares its cause.
 */

/** How far behind n8n's clock the service's may be when its answers do not say (no Date header). */
const UNSTATED_CLOCK_OFFSET_MS = 60 * 60_000;
/** The service's clock now: its Date header, or n8n's where that is earlier (or where the service does not say). */
const serviceClock = (context: IPollFunctions) => Math.min(runOf(context).serviceNow() ?? Date.now(), Date.now());
/** Where a list with no entry yet starts: without a Date header, earlier by the offset the service's clock may have. */
const emptyListClock = (context: IPollFunctions) => (runOf(context).serviceNow() === undefined ? Date.now() - UNSTATED_CLOCK_OFFSET_MS : serviceClock(context));

function warn(this: IPollFunctions, message: string): void {
	this.logger.warn(`Recruiting Polling Trigger: ${message}`, { node: this.getNode().name, workflowId: this.getWorkflow().id });
}

/** What went wrong where: the node's settings, the credential, or the service (by its answer). */
type FailedAt = 'settings' | 'credential' | 'service';

function causeOf(error: NodeApiError | NodeOperationError, at: FailedAt): Failure {
	const wait = rateLimitWaitOf(error);
	const status = error instanceof NodeApiError ? Number(error.httpCode) : undefined;
	// A 429 throttles; a 503 (waited out as overload) says the service is down or overloaded now.
	if (wait !== undefined) return { cause: status === 503 ? 'temporarily-unavailable' : 'rate-limited', retryAfterMs: wait * 1000 };
	if (at === 'settings') return { cause: 'configuration-invalid' };
	if (at === 'credential' || status === 401 || status === 403) return { cause: 'credential-invalid' };
	// An answer below 400 that is not the service's JSON (an HTML page): the Base URL points elsewhere.
	if (status === undefined || (status >= 100 && status < 400) || [400, 404, 422].includes(status)) return { cause: 'configuration-invalid' };
	// A 5xx, a network failure, an inconsistent list: the service is down or degraded now.
	return { cause: 'temporarily-unavailable' };
}

/** The error with its cause declared (where it was made knows best), a rate limit's description about the poll. */
function failed(this: IPollFunctions, error: unknown, at: FailedAt): NodeApiError | NodeOperationError {
	const known = nodeErrorOf(this.getNode(), error);
	(known as { failure?: Failure }).failure ??= causeOf(known, at);
	const wait = rateLimitWaitOf(known);
	if (wait !== undefined) {
		const asked = known instanceof NodeApiError && known.httpCode === '503' ? 'was unavailable for' : 'asked to wait';
		known.description = `The service ${asked} ${describeSeconds(wait)}, longer than one poll may wait. Nothing was reported; the next poll after the wait goes on from where the trigger stood, and loses nothing.`;
	}
	return known;
}

const goneText = (jobId: string, settings: Settings) =>
	`job "${jobId}" no longer exists at the service (it answers 404): its ${(EVENTS[settings.event].perJob || { follows: 'events' }).follows} are no longer followed, the other jobs' still are. Remove it from Job IDs.`;

/** Jobs found deleted: once, a failed execution naming them (the error workflow runs); the poll goes on for the other jobs. */
function reportGone(this: IPollFunctions, jobIds: string[], settings: Settings): void {
	const error = new NodeOperationError(this.getNode(), `Job IDs: ${jobIds.map((id) => goneText(id, settings)).join(' ')}`, {
		description: "Reported once per job; n8n's log says it at every poll until the job is removed from Job IDs.",
	});
	try {
		this.__emitError(error);
	} catch {
		// A poll context without n8n's recorder (one built outside n8n's trigger manager) throws: the log still says it.
	}
}

/** The new events, and the state to keep; the caller stores it. */
async function pollOnce(this: IPollFunctions, settings: Settings, before: PollState | undefined, key: string, activation: boolean) {
	const state = nextRevision(before, key, this.getNode().id);
	const found: Array<{ time: number; item: IDataObject }> = [];
	const gone: string[] = [];
	/** Jobs the service showed it has: one reported gone before was restored, and is reported again if deleted again. */
	const present: string[] = [];
	if (settings.event === 'application.stage.updated') {
		const jobs = await readJobApplications.call(this, settings.jobIds, before?.stages, activation);
		present.push(...jobs.present);
		const changes = stageChanges(jobs.byJob, before?.stages, new Date(serviceClock(this)).toISOString());
		state.stages = changes.stages;
		for (const jobId of jobs.gone) {
			state.stages[jobId] = before?.stages[jobId] ?? {};
			gone.push(jobId);
		}
		for (const item of changes.items) {
			if (filteredOut(settings.filters, settings.event, item.object as IDataObject) === undefined) found.push({ time: 0, item });
		}
	}
	const event = EVENTS[settings.event];
	// Start From counts at the trigger's first poll only; a list added later starts where it stands.
	const from = before === undefined ? settings.startFrom : undefined;
	for (const { key: listKey, list } of event.lists(settings)) {
		const kept = before?.lists[listKey];
		const cursor: Cursor | undefined = kept ?? (from === undefined ? undefined : { floor: from, seen: {}, order: list.expected });
		// A list read for the first time stops at the look-back before its newest entry (one ahead of the service's clock counts as now).
		const stop: StopAt = cursor ? () => cursor.floor : (newest) => Math.min(newest, serviceClock(this)) - LOOK_BACK_MS;
		const started = Date.now();
		let read;
		try {
			read = await readList.call(this, list, cursor ?? { order: list.expected }, stop);
		} catch (error) {
			if (isNotFound(error) && list.whenMissing) throw list.whenMissing(this);
			// A followed job that answers 404 was deleted; one read for the first time is a mistyped ID, and fails the poll.
			if (!isNotFound(error) || kept === undefined || !listKey.startsWith('job:')) throw nodeErrorOf(this.getNode(), error);
			state.lists[listKey] = kept;
			gone.push(listKey.slice('job:'.length));
			continue;
		}
		if (listKey.startsWith('job:')) present.push(listKey.slice('job:'.length));
		if (read.order !== (kept?.order ?? list.expected)) warn.call(this, `the service lists ${list.path} ${{ newestFirst: 'newest first', oldestFirst: 'oldest first', unordered: 'in no order by time, so each poll reads all of it' }[read.order]}; every new entry is still found`);
		if (read.unreadable > 0) warn.call(this, `${read.unreadable} entries of ${list.path} have no ID or no time the trigger can read; they are left out`);
		for (const entry of cursor ? read.entries : []) {
			const item = isNew(cursor as Cursor, entry) ? event.toItem(settings, listKey, entry) : undefined;
			if (item) found.push({ time: entry.time, item });
		}
		const elapsed = Date.now() - started; // the clocks when the read began
		state.lists[listKey] = advance(cursor, read, { now: serviceClock(this) - elapsed, empty: emptyListClock(this) - elapsed, stated: runOf(this).serviceNow() !== undefined });
	}
	for (const jobId of gone) warn.call(this, goneText(jobId, settings));
	// Reported once per deletion: what earlier polls reported stays known while the job is in Job IDs and not found again.
	const reported = (before?.gone ?? []).filter((jobId) => settings.jobIds.includes(jobId) && !present.includes(jobId));
	const newlyGone = gone.filter((jobId) => !reported.includes(jobId));
	state.gone = [...reported, ...newlyGone];
	found.sort((a, b) => a.time - b.time);
	return { items: found.map((f) => f.item), state, newlyGone };
}

/** The state after an activation poll the service rate-limited: every list not known yet starts now, so nothing after publishing is lost. */
function startedUnread(this: IPollFunctions, settings: Settings, before: PollState | undefined, key: string): PollState {
	const state: PollState = { ...nextRevision(before, key, this.getNode().id), lists: { ...before?.lists }, stages: before?.stages ?? {}, gone: before?.gone ?? [] };
	const from = (before === undefined ? settings.startFrom : undefined) ?? emptyListClock(this) - LOOK_BACK_MS;
	for (const { key: listKey, list } of EVENTS[settings.event].lists(settings)) state.lists[listKey] ??= { floor: from, seen: {}, order: list.expected };
	return state;
}

/** n8n's budget for one poll where it has one (not 1.x), within the action node's default Max Wait. */
const budgetOf = (context: IPollFunctions) => (typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined);
const pollWaitMs = (context: IPollFunctions) => Math.min(budgetOf(context) || DEFAULT_MAX_RATE_LIMIT_WAIT_MS, DEFAULT_MAX_RATE_LIMIT_WAIT_MS);

/**
 * The poll n8n runs while publishing (or restarting, or taking over leadership): a throw fails the
 * activation. It is the first poll of its context, and n8n's activation mode says why it runs; but
 * the durable scheduler runs each scheduled poll on a context of its own under the mode of a
 * republish ('update'), and only its budget (not n8n-core's default) tells the two apart.
 */
const N8N_DEFAULT_POLL_BUDGET_MS = 5 * 60_000;
const polledContexts = new WeakSet<object>();

function activating(this: IPollFunctions): boolean {
	if (polledContexts.has(this)) return false;
	polledContexts.add(this);
	return this.getActivationMode() !== 'update' || (budgetOf(this) ?? N8N_DEFAULT_POLL_BUDGET_MS) === N8N_DEFAULT_POLL_BUDGET_MS;
}

export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	let at: FailedAt = 'settings';
	try {
		const settings = readSettings.call(this);
		const manual = this.getMode() === 'manual';
		const activation = !manual && activating.call(this);
		// Someone waits in the editor, or for publishing: a short wait for a rate limit.
		const short = manual || activation;
		startRun(this, { maxRateLimitWaitMs: Math.min(short ? SHORT_MAX_RATE_LIMIT_WAIT_MS : Infinity, pollWaitMs(this)) });
		at = 'credential';
		// The account only: changing the event, the jobs or Start From later neither repeats nor skips what the cursors know.
		const key = await accountKeyOf.call(this);
		at = 'service';
		if (manual) return [this.helpers.returnJsonArray(await sample.call(this, settings))];
		const nodeData = this.getWorkflowStaticData('node');
		const globalData = this.getWorkflowStaticData('global');
		const nodeId = this.getNode().id;
		const items = await exclusively(nodeData, `${this.getWorkflow().id ?? ''}:${nodeId}`, activation, async () => {
			const before = readState(nodeData, globalData, nodeId, key);
			try {
				const result = await pollOnce.call(this, settings, before, key, activation);
				writeState(nodeData, globalData, nodeId, result.state);
				if (result.newlyGone.length > 0) reportGone.call(this, result.newlyGone, settings);
				return result.items;
			} catch (error) {
				const wait = rateLimitWaitOf(error);
				// Publishing never fails for a rate limit: the lists not known yet start now.
				if (!activation || wait === undefined) throw nodeErrorOf(this.getNode(), error);
				const state = startedUnread.call(this, settings, before, key);
				writeState(nodeData, globalData, nodeId, state);
				warn.call(this, `the service rate-limited the poll at activation (for ${describeSeconds(wait)}); the next poll reports what is new since where the trigger stood`);
				return [];
			}
		});
		return items && items.length > 0 ? [this.helpers.returnJsonArray(items)] : null;
	} catch (error) {
		throw failed.call(this, error, at);
	}
}
