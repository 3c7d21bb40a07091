import { sleep } from 'n8n-workflow';

/**
 * What a 429 does to the other requests of the same execution context (a node run, a picker
 * call, a hook). Without it, each of the requests in flight (up to a whole read window) waited
 * out its own Retry-After and all were sent again at the same moment, up to five times: a
 * throttled service got the full window back at every Retry-After.
 *
 * After a 429 the context is throttled: every attempt, new or repeated, waits until the latest
 * Retry-After has passed, then the attempts go one at a time, so the service sees a single probe.
 * The first answer that is not a 429 ends the throttle and the others go on as before. A 429 to a
 * probe is a new round: every request of the context counts it against its own limit of waits,
 * so a service that keeps refusing ends the run after that many rounds, not after that many
 * waits of each request in turn.
 */
interface Gate {
	throttled: boolean;
	/** When the latest Retry-After has passed (ms since the epoch). */
	until: number;
	/** Rounds of 429s so far: the first 429 and each 429 to a probe. */
	rounds: number;
	/** The probe in flight: the next attempt starts when it has its answer. */
	turn: Promise<void>;
}

const gates = new WeakMap<object, Gate>();

function gateOf(context: object): Gate {
	let gate = gates.get(context);
	if (!gate) {
		gate = { throttled: false, until: 0, rounds: 0, turn: Promise.resolve() };
		gates.set(context, gate);
	}
	return gate;
}

/** One request's passage through its context's gate. */
export interface GatePass {
	/**
	 * Waits while the context is throttled; then false when this request was refused before and
	 * the rounds of 429s since it began are more than it may wait out (it must not be sent again),
	 * true when it may be sent (a request not refused yet goes as the probe).
	 */
	beforeAttempt(refusedBefore: boolean): Promise<boolean>;
	/** After a 429: whether this request may wait and try again (its rounds are not used up). */
	rateLimited(waitSeconds: number): boolean;
	/**
	 * After any other answer, or a failure to get one: the turn passes on, and an answer of the
	 * service that is not a 5xx (it is no longer refusing) ends the throttle.
	 */
	answered(endsThrottle: boolean): void;
}

export function passGate(context: object, maxRounds: number): GatePass {
	const gate = gateOf(context);
	const firstRound = gate.rounds;
	const roundsLeft = () => gate.rounds - firstRound <= maxRounds;
	let release: (() => void) | undefined;
	let probing = false;
	/** This request's own 429s: never more waits than it may make, whatever the rounds say. */
	let ownWaits = 0;
	const letNextGo = () => {
		release?.();
		release = undefined;
	};
	return {
		async beforeAttempt(refusedBefore) {
			probing = false;
			// A request that may not wait (the delivery path's key fetch) is not held behind a probe.
			if (!gate.throttled || maxRounds === 0) return true;
			// Queue behind the probe in flight, if any.
			const before = gate.turn;
			gate.turn = new Promise<void>((resolve) => (release = resolve));
			await before;
			// Another request's 429 may have moved the resumption later while this one slept.
			for (let wait = gate.until - Date.now(); wait > 0; wait = gate.until - Date.now()) await sleep(wait);
			if (refusedBefore && !roundsLeft()) {
				letNextGo();
				return false;
			}
			if (gate.throttled) probing = true;
			else letNextGo();
			return true;
		},
		rateLimited(waitSeconds) {
			// The 429s of requests sent before the throttle began are one round, the first.
			if (!gate.throttled || probing) gate.rounds++;
			gate.throttled = true;
			gate.until = Math.max(gate.until, Date.now() + waitSeconds * 1000);
			letNextGo();
			return ++ownWaits <= maxRounds && roundsLeft();
		},
		answered(endsThrottle) {
			if (probing && endsThrottle) gate.throttled = false;
			probing = false;
			letNextGo();
		},
	};
}
