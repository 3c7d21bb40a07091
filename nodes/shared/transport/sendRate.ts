import { sleep } from 'n8n-workflow';

/**
 * How fast one credential sends: one controller per credential in this n8n process (see
 * state.ts), shared by every run, picker and hook that uses it, since they share the service's
 * allowance. The service publishes no limit, so the controller learns it:
 *
 * - **Window** (requests in flight): the first request goes alone, then INITIAL_WINDOW, grown by half
 *   a request for every answer (×1.5 per round trip) up to MAX_WINDOW while nothing is refused;
 *   halved on a 429, a 5xx or a failed connection, then grown by one per window's worth of answers.
 * - **Pace** (a token bucket of our own, unlimited until the service shows a limit): requests leave
 *   no faster than the learned rate, so the ones waiting after a 429 go out spaced, never as a burst.
 *   The rate comes from the service's headers where it sends them (IETF `RateLimit`/`RateLimit-Policy`,
 *   `X-RateLimit-*`), else from the 429s themselves: between two refusals the service's bucket was
 *   empty at both ends, so the answers in between are exactly what it refilled (rate = answers ÷ time).
 * - **Pause**: after a 429 nothing leaves before its `Retry-After` (seconds or HTTP date); without
 *   one, and for 429s in a row with nothing answered between them, exponential back-off with jitter
 *   from 1 s. A 503's Retry-After pauses too.
 *
 * Every wait for a pause is charged to the run that waits (its WaitBudget): past the run's Max Wait
 * for Rate Limits the request fails with RateLimitWaitExceeded instead of waiting.
 */

/**
 * Requests in flight once the first answer is back, before anything is known of the service. What
 * is in flight when a small bucket runs dry is refused all at once (about INITIAL_WINDOW + half the
 * burst): 2 rather than 4 costs two refusals fewer there, and one round trip more to reach 64.
 */
export const INITIAL_WINDOW = 2;
/**
 * Growth of the window per answer before anything is refused: half a request, so ×1.5 a round trip.
 * Doubling overshot a small bucket: the requests its answers let out were all refused at once.
 */
const SLOW_START_GROWTH = 0.5;
/** The most requests in flight per credential (what made Return All fast on a real network: BENCHMARKS.md). */
export const MAX_WINDOW = 64;
/** Without a Retry-After: the first back-off after a 429, doubled for each further 429 in a row. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/**
 * While nothing is refused the pace rises above the learned rate as (seconds since the last 429 ÷
 * the probe period)³: with 40 s, +4% after 10 s, +30% after 20 s, twice after 40 s. Against a
 * steady limit each probe costs one refusal (what the pause then refills is not lost), about every
 * third of the period; so each probe that finds the limit where it was (the interval's rate within
 * PROBE_CONFIRMED of the learned one) doubles the period, up to MAX_PROBE_SECONDS, and a limit that
 * moved starts it again at PROBE_SECONDS.
 */
const PROBE_SECONDS = 40;
const MAX_PROBE_SECONDS = 160;
const PROBE_CONFIRMED = 0.1;
/** The slowest pace learned from 429s: six requests a minute. */
const MIN_RATE = 0.1;
/**
 * The longest pause one answer can impose: a proxy's Retry-After of a day (or an epoch time
 * taken for seconds) must not silence a credential until n8n restarts; after it one request tries.
 */
const MAX_PAUSE_MS = 60 * 60_000;
/** Answers in a row without allowance headers after which the headers are no longer followed. */
const HEADERLESS_ANSWERS = 20;
/** Requests whose run may wait no longer than this (key fetches, pickers) go before the others queued. */
export const URGENT_BUDGET_MS = 30_000;
/** Each wait is checked again at least this often (a timer never runs longer). */
const MAX_TIMER_MS = 60_000;

export interface Clock {
	now(): number;
	/** Resolves after `ms`; an abort ends it early (and clears its timer). */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
	/** 0..1; jitter of the back-off. */
	random(): number;
}

export const realClock: Clock = {
	now: () => Date.now(),
	// n8n's sleep rejects when aborted (older versions ignore the signal and just resolve later).
	sleep: async (ms, signal) => await sleep(ms, signal).catch(() => undefined),
	random: Math.random,
};

