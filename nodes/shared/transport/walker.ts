/**
 * The one way the nodes keep several requests in flight (list pages, input items). How many fly is
 * the send rate's to decide; a walk's window only bounds what one list or run has started and not
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
 * Runs `start(first..last)` with at most `window` started and not yet accepted, handing results to
 * `accept` in index order. After a failure or a stop nothing new starts; it returns once every
 * started task settled, throwing the failure of the lowest index, as a one-by-one run would.
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
