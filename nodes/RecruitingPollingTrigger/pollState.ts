import type { IDataObject } from 'n8n-workflow';
import type { Cursor } from './cursor';

/**
 * What the trigger keeps, and where:
 *
 * - **In the workflow's static data** (n8n saves it with each poll that starts an execution, and
 *   at activation; with durable cursors, also with each poll that returns nothing): a PollState,
 *   the cursor of each list it reads and the stage snapshot of each followed job. It belongs to one
 *   account (Base URL and company): change the credential's account and the trigger starts afresh.
 *   Changing the event or the jobs keeps it: a list read for the first time is seeded (nothing of
 *   its past is reported), so Start From counts only at the trigger's first poll. It holds IDs,
 *   times and stages, never a secret.
 * - **In this n8n process**:
 *   - which triggers are polling now (by loaded workflow, and by workflow and node), so that a poll
 *     that starts while the last one still runs (a long rate-limit wait, a poll n8n runs again)
 *     skips instead of emitting the same items again;
 *   - which poll contexts have polled: n8n runs the activation poll and the scheduled ones of one
 *     activation on the same context, so the first poll of a context is the activation poll;
 * - **In the workflow's global static data**, by node ID: a copy of the same PollState
 *   (mirroredState), read when the node's own static data has none: after the node was renamed,
 *   and at the first scheduled poll of n8n's durable polling.
 */
export interface PollState {
	version: 1;
	/** Hash of the credential's Base URL and company (before 0.2: and the event, after a colon). */
	key: string;
	/** By list: `applications`, `feedback`, `job:<id>` (its notes). */
	cursors: Record<string, Cursor>;
	/** By job: application ID → its stage (stageChanges.ts's snapshot entry). */
	stages: Record<string, Record<string, string>>;
	/**
	 * Set when the first poll could not read the account (rate limited at publishing): the lists
	 * not read yet start from this time (ms, the service's clock) instead of where the account stands then.
	 */
	since?: number;
	/** Jobs of Job IDs found deleted (404), already reported in a failed execution: reported once per deletion, logged at every poll. */
	gone?: string[];
}

const STATE_FIELD = 'recruitingPoll';

/** The state of this account, or undefined (first poll, or the account changed). */
export function readState(staticData: IDataObject, key: string): PollState | undefined {
	const state = staticData[STATE_FIELD] as PollState | undefined;
	if (!state || state.version !== 1 || typeof state.key !== 'string') return undefined;
	// A state written before the key left out the event is the same account's.
	if (state.key !== key && !state.key.startsWith(`${key}:`)) return undefined;
	return state;
}

export function writeState(staticData: IDataObject, state: PollState): void {
	staticData[STATE_FIELD] = state as unknown as IDataObject;
}

/**
 * The static data of the triggers polling now. n8n keeps one loaded workflow per activation, so
 * two polls of one activation share it; a republished workflow is loaded anew and is not held up
 * by the old version's poll (whose result n8n discards).
 */
const pollsInFlight = new WeakSet<IDataObject>();

/**
 * The triggers (workflow and node) with a scheduled poll under way: n8n's durable polling gives
 * each poll static data of its own, and may start a poll again while the last one still runs.
 */
const triggersPolling = new Set<string>();

/**
 * Runs `poll` unless a poll of the same loaded workflow is under way, or (for a scheduled poll) any
 * poll of the same trigger; then: undefined. A republish's activation poll is never held up.
 */
export async function exclusively<T>(staticData: IDataObject, trigger: string, activation: boolean, poll: () => Promise<T>): Promise<T | undefined> {
	if (pollsInFlight.has(staticData) || (!activation && triggersPolling.has(trigger))) return undefined;
	pollsInFlight.add(staticData);
	triggersPolling.add(trigger);
	try {
		return await poll();
	} finally {
		pollsInFlight.delete(staticData);
		triggersPolling.delete(trigger);
	}
}

const polledContexts = new WeakSet<object>();

/** True for the first poll of a poll context: the one n8n runs while it activates the workflow. */
export function isActivationPoll(context: object): boolean {
	if (polledContexts.has(context)) return false;
	polledContexts.add(context);
	return true;
}

/** By node ID (the name is from when only the first poll's seed was kept there). */
const MIRRORS_FIELD = 'recruitingPollSeeds';

/**
 * The node's state as the workflow's global static data keeps it, by node ID: n8n keys a node's
 * own static data by the node's name, so a renamed trigger finds none there, and n8n's durable
 * polling does not keep what the activation poll wrote there (it saves the workflow's other static
 * data after activation). Both would start afresh: Start From again, or a seed that swallows what
 * arrived since. Without durable cursors n8n saves both in the same moment, so the copy is as recent.
 */
export function mirroredState(globalData: IDataObject, nodeId: string, key: string): PollState | undefined {
	const mirrored = (globalData[MIRRORS_FIELD] as IDataObject | undefined)?.[nodeId];
	return mirrored === undefined ? undefined : readState({ [STATE_FIELD]: mirrored }, key);
}

export function mirrorState(globalData: IDataObject, nodeId: string, state: PollState): void {
	globalData[MIRRORS_FIELD] = { ...((globalData[MIRRORS_FIELD] as IDataObject | undefined) ?? {}), [nodeId]: state as unknown as IDataObject };
}
