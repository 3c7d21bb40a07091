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
import { advance, CLOCK_SKEW_MS, isNew, type Cursor, type ListOrder } from './cursor';
import { child, pollItem, text, timeOf } from './items';
import { ListReader, nodeErrorOf, type ListRead, type PolledList } from './listReader';
import { listsOf, sampleListsOf, toItem } from './lists';
import { exclusively, readState, stateOf, writeState, type PollState } from './pollState';
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
	try {
		read = await new ListReader(this, list, cursor, seeding).read();
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

/** One production poll: the new items, and the state to keep. Reads only; the caller stores. */
async function pollOnce(this: IPollFunctions, settings: Settings, before: PollState | undefined, key: string) {
	const state: PollState = { version: 1, key, cursors: {}, stages: {} };
	const found: Array<{ time: number; item: IDataObject }> = [];
	const now = Date.now();
	if (settings.event === 'application.stage.updated') {
		const byJob = await readJobApplications.call(this, settings.jobIds, new Set(Object.keys(before?.stages ?? {})));
		const changes = stageChanges(byJob, before?.stages, new Date(now).toISOString());
		state.stages = changes.stages;
		for (const item of changes.items) {
			if (settings.parentStages.size > 0 && !settings.parentStages.has(text(child(child(item.object, 'stage'), 'parent_stage')))) continue;
			found.push({ time: 0, item });
		}
	}
	for (const { key: listKey, list } of listsOf(settings)) {
		const kept = before?.cursors[listKey];
		// Start From (or the time of a rate-limited first poll) only where a list has no cursor yet.
		const startFrom = settings.startFrom ?? before?.since;
		// First poll of this list: record where it stands (or start from that time) and emit nothing.
		const seeding = kept === undefined && startFrom === undefined;
		const cursor: Cursor = kept ?? { floor: startFrom ?? null, seen: {} };
		const read = await readList.call(this, list, cursor, seeding);
		for (const entry of read.entries) {
			if (seeding || !isNew(cursor, entry.id, entry.time)) continue;
			const item = toItem(settings, listKey, entry);
			if (item) found.push({ time: entry.time, item });
		}
		// An empty list at the first poll starts from now (less the clock skew), not from its beginning:
		// an empty page from a faulty service must not turn the whole history into news later.
		const from: Cursor = seeding ? { floor: read.entries.length === 0 ? now - CLOCK_SKEW_MS : null, seen: {} } : cursor;
		state.cursors[listKey] = advance(from, read.entries, read, now);
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
	for (const { key, list } of sampleListsOf(settings)) {
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
	// Not the start date: changing it later must neither repeat nor skip what the cursor knows.
	const key = [await accountKeyOf.call(this), settings.event].join(':');
	const outcome = await exclusively(staticData, async () => {
		const began = stateOf(staticData);
		const before = readState(staticData, key);
		// The first poll runs while publishing waits for it: it waits less for a rate limit.
		if (before === undefined) startRun(this, { maxRateLimitWaitMs: SHORT_MAX_RATE_LIMIT_WAIT_MS });
		let result;
		try {
			result = await pollOnce.call(this, settings, before, key);
		} catch (error) {
			if (before !== undefined || rateLimitWaitOf(error) === undefined) throw nodeErrorOf(this.getNode(), error);
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
