/**
 * A moment on both of the process's clocks. The monotonic clock (`performance.now()`) is not
 * stepped by NTP or by hand, but stands still while the machine is suspended; the wall clock
 * (`Date.now()`) runs on through a suspension, but can be stepped back or forward. Ages are judged
 * on both (below), so that neither clock's fault alone stretches one.
 */
export interface Instant {
	monotonic: number;
	wall: number;
}

export function instantNow(): Instant {
	return { monotonic: performance.now(), wall: Date.now() };
}

/** `ms` have passed since `then` on either clock: for an age after which something must be fetched again. */
export function passedOnEither(then: Instant, now: Instant, ms: number): boolean {
	return now.monotonic - then.monotonic >= ms || now.wall - then.wall >= ms;
}

/** `ms` have passed since `then` on both clocks: for something that must be remembered at least that long. */
export function passedOnBoth(then: Instant, now: Instant, ms: number): boolean {
	return now.monotonic - then.monotonic >= ms && now.wall - then.wall >= ms;
}
