/**
 * Moves both clocks a node reads, as if that much time had passed: `Date` (the wall clock: message
 * timestamps) and `performance.now()` (the monotonic one: cache ages, send-rate deadlines). Timers
 * and sockets stay real, so a real server and n8n's engine keep working.
 */
const realDateNow = Date.now.bind(Date);
const realPerformanceNow = performance.now.bind(performance);

/**
 * The wall clock at `wallMs`, the monotonic clock `monotonicAheadMs` ahead (by default as far as
 * the wall clock moved: time passed; otherwise a wall clock stepped by hand or by NTP); returns
 * what puts them back.
 */
export function clocksAt(wallMs: number, monotonicAheadMs = wallMs - realDateNow()): () => void {
	const ahead = monotonicAheadMs;
	jest.useFakeTimers({
		now: wallMs,
		doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
	});
	const monotonic = jest.spyOn(performance, 'now').mockImplementation(() => realPerformanceNow() + ahead);
	return () => {
		monotonic.mockRestore();
		jest.useRealTimers();
	};
}