type Headers = Record<string, string | string[] | undefined>;

function headerOf(headers: Headers | undefined, name: string): string | undefined {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/** Retry-After as seconds from `now`: a number of seconds or an HTTP date; undefined if absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const seconds = Number(value);
	// A number beyond a billion is an epoch time (seconds) a proxy sent where seconds belong.
	if (Number.isFinite(seconds)) return Math.max(0, seconds > 1e9 ? seconds - now / 1000 : seconds);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** What an answer says about the allowance left. */
export interface Allowance {
	/** Requests the service will still take now. */
	remaining: number;
	/** Seconds until the allowance is whole again (or the window resets). */
	resetSeconds?: number;
	/** The whole allowance (the bucket's size, or the window's quota). */
	limit?: number;
	/** Requests per second, where the service states its policy. */
	rate?: number;
}

/** A number parameter of a structured header field item: `r=5` in `"default";r=5;t=2`. */
function parameter(field: string, name: string): number | undefined {
	const match = new RegExp(`(?:^|;)\\s*${name}=(\\d+(?:\\.\\d+)?)`).exec(field);
	return match ? Number(match[1]) : undefined;
}

/**
 * The allowance an answer states, in any of the common forms: the IETF fields (`RateLimit:
 * "p";r=…;t=…` with `RateLimit-Policy: "p";q=…;w=…`), their earlier draft (`RateLimit-Remaining`,
 * `-Reset`, `-Limit`) and `X-RateLimit-Remaining` / `-Reset` (seconds, or an epoch time) / `-Limit`.
 */
export function readAllowance(headers: Headers | undefined, now = Date.now()): Allowance | undefined {
	const structured = headerOf(headers, 'ratelimit');
	if (structured !== undefined) {
		const remaining = parameter(structured, 'r');
		if (remaining !== undefined) {
			const policy = headerOf(headers, 'ratelimit-policy') ?? '';
			const quota = parameter(policy, 'q');
			const window = parameter(policy, 'w');
			// A quota below one request says nothing usable (and would stop every send).
			const usable = quota !== undefined && quota >= 1;
			return {
				remaining,
				resetSeconds: parameter(structured, 't'),
				limit: usable ? quota : undefined,
				rate: usable && window ? quota / window : undefined,
			};
		}
	}
	for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
		const remaining = Number(headerOf(headers, `${prefix}remaining`));
		if (headerOf(headers, `${prefix}remaining`) === undefined || !Number.isFinite(remaining)) continue;
		const reset = Number(headerOf(headers, `${prefix}reset`));
		const limit = Number(headerOf(headers, `${prefix}limit`));
		return {
			remaining: Math.max(0, remaining),
			// A reset beyond a billion is an epoch time (seconds, as GitHub's; beyond a trillion, milliseconds); smaller, seconds from now.
			resetSeconds: Number.isFinite(reset)
				? Math.max(0, reset > 1e12 ? (reset - now) / 1000 : reset > 1e9 ? reset - now / 1000 : reset)
				: undefined,
			limit: Number.isFinite(limit) && limit >= 1 ? limit : undefined,
		};
	}
	return undefined;
}

/** What a run may still wait for rate limits; one per run, charged by every request it makes. */
export class WaitBudget {
	private waitedMs = 0;
	private waitedUntil = 0;
	private readonly onCancel = new Set<() => void>();
	/** Set when the run failed or was stopped: its requests still waiting to be sent are not sent. */
	cancelled = false;
	constructor(readonly maxMs: number) {}

	/** The run failed or was stopped: its waiting requests are dropped at once (the send rates are woken). */
	cancel(): void {
		this.cancelled = true;
		for (const wake of this.onCancel) wake();
		this.onCancel.clear();
	}

	/** `wake` runs when the budget is cancelled. */
	whenCancelled(wake: () => void): void {
		if (!this.cancelled) this.onCancel.add(wake);
	}

	/**
	 * An answer that was not a refusal: the service lets requests through again. What the run may
	 * wait counts the waits since the last such answer, so a service that refuses now and then is
	 * waited out however often, and only one that keeps refusing ends the run.
	 */
	progress(): void {
		this.waitedMs = 0;
	}

