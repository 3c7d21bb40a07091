/**
 * Where a polled list stands: a floor, and the events (an entry's ID and its own time) seen at or
 * after it; an event is new when at or after the floor and not seen. The floor only rises, to the
 * look-back before the list's clock at the last read (an entry turns up at most the look-back after
 * its own time): the earlier of the read's clock and the newest entry's time plus the time since a
 * read first met it, so entries on another clock, or ahead of the service, never lift it too far.
 */

/** How late an entry may turn up in a list after its own time and still be found. */
export const LOOK_BACK_MS = 5 * 60_000;

/** The most events a cursor keeps as seen (about 40 bytes each in static data); past it the floor rises. */
export const MAX_SEEN_IDS = 1000;

/** The order a list came in at its last read, which its next read expects. */
export type ListOrder = 'newestFirst' | 'oldestFirst' | 'unordered';

export interface Cursor {
	/** Entries before this time (ms, the service's clock) are old. */
	floor: number;
	/** Events seen at or after the floor (`id@time`), with their time. */
	seen: Record<string, number>;
	order: ListOrder;
	/** The list's length at the last read: where an oldest-first list's new entries start. */
	count?: number;
	/** The newest entry not ahead of the service's clock, and that clock when a read first met it. */
	newest?: { time: number; metAt: number };
}

/** One list entry with its ID and its own time. */
export interface TimedEntry<T> { entry: T; id: string; time: number }

export const identity = ({ id, time }: { id: string; time: number }) => `${id}@${time}`;

export const isNew = (cursor: Cursor, entry: TimedEntry<unknown>) =>
	entry.time >= cursor.floor && !Object.prototype.hasOwnProperty.call(cursor.seen, identity(entry));

/** What one read of a list found: every entry at or after the floor, the list's order and length. */
export interface ListRead<T> { entries: Array<TimedEntry<T>>; order: ListOrder; count?: number }

/**
 * The cursor after a read that began at `clock` (the service's time). A list read for the first
 * time starts from `from` (Start From), else from the look-back before its clock: nothing already
 * in it is reported.
 */
export function advance<T>(cursor: Cursor | undefined, read: ListRead<T>, clock: number, from?: number): Cursor {
	const floor = cursor?.floor ?? from ?? -Infinity;
	let newest = cursor?.newest;
	for (const { time } of read.entries) if (time <= clock && time > (newest?.time ?? -Infinity)) newest = { time, metAt: clock };
	const listClock = Math.min(clock, newest ? newest.time + (clock - newest.metAt) : clock);
	let next = Math.max(floor, listClock - LOOK_BACK_MS);
	const seen: Record<string, number> = { ...cursor?.seen };
	for (const entry of read.entries) if (entry.time >= floor) seen[identity(entry)] = entry.time;
	let kept = Object.entries(seen).filter(([, time]) => time >= next);
	if (kept.length > MAX_SEEN_IDS) {
		// Keep the newest; events sharing a time with a dropped one cannot stay, so the floor passes that time.
		kept.sort((a, b) => b[1] - a[1]);
		const last = kept[MAX_SEEN_IDS - 1][1];
		next = kept[MAX_SEEN_IDS][1] === last ? last + 1 : last;
		kept = kept.filter(([, time]) => time >= next);
	}
	return { floor: next, seen: Object.fromEntries(kept), order: read.order, count: read.count, ...(newest && { newest }) };
}
