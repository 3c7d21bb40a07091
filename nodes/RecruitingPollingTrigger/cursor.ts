/**
 * Where a polled list stands: a floor, and the entries seen at or after it with their time. The floor
 * only rises, to the look-back before the list's clock at the last read: the earlier of the read's
 * clock and the newest entry's time plus the time since a read met it (docs/polling-trigger.md, 3).
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
	/** Entries seen at or after the floor, by ID, with the time they were seen with. */
	seen: Record<string, number>;
	order: ListOrder;
	/** The list's length at the last read: where an oldest-first list's new entries start. */
	count?: number;
	/** The newest entry not ahead of the service's clock, and that clock when a read first met it (`stated`: its Date header). */
	newest?: { time: number; metAt: number; stated: boolean };
}

/** One list entry with its ID and its own time. */
export interface TimedEntry<T> { entry: T; id: string; time: number }

export const identity = ({ id, time }: { id: string; time: number }) => `${id}@${time}`;

/** New: at or after the floor, and not seen with this time (an entry that happens again is a new event). */
export const isNew = (cursor: Cursor, entry: TimedEntry<unknown>) =>
	entry.time >= cursor.floor && !(Object.prototype.hasOwnProperty.call(cursor.seen, entry.id) && cursor.seen[entry.id] === entry.time);

/** What one read of a list found: every entry at or after the floor, the list's order and length. */
export interface ListRead<T> { entries: Array<TimedEntry<T>>; order: ListOrder; count?: number }

/**
 * The cursor after a read that began at `clock.now` (`stated`: the service's Date header, else n8n's
 * clock; `empty`: where a list with no entry starts). The time since the newest entry was met is
 * measured on one kind of clock. Entries stamped ahead stay seen, outside the cap, until the floor reaches them.
 */
export function advance<T>(cursor: Cursor | undefined, read: ListRead<T>, clock: { now: number; empty: number; stated: boolean }): Cursor {
	const floor = cursor?.floor ?? -Infinity;
	const { now, stated } = clock;
	let newest = cursor?.newest && (cursor.newest.stated === stated ? cursor.newest : { ...cursor.newest, metAt: now, stated });
	for (const { time } of read.entries) if (time <= now && time > (newest?.time ?? -Infinity)) newest = { time, metAt: now, stated };
	let next = Math.max(floor, (newest ? Math.min(now, newest.time + (now - newest.metAt)) : clock.empty) - LOOK_BACK_MS);
	const seen: Record<string, number> = { ...cursor?.seen };
	for (const entry of read.entries) if (entry.time >= floor) seen[entry.id] = entry.time;
	const byTime = Object.entries(seen).sort((a, b) => b[1] - a[1]);
	const ahead = byTime.filter(([, time]) => time > now);
	let kept = byTime.filter(([, time]) => time >= next && time <= now);
	if (kept.length > MAX_SEEN_IDS) {
		// Keep the newest; events sharing a time with a dropped one cannot stay, so the floor passes that time.
		const last = kept[MAX_SEEN_IDS - 1][1];
		next = kept[MAX_SEEN_IDS][1] === last ? last + 1 : last;
		kept = kept.filter(([, time]) => time >= next);
	}
	return { floor: next, seen: Object.fromEntries([...ahead, ...kept]), order: read.order, count: read.count, ...(newest && { newest }) };
}