	get waited(): number {
		return this.waitedMs;
	}

	/** Whether waiting until `until` stays within the budget (time already charged is not charged twice). */
	allows(now: number, until: number): boolean {
		return this.waitedMs + Math.max(0, until - Math.max(now, this.waitedUntil)) <= this.maxMs;
	}

	/** Charges a wait from `from` to `until`; waits of the run's requests at the same time count once. */
	charge(from: number, until: number): void {
		this.waitedMs += Math.max(0, until - Math.max(from, this.waitedUntil));
		this.waitedUntil = Math.max(this.waitedUntil, until);
	}
}

/** A request that would have to wait for the service longer than its run may. */
export class RateLimitWaitExceeded extends Error {
	constructor(
		/** Seconds the service asked to wait from now. */
		readonly askedSeconds: number,
		/** The run's budget, in milliseconds, and what it has waited already. */
		readonly budgetMs: number,
		readonly waitedMs: number,
	) {
		super('The service asked to wait longer than this run may wait for rate limits');
	}
}

/** A request whose run failed while it waited to be sent: it is not sent. */
export class RunCancelled extends Error {
	constructor() {
		super('Not sent: the run had already failed');
	}
}

/** One request's passage: sent when `acquire` resolves, reported with `done`. */
export interface SendTicket {
	/**
	 * The answer: a status with its headers, a failure to get one, or 'cancelled' (the execution was
	 * stopped: no sign of the service's health, so the window is not cut).
	 */
	done(outcome: { status: number; headers?: Headers } | 'failed' | 'cancelled'): void;
}

interface Waiter {
	budget: WaitBudget;
	queuedAt: number;
	resolve(ticket: SendTicket): void;
	reject(error: Error): void;
}

export class SendRate {
	private window = INITIAL_WINDOW;
	private growing = true;
	private answered = 0;
	private inFlight = 0;

	/** Our own bucket: Infinity until the service shows a limit. */
	private rate = Infinity;
	private capacity = Infinity;
	private tokens = Infinity;
	private refilledAt = 0;
	/** Set when the service states its allowance in headers: they, not the 429s, give the pace. */
	private toldByHeaders = false;
	/** When the stated allowance is whole again, for a service that states no rate. */
	private resetAt = 0;

	private pausedUntil = 0;
	private lastSentAt = 0;
	private refusalsInARow = 0;
	/** When the latest 429 arrived: the 429s of requests sent before it are the same refusal. */
	private lastRefusalAt = -Infinity;
	private lastCutAt = -Infinity;

	/** Learning the rate from 429s: answers since the last refusal, and the sums over busy intervals. */
	private answersSinceRefusal = 0;
	private answersSinceBusy = 0;
	private busySince = 0;
	private idleSince: number | undefined;
	private learnedAnswers = 0;
	private learnedSeconds = 0;
	private learnedIntervals = 0;
	/** When the current interval of learning began (the last refusal), and whether it may be learned from. */
	private intervalSince = -Infinity;
	private intervalValid = false;
	/**
	 * How much of the current interval was pause beyond what fills the bucket: left out of it, or a
	 * long back-off would read as a slow service (a pause that refills is counted: its tokens are
	 * the answers after it).
	 */
	private pausedInInterval = 0;
	private answersWithoutHeaders = 0;
	/** The rate the 429s showed; the pace probes above it while nothing is refused. */
	private learnedRate: number | undefined;
	private probeSeconds = PROBE_SECONDS;
	/** Set when the probe period is shortened mid-probe: where the shorter period's probe starts. */
	private probeFrom = -Infinity;

	private readonly queue: Waiter[] = [];
	private pumping = false;
	private wake: (() => void) | undefined;
	/** One function for every budget to call when cancelled (a budget keeps each only once). */
	private readonly wakeUp = () => this.signal();

	constructor(private readonly clock: Clock = realClock) {
		this.idleSince = clock.now();
	}

