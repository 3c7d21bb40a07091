/**
 * The one way the nodes keep several requests in flight: list pages (Return All, Limit, the
 * pickers' search, the dropdowns) and input items (the router's item concurrency).
 */

/**
 * How many are in flight is the send rate's to decide (sendRate.ts: it learns what the service
 * allows, per credential); a walk's window only bounds what one list or one run has started and not
 * yet taken, so a run of many items does not queue thousands of requests at once.
 */

export interface Walk<T> {
	/** First and last index (inclusive); `last` may be Infinity when `accept` decides the end. */
	first: number;
	last: number;
	/** Most tasks started and not yet accepted. */
	window: number;
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
	const window = Math.max(1, Math.floor(walk.window));
	const started = new Map<number, Promise<T>>();
	let next = walk.first;
	let closed = false;
	const topUp = () => {
		while (!closed && next <= walk.last && started.size < window) {
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
