import type { IDataObject } from 'n8n-workflow';
import type { Cursor } from './cursor';
import type { StageSnapshots } from './stages';

/**
 * One state, its revision raised by each poll, kept twice: in the node's static data (by the node's
 * name: a renamed trigger finds none, or an old one after a rename back; the durable engine drops
 * what an activation poll wrote there) and by node ID in the global static data. A poll writes both,
 * as plain JSON, and goes on from the newer. Another account's or format's state is none. Copies by ID
 * of other triggers are dropped when of another format or unwritten for DROP_UNWRITTEN_AFTER_MS (a
 * node cannot list its workflow's nodes). IDs, times and stages only, never a secret.
 */
export interface PollState {
	format: 2;
	/** Hash of the credential's Base URL and company: another account starts afresh. */
	key: string;
	/** The node that wrote it: a new trigger given a deleted one's name does not take its state. */
	nodeId: string;
	/** Raised by each poll: the higher copy is the newer. */
	rev: number;
	/** When it was written (ms, n8n's clock): copies of deleted triggers are dropped by it. */
	writtenAt: number;
	/** By list: `applications`, `feedback`, `job:<id>` (its notes). A list recorded here is never seeded again. */
	lists: Record<string, Cursor>;
	/** By job: each followed job's applications and their stages (stages.ts). */
	stages: StageSnapshots;
	/** Followed jobs found deleted and reported: reported once, while they stay in Job IDs and gone. */
	gone: string[];
}

const NODE_FIELD = 'recruitingPoll';
const BY_ID_FIELD = 'recruitingPollSeeds';
const DROP_UNWRITTEN_AFTER_MS = 30 * 24 * 60 * 60_000;

/** An empty state under the revision after `before`'s: what a poll fills in and writes. */
export const nextRevision = (before: PollState | undefined, key: string, nodeId: string): PollState => ({ format: 2, key, nodeId, rev: (before?.rev ?? 0) + 1, writtenAt: Date.now(), lists: {}, stages: {}, gone: [] });

const isState = (value: unknown): value is PollState => (value as PollState | undefined)?.format === 2;
/** A plain JSON copy: never one of n8n's objects (a proxy of the workflow's data) inside the state. */
const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The newer of the two copies of this account's state, or undefined (a first poll, or another account). */
export function readState(nodeData: IDataObject, globalData: IDataObject, nodeId: string, key: string): PollState | undefined {
	const copies = [nodeData[NODE_FIELD], (globalData[BY_ID_FIELD] as IDataObject | undefined)?.[nodeId]].filter(isState);
	const newest = copies.filter((state) => state.key === key && state.nodeId === nodeId).sort((a, b) => b.rev - a.rev)[0];
	return newest && copyOf(newest);
}

export function writeState(nodeData: IDataObject, globalData: IDataObject, nodeId: string, state: PollState): void {
	nodeData[NODE_FIELD] = copyOf(state) as unknown as IDataObject;
	const byId: IDataObject = {};
	for (const [id, other] of Object.entries((globalData[BY_ID_FIELD] as IDataObject | undefined) ?? {})) {
		if (isState(other) && state.writtenAt - other.writtenAt < DROP_UNWRITTEN_AFTER_MS) byId[id] = copyOf(other) as unknown as IDataObject;
	}
	byId[nodeId] = copyOf(state) as unknown as IDataObject;
	globalData[BY_ID_FIELD] = byId;
}

/**
 * Polls under way: by loaded workflow (n8n's default engine runs an activation's polls on one), and
 * by trigger (the durable engine loads one per poll, and may start a poll while the last one runs).
 */
const pollsInFlight = new WeakSet<IDataObject>();
const triggersPolling = new Set<string>();

/** Runs `poll` unless one of the same loaded workflow, or (but at activation) of the same trigger, is under way. */
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