	/** For tests and the bench: what the controller has learned. */
	snapshot() {
		return {
			window: this.window,
			inFlight: this.inFlight,
			rate: this.rate,
			tokens: this.tokens,
			pausedUntil: this.pausedUntil,
			queued: this.queue.length,
		};
	}

	/**
	 * Resolves when this request may be sent. Rejects with RateLimitWaitExceeded when a pause the
	 * service asked for lasts longer than `budget` allows.
	 */
	acquire(budget: WaitBudget): Promise<SendTicket> {
		const now = this.clock.now();
		if (this.queue.length === 0 && this.inFlight === 0 && this.idleSince !== undefined) {
			// A new busy period: what happened while idle says nothing about the service's rate (its
			// bucket filled up meanwhile), so neither the first burst nor the interval since the last
			// refusal counts the idle time.
			if (now - this.idleSince > 1000) {
				this.answersSinceBusy = 0;
				// The bucket filled up while idle: the interval until the next refusal is no measure.
				this.intervalValid = false;
				// A confirmation is older by a quiet spell: short runs that never reach a refusal
				// (say a limit raised since) still come back to the first period.
				this.probeSeconds = Math.max(PROBE_SECONDS, this.probeSeconds / 2);
			}
			if (this.answersSinceBusy === 0) this.busySince = now;
		}
		if (budget.cancelled) return Promise.reject(new RunCancelled());
		if (this.pausedUntil > now && !budget.allows(now, this.pausedUntil)) {
			return Promise.reject(this.exceeded(budget, now));
		}
		this.idleSince = undefined;
		return new Promise<SendTicket>((resolve, reject) => {
			const waiter: Waiter = { budget, queuedAt: now, resolve, reject };
			// A request that may wait little (a delivery's key fetch, a picker) goes before the runs' queue.
			if (budget.maxMs <= URGENT_BUDGET_MS) {
				const firstPatient = this.queue.findIndex((queued) => queued.budget.maxMs > URGENT_BUDGET_MS);
				this.queue.splice(firstPatient < 0 ? this.queue.length : firstPatient, 0, waiter);
			} else {
				this.queue.push(waiter);
			}
			budget.whenCancelled(this.wakeUp);
			this.signal();
			if (!this.pumping) void this.pump();
		});
	}

	/**
	 * Whether nothing has been in flight or waiting since `before` (the credential's rate may be
	 * forgotten). A pause lasts an hour at most from an answer, so it has ended by then too.
	 */
	idleBefore(before: number): boolean {
		return this.inFlight === 0 && this.queue.length === 0 && this.idleSince !== undefined && this.idleSince <= before;
	}

	/** The pause in force, as what a request with no budget left is told (seconds from now). */
	pausedFor(): number {
		return Math.max(0, this.pausedUntil - this.clock.now()) / 1000;
	}

	private exceeded(budget: WaitBudget, now: number): RateLimitWaitExceeded {
		return new RateLimitWaitExceeded((this.pausedUntil - now) / 1000, budget.maxMs, budget.waited);
	}

	private signal(): void {
		const wake = this.wake;
		this.wake = undefined;
		wake?.();
	}

	/** Waits `ms`, or less when an answer or a new request changes what may be sent. */
	private async waitFor(ms: number): Promise<void> {
		const woken = new Promise<void>((resolve) => (this.wake = resolve));
		// Woken early, the timer is cleared: nothing keeps the process waiting for it.
		const timer = new AbortController();
		await Promise.race([this.clock.sleep(Math.min(MAX_TIMER_MS, Math.max(0, ms)), timer.signal), woken]);
		timer.abort();
		this.wake = undefined;
	}

	private refill(now: number): void {
		if (this.rate === Infinity) return;
		if (now > this.refilledAt) {
			this.tokens = Math.min(this.capacity, this.tokens + ((now - this.refilledAt) / 1000) * this.rate);
			this.refilledAt = now;
		}
	}

