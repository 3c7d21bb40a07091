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
 *   - the last seed of each trigger until a later poll finds it saved: n8n's durable polling does
 *     not keep what the activation poll wrote, and a second seed would swallow what arrived since.
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

/** The most triggers whose seed this process keeps (one entry each, dropped once n8n saved it). */
const MAX_SEEDS_KEPT = 1000;

const seeds = new Map<string, PollState>();

/** The seed a poll wrote for this trigger, while no later poll has found it saved. */
export function unsavedSeed(trigger: string, key: string): PollState | undefined {
	const seed = seeds.get(trigger);
	return seed && readState({ [STATE_FIELD]: seed as unknown as IDataObject }, key);
}

/** Remembers a seed (`state`), or forgets it (undefined) once a poll found a saved state. */
export function keepSeed(trigger: string, state: PollState | undefined): void {
	seeds.delete(trigger);
	if (state === undefined) return;
	seeds.set(trigger, state);
	if (seeds.size > MAX_SEEDS_KEPT) seeds.delete(seeds.keys().next().value as string);
}
