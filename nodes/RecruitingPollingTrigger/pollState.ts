import type { IDataObject } from 'n8n-workflow';
import type { Cursor } from './cursor';

/**
 * What the trigger keeps, and where:
 *
 * - **In the workflow's static data** (n8n saves it with each poll that starts an execution, and
 *   at activation): a PollState, the cursor of each list it reads and the stage snapshot of each
 *   followed job. It belongs to one account and one event: change either and the trigger starts
 *   afresh (Start From counts only where a list has no cursor yet). It holds IDs, times and stages,
 *   never a secret.
 * - **In this n8n process**: which triggers are polling now, so that a poll that starts while the
 *   last one still runs (a long rate-limit wait) skips instead of emitting the same items again.
 */
export interface PollState {
	version: 1;
	/** Hash of the credential's Base URL and company, and the event chosen. */
	key: string;
	/** By list: `applications`, `feedback`, `job:<id>` (its notes). */
	cursors: Record<string, Cursor>;
	/** By job: application ID → its stage as `parent|custom id|custom name`. */
	stages: Record<string, Record<string, string>>;
	/**
	 * Set when the first poll could not read the account (rate limited at publishing): the lists
	 * not read yet start from this time (ms) instead of where the account stands then.
	 */
	since?: number;
}

const STATE_FIELD = 'recruitingPoll';

/** The state of this account, event and start date, or undefined (first poll, or any of them changed). */
export function readState(staticData: IDataObject, key: string): PollState | undefined {
	const state = staticData[STATE_FIELD] as PollState | undefined;
	if (!state || state.version !== 1 || state.key !== key) return undefined;
	return state;
}

export function writeState(staticData: IDataObject, state: PollState): void {
	staticData[STATE_FIELD] = state as unknown as IDataObject;
}

/** The state's generation: a poll that finds it changed since it began (another poll's) keeps its hands off. */
export function stateOf(staticData: IDataObject): unknown {
	return staticData[STATE_FIELD];
}

/**
 * The static data of the triggers polling now. n8n keeps one loaded workflow per activation, so
 * two polls of one activation share it; a republished workflow is loaded anew and is not held up
 * by the old version's poll (whose result n8n discards).
 */
const pollsInFlight = new WeakSet<IDataObject>();

/** Runs `poll` unless a poll of the same loaded workflow is under way (then: undefined). */
export async function exclusively<T>(staticData: IDataObject, poll: () => Promise<T>): Promise<T | undefined> {
	if (pollsInFlight.has(staticData)) return undefined;
	pollsInFlight.add(staticData);
	try {
		return await poll();
	} finally {
		pollsInFlight.delete(staticData);
	}
}