	private async pump(): Promise<void> {
		this.pumping = true;
		try {
			while (this.queue.length > 0) {
				for (const waiter of this.queue.filter((w) => w.budget.cancelled)) {
					this.queue.splice(this.queue.indexOf(waiter), 1);
					waiter.reject(new RunCancelled());
				}
				if (this.queue.length === 0) break;
				const now = this.clock.now();
				if (this.pausedUntil > now) {
					const until = this.pausedUntil;
					// Those who may not wait that long fail now rather than after the wait.
					for (const waiter of [...this.queue]) {
						if (!waiter.budget.allows(now, until)) {
							this.queue.splice(this.queue.indexOf(waiter), 1);
							waiter.reject(this.exceeded(waiter.budget, now));
						}
					}
					const waiting = [...this.queue];
					// Woken early by a cancelled run or a new request; each waiter is charged what it waited.
					await this.waitFor(until - now);
					const after = Math.min(until, this.clock.now());
					for (const waiter of waiting) waiter.budget.charge(Math.max(now, waiter.queuedAt), after);
					continue;
				}
				const window = this.answered === 0 ? 1 : Math.floor(this.window);
				if (this.inFlight >= window) {
					await this.waitFor(60_000);
					continue;
				}
				this.refill(now);
				if (this.tokens < 1) {
					if (this.rate !== Infinity) await this.waitFor(((1 - this.tokens) / this.rate) * 1000);
					else if (this.resetAt > now) {
						// No rate stated yet: one request a second while waiting for the reset shows how fast it refills.
						const probeIn = this.lastSentAt + 1000 - now;
						if (this.inFlight === 0 && probeIn <= 0) this.tokens = 1;
						else await this.waitFor(Math.min(this.resetAt - now, Math.max(1, probeIn)));
					} else {
						// The stated allowance is whole again (no rate stated): spend it (all of it, when its size
						// is unknown: the next answers' headers say what is left), and look again in a second.
						this.tokens = this.capacity === Infinity ? Infinity : Math.max(1, this.capacity - this.inFlight);
						this.resetAt = now + 1000;
					}
					continue;
				}
				this.tokens -= 1;
				this.lastSentAt = now;
				const waiter = this.queue.shift() as Waiter;
				waiter.resolve(this.ticket());
			}
		} finally {
			this.pumping = false;
			// Every waiter rejected (a cancelled run, a budget too short), nothing in flight: idle from now.
			if (this.idleSince === undefined) this.noteIfIdle();
		}
	}

	private ticket(): SendTicket {
		this.inFlight++;
		const sentAt = this.clock.now();
		let reported = false;
		return {
			done: (outcome) => {
				if (reported) return;
				reported = true;
				this.inFlight--;
				if (outcome !== 'cancelled') this.onAnswer(sentAt, outcome);
				this.noteIfIdle();
				this.signal();
			},
		};
	}

	/** Nothing in flight or waiting: idle from now (a new busy period starts at the next request). */
	private noteIfIdle(): void {
		if (this.inFlight === 0 && this.queue.length === 0) this.idleSince = this.clock.now();
	}

	private cut(sentAt: number, now: number): void {
		// One cut per congestion event: the answers of requests sent before the last cut are the same event.
		if (sentAt < this.lastCutAt) return;
		this.lastCutAt = now;
		this.growing = false;
		this.window = Math.max(1, Math.floor(this.window / 2));
	}

