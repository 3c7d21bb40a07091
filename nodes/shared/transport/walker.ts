/**
 * The one way the nodes keep several requests in flight: list pages (Return All, Limit, the
 * pickers' search, the dropdowns) and input items (the router's item concurrency).
 */

/**
 * Requests of a read in flight at once unless the user sets a number. Each request pays a new
 * connection and TLS handshake (n8n's HTTP helper keeps no connection alive), about three round
 * trips: on a real network only more requests in flight hide that (BENCHMARKS.md, WAN table).
 * A 429 narrows it (see `narrowOnRateLimit`).
 */
export const READ_WINDOW = 64;

/** Input items a node run has in flight: the list walks of those items share one read window. */
const itemsInFlight = new WeakMap<object, number>();

/** The router says how many items run at once, so N items do not each open a whole window. */
export function shareReadWindow(context: object, items: number): void {
	itemsInFlight.set(context, Math.max(1, items));
}

/** The read window for one list walk of this context (READ_WINDOW split among its items in flight). */
export function readWindowOf(context: object): number {
	return Math.max(1, Math.floor(READ_WINDOW / (itemsInFlight.get(context) ?? 1)));
}

/** 429 answers seen per execution context (a node run, a picker call, a hook). */
const rateLimitsSeen = new WeakMap<object, number>();

/** Called by the transport for every 429, so every walk of the same context narrows its window. */
export function noteRateLimited(context: object): void {
	rateLimitsSeen.set(context, (rateLimitsSeen.get(context) ?? 0) + 1);
}

/** The narrowest window a 429 has left in each context: walks started later begin there. */
const narrowedTo = new WeakMap<object, number>();

/**
 * A walk's window: halved once for every time new 429s have been seen, never below 1 nor grown
 * back within the context (a node run, a picker call), so a wide window cannot become a storm.
 */
function narrowOnRateLimit(context: object | undefined, window: number): () => number {
	if (!context) return () => window;
	let limit = Math.min(window, narrowedTo.get(context) ?? window);
	let seen = rateLimitsSeen.get(context) ?? 0;
	return () => {
		const now = rateLimitsSeen.get(context) ?? 0;
		if (now > seen) {
			seen = now;
			limit = Math.max(1, Math.floor(limit / 2));
			narrowedTo.set(context, Math.min(limit, narrowedTo.get(context) ?? limit));
		}
		return limit;
	};
}

export interface Walk<T> {
	/** First and last index (inclusive); `last` may be Infinity when `accept` decides the end. */
	first: number;
	last: number;
	/** Most tasks started and not yet accepted. */
	window: number;
	/** The execution context whose 429s narrow the window; none: the window is fixed. */
	context?: object;
	start(index: number): Promise<T>;
	/** Takes the results strictly in index order; true stops the walk (nothing further starts). */
	accept(index: number, result: T): boolean | Promise<boolean>;
}

/**
 * Runs `start(first..last)` in index order with at most `window` started and not yet accepted,
 * and hands the results to `accept` in index order, exactly as one after another would. After a
 * failure (of a task or of `accept`) or a stop, nothing new starts; the call returns only when
 * every started task has settled, so no request outlives it, and then throws the failure of the
 * lowest index (the one a one-by-one run would have met first).
 */
export async function walkInOrder<T>(walk: Walk<T>): Promise<void> {
	const windowNow = narrowOnRateLimit(walk.context, Math.max(1, Math.floor(walk.window)));
	const started = new Map<number, Promise<T>>();
	let next = walk.first;
	let closed = false;
	const topUp = () => {
		while (!closed && next <= walk.last && started.size < windowNow()) {
			const task = walk.start(next);
			// Handled here so a failure nobody awaits yet is not "unhandled"; stops new starts at once.
			task.catch(() => {
				closed = true;
			});
			started.set(next++, task);
		}
	};
	try {
		for (let index = walk.first; index <= walk.last; index++) {
			topUp();
			// Started in order and none after a failure: the index awaited is always started.
			const task = started.get(index) as Promise<T>;
			const done = await walk.accept(index, await task);
			started.delete(index);
			if (done) return;
		}
	} finally {
		closed = true;
		if (started.size > 0) await Promise.allSettled(started.values());
	}
}
