/**
 * Where a polled list stands, kept in the workflow's static data between polls: the newest item's
 * own time (never the time of the request) less a short look-back, and the IDs already seen since
 * then. An item is new when it is at or after the floor and its ID was not seen, so items that
 * share a timestamp, or turn up in the list a little after their own time, are found exactly once.
 */

/** How late an item may turn up in a list after its own time and still be found (README: Polling trigger). */
export const LOOK_BACK_MS = 5 * 60_000;

/** The most IDs a cursor keeps (about 30 bytes each in static data); past it the floor moves up. */
export const MAX_SEEN_IDS = 1000;

/**
 * How far ahead of n8n's clock an entry's time may be and still move the floor: an entry stamped
 * hours ahead (a time-zone slip, an import) must not hide the entries that follow it.
 */
export const CLOCK_SKEW_MS = 60_000;

/**
 * How far behind n8n's clock the service's may be when its answers do not say (no Date header):
 * an empty list seeded then starts this much earlier, so its first entries are not lost.
 */
export const UNSTATED_CLOCK_OFFSET_MS = 60 * 60_000;

/** The order a list came in: newest first (the sort was honoured), oldest first, or neither. */
export type ListOrder = 'newestFirst' | 'oldestFirst' | 'unordered';

export interface Cursor {
	/** Items before this time (ms since 1970) are old; null: nothing seen yet, every item is new. */
	floor: number | null;
	/** The IDs seen at or after the floor, with their time. */
	seen: Record<string, number>;
	/** The list's length at the last poll: where an oldest-first list's new items start. */
	count?: number;
	/** The order the list came in at the last poll. */
	order?: ListOrder;
	/** Polls in a row the order differed from the one asked for. */
	offOrderPolls?: number;
	/** The newest entry's time, and when (the service's clock, its Date header) a poll first saw it. */
	newest?: { time: number; seenAt: number };
	/** When (the same clock) the last poll began reading the list. */
	readAt?: number;
}

/**
 * Entries older than this have nothing new below them: an entry turns up at most the look-back
 * after its own time, so one older than the look-back before the last read was in the list then,
 * and that read found it. The list's clock at that read is the newest entry's time plus the time
 * elapsed since it was seen (measured on one clock, so whatever the offset between the service's
 * entries and any clock). Not the time now: an entry may turn up, within the look-back, just after
 * a read, however long before the next one. Undefined until a poll saw an entry.
 */
export function settledBefore(cursor: Cursor): number | undefined {
	const { newest, readAt } = cursor;
	return newest && newest.time + Math.max(0, (readAt ?? newest.seenAt) - newest.seenAt) - LOOK_BACK_MS;
}

/** One list entry with its ID and its own time. */
export interface TimedEntry<T> {
	entry: T;
	id: string;
	time: number;
}

export function isNew(cursor: Cursor, id: string, time: number): boolean {
	return (cursor.floor === null || time >= cursor.floor) && !Object.prototype.hasOwnProperty.call(cursor.seen, id);
}

/**
 * The cursor after a poll that began reading the list at `readAt` and read `entries` (every entry
 * at or after the floor, new or not) by `now`. The floor only moves forward, so an entry once
 * behind it is never new again. `readAt` undefined: the service did not say its time (no Date
 * header), so nothing is timed (settledBefore) until a poll that does.
 */
export function advance<T>(
	cursor: Cursor,
	entries: ReadonlyArray<TimedEntry<T>>,
	list: { count?: number; order: ListOrder; offOrderPolls?: number },
	now: number,
	readAt: number | undefined,
): Cursor {
	const seen: Record<string, number> = { ...cursor.seen };
	for (const { id, time } of entries) if (cursor.floor === null || time >= cursor.floor) seen[id] = time;
	const times = Object.values(seen);
	let floor = cursor.floor;
	let newestSeen = readAt === undefined ? undefined : cursor.newest;
	if (times.length > 0) {
		const newest = Math.min(Math.max(...times), now + CLOCK_SKEW_MS);
		floor = Math.max(floor ?? -Infinity, newest - LOOK_BACK_MS);
		if (readAt !== undefined && (newestSeen === undefined || newest > newestSeen.time)) newestSeen = { time: newest, seenAt: now };
	}
	let kept = Object.entries(seen).filter(([, time]) => floor === null || time >= floor);
	if (kept.length > MAX_SEEN_IDS) {
		// Keep the newest; an ID that shares its time with a dropped one cannot stay (it would be
		// told apart from nothing), so the floor passes that time.
		kept.sort((a, b) => b[1] - a[1]);
		const lastKept = kept[MAX_SEEN_IDS - 1][1];
		floor = kept[MAX_SEEN_IDS][1] === lastKept ? lastKept + 1 : lastKept;
		kept = kept.filter(([, time]) => time >= (floor as number));
	}
	return {
		floor,
		seen: Object.fromEntries(kept),
		count: list.count,
		order: list.order,
		...(list.offOrderPolls ? { offOrderPolls: list.offOrderPolls } : {}),
		...(newestSeen && { newest: newestSeen, readAt }),
	};
}