	private onAnswer(sentAt: number, outcome: { status: number; headers?: Headers } | 'failed'): void {
		const now = this.clock.now();
		if (outcome === 'failed' || outcome.status >= 500) {
			this.cut(sentAt, now);
			if (outcome !== 'failed' && outcome.status === 503) {
				const wait = retryAfterSeconds(headerOf(outcome.headers, 'retry-after'), now);
				if (wait !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(MAX_PAUSE_MS, wait * 1000));
			}
			return;
		}
		this.answered++;
		if (outcome.status === 429) {
			this.onRefusal(sentAt, now, outcome.headers);
			return;
		}
		this.refusalsInARow = 0;
		this.answersSinceRefusal++;
		this.answersSinceBusy++;
		this.window = Math.min(MAX_WINDOW, this.window + (this.growing ? SLOW_START_GROWTH : 1 / Math.max(1, this.window)));
		const allowance = readAllowance(outcome.headers, now);
		if (allowance) {
			this.answersWithoutHeaders = 0;
			this.follow(allowance, now);
		} else if (this.toldByHeaders && ++this.answersWithoutHeaders >= HEADERLESS_ANSWERS) {
			// Headers seen once (say only on a 429) and then no more: learn from the 429s again.
			this.toldByHeaders = false;
			this.rate = this.learnedRate ?? Infinity;
			this.tokens = this.rate === Infinity ? Infinity : Math.min(this.tokens, 1);
			this.capacity = this.rate === Infinity ? Infinity : this.capacity;
		} else if (!this.toldByHeaders && this.learnedRate !== undefined) {
			// No refusal since: probe above the learned rate, slowly at first, then faster (as CUBIC
			// does), so a rate learned too low, or a limit raised since, is found within a minute or two.
			// Counted from the refusal, or from the start of the busy period after a quiet spell.
			let seconds = (now - Math.max(this.lastRefusalAt, this.busySince, this.probeFrom)) / 1000;
			if (this.probeSeconds > PROBE_SECONDS && seconds > this.probeSeconds / 2) {
				// Against the limit learned, a probe is refused within a third of the period: none in half
				// of it says the limit moved up. The first period again, from the pace reached (no jump).
				seconds *= PROBE_SECONDS / this.probeSeconds;
				this.probeFrom = now - seconds * 1000;
				this.probeSeconds = PROBE_SECONDS;
			}
			this.rate = this.learnedRate * (1 + (seconds / this.probeSeconds) ** 3);
		}
	}

	/** The service stated what is left: our bucket holds that (less what is on its way), at its rate. */
	private follow(allowance: Allowance, now: number): void {
		this.toldByHeaders = true;
		if (allowance.limit !== undefined) this.capacity = Math.max(1, allowance.limit);
		if (allowance.resetSeconds !== undefined) this.resetAt = now + allowance.resetSeconds * 1000;
		if (allowance.rate !== undefined && allowance.rate > 0) this.rate = allowance.rate;
		else this.learnFromRemaining(allowance, now);
		this.refill(now);
		const left = Math.max(0, allowance.remaining - this.inFlight);
		this.tokens = this.rate === Infinity ? left : Math.min(this.tokens, left);
		this.refilledAt = now;
	}

	/**
	 * No stated rate: what is left, read over a few seconds, tells it. From a reference answer on,
	 * the allowance refilled by (remaining now − remaining then + the answers in between); a full
	 * allowance (which cannot grow) starts a new reference.
	 */
	private stated: { at: number; remaining: number; answers: number } | undefined;
	private learnFromRemaining(allowance: Allowance, now: number): void {
		const full = allowance.limit !== undefined && allowance.remaining >= allowance.limit - 1;
		if (!this.stated || full) {
			this.stated = { at: now, remaining: allowance.remaining, answers: 0 };
			return;
		}
		this.stated.answers++;
		const seconds = (now - this.stated.at) / 1000;
		const refilled = allowance.remaining - this.stated.remaining + this.stated.answers;
		if (seconds >= 2 && refilled > 0) this.rate = Math.max(MIN_RATE, refilled / seconds);
	}

	private onRefusal(sentAt: number, now: number, headers: Headers | undefined): void {
		const sameRefusal = sentAt < this.lastRefusalAt;
		const asked = retryAfterSeconds(headerOf(headers, 'retry-after'), now);
		if (!sameRefusal) this.refusalsInARow++;
		// Jitter in the upper half: never less than the first back-off's half. It starts at 1 s with the
		// first 429 that has no Retry-After, and with the second in a row of those that have one.
		const backoff = (inARow: number) => {
			const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, inARow - 1));
			return ceiling / 2 + (this.clock.random() * ceiling) / 2;
		};
		// Retry-After is the least wait; 429s in a row with no answer between them (a Retry-After of 0
		// answered again and again) back off as if it were missing, so no service is hammered.
		// Without Retry-After, an exhausted allowance's stated reset is the wait.
		const allowance = readAllowance(headers, now);
		const stated = asked ?? (allowance?.remaining === 0 ? allowance.resetSeconds : undefined);
		const pause = Math.min(
			MAX_PAUSE_MS,
			stated === undefined
				? backoff(this.refusalsInARow)
				: Math.max(stated * 1000, this.refusalsInARow > 1 ? backoff(this.refusalsInARow - 1) : 0),
		);
		// A new refusal ends the interval learned from: its pauses are left out of it (below).
		if (!sameRefusal) {
			this.cut(sentAt, now);
			if (!this.toldByHeaders) this.learnFromRefusal(now);
			this.pausedInInterval = 0;
		}
		const pausedBefore = Math.max(this.pausedUntil, now);
		this.pausedUntil = Math.max(this.pausedUntil, now + pause);
		// The part of a pause longer than the bucket takes to fill refilled nothing: not learned from.
		const fills = this.rate === Infinity || this.capacity === Infinity ? Infinity : (this.capacity / this.rate) * 1000;
		this.pausedInInterval += Math.max(0, this.pausedUntil - pausedBefore - fills);
		this.tokens = 0;
		this.refilledAt = this.pausedUntil;
		if (allowance) this.follow(allowance, now);
		if (sameRefusal) return;
		// After the pause: what the service surely refilled in it, at the rate we are sure of.
		this.tokens = Math.min(this.capacity, Math.max(1, Math.floor(this.surelyRefilled((this.pausedUntil - now) / 1000))));
		this.refilledAt = this.pausedUntil;
		this.lastRefusalAt = now;
		this.answersSinceRefusal = 0;
		if (!this.toldByHeaders && this.rate !== Infinity) this.learnedRate = this.rate;
	}

	/** Tokens the service added in `seconds`, by the lowest rate the refusals allow: 0 before two refusals. */
	private surelyRefilled(seconds: number): number {
		if (this.toldByHeaders || this.learnedSeconds === 0) return 0;
		return (this.learnedAnswers / this.learnedSeconds) * seconds;
	}

	private learnFromRefusal(now: number): void {
		const intervalSince = this.intervalSince;
		const intervalValid = this.intervalValid;
		this.intervalSince = now;
		this.intervalValid = true;
		if (intervalSince === -Infinity || this.rate === Infinity) {
			// The first refusal after answers: they were a first burst plus what was refilled since.
			// Taken as one second's worth: right when the burst is a second's worth, and the next
			// refusal corrects it otherwise. A refusal with no answer before it tells no rate.
			if (this.answersSinceBusy === 0) return;
			const seconds = Math.max(1, (now - this.busySince) / 1000);
			this.rate = Math.max(MIN_RATE, this.answersSinceBusy / seconds);
			this.capacity = Math.max(1, this.answersSinceBusy);
			return;
		}
		if (!intervalValid) return;
		const seconds = Math.max(0.001, now - intervalSince - this.pausedInInterval) / 1000;
		// The service's bucket was empty at both refusals: the answers in between are its refill, give or take
		// one (a refusal means less than one token, not none). Refusals in a row (a probe refused)
		// tell nothing of the rate: the back-off handles them. Older intervals weigh less and less,
		// so one bad interval (another client draining the bucket) is soon forgotten.
		if (seconds > 0 && this.answersSinceRefusal > 0) {
			// The interval's rate against the learned one (NaN before any: neither confirmed nor more).
			const shown = (this.answersSinceRefusal + 0.5) / seconds / (this.learnedRate ?? NaN);
			const confirmed = Math.abs(shown - 1) <= PROBE_CONFIRMED;
			this.probeSeconds = confirmed ? Math.min(MAX_PROBE_SECONDS, this.probeSeconds * 2) : PROBE_SECONDS;
			// An interval can show less than the service's rate (its bucket overflowed while we paced below
			// it), never more: one that shows more is the rate now, older ones are dropped.
			const keep = shown > 1 + PROBE_CONFIRMED ? 0 : 0.5;
			this.learnedAnswers = this.learnedAnswers * keep + this.answersSinceRefusal;
			this.learnedSeconds = this.learnedSeconds * keep + seconds;
			this.learnedIntervals = this.learnedIntervals * keep + 1;
			this.rate = Math.max(MIN_RATE, (this.learnedAnswers + this.learnedIntervals / 2) / this.learnedSeconds);
		}
	}
}
