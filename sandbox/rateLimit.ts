/**
 * A realistic rate limiter per access token, of one of three shapes (`shape`):
 *
 * - `bucket` (the default, the most common kind of API limit): each /v1.0 request takes one token;
 *   the bucket holds at most `burst` tokens and refills at `rate` per second.
 * - `window`: a fixed window of `burst` requests per `burst / rate` seconds (10 per 5 s: rate 2,
 *   burst 10), whole again at the end of each window (windows aligned on the epoch, as most are).
 * - `leaky`: nginx's `limit_req ... burst=N nodelay` in front of the API: a request sooner than
 *   1/rate after the last one accepted, beyond `burst` (0 or more) such, is refused, and a refusal
 *   changes nothing. That is a bucket of burst + 1. nginx answers with its HTML page and no
 *   Retry-After or allowance headers, with 503 (its default) or `status` 429 (`limit_req_status`).
 *
 * A request that finds less than one token is refused (429, or `status`) before it is handled. What the
 * answers say about the allowance is selectable, as real services differ:
 *
 * - `retryAfter` on a 429: `seconds` (whole seconds until a token is there, at least 1), `date`
 *   (the same instant as an HTTP date, rounded up to the next second) or `none`.
 * - `info` on every answer: `none`; `x-ratelimit` (X-RateLimit-Limit = burst, -Remaining = whole
 *   tokens left, -Reset = epoch second when the bucket is full again, as GitHub's); `x-ratelimit-delta`
 *   (the same, -Reset in seconds from now); `ratelimit` (the IETF fields: `RateLimit-Policy:
 *   "bucket";q=<rate × w>;w=<1 or 60 seconds>` and `RateLimit: "bucket";r=<remaining>;t=<seconds
 *   until full>`). For a window, "until full" is the window's end.
 */
import { FieldErrors, throwIfErrors } from './problems';
import { addError, int, num, obj, oneOf } from './validation';

export const RETRY_AFTER_STYLES = ['seconds', 'date', 'none'] as const;
export const INFO_STYLES = ['none', 'x-ratelimit', 'x-ratelimit-delta', 'ratelimit'] as const;
export const SHAPES = ['bucket', 'window', 'leaky'] as const;
export const REFUSAL_STATUSES = [429, 503] as const;

export interface RateLimitConfig {
	/** Tokens added per second. */
	rate: number;
	/** Most tokens the bucket holds (and holds at first); for `leaky`, requests allowed beyond the rate (0 or more). */
	burst: number;
	/** Default `seconds`. */
	retryAfter?: (typeof RETRY_AFTER_STYLES)[number];
	/** Default `none`. */
	info?: (typeof INFO_STYLES)[number];
	/** Default `bucket`. */
	shape?: (typeof SHAPES)[number];
	/** The refusal's status: default 503 for `leaky` (nginx's), else 429. */
	status?: (typeof REFUSAL_STATUSES)[number];
}

export interface RateLimitCounts {
	/** Requests let through. */
	allowed: number;
	/** Requests refused with 429. */
	refused: number;
}

export interface Admission {
	allowed: boolean;
	/** Headers for the answer (the 429 or the handled request's). */
	headers: Record<string, string>;
	/** For a refusal: seconds until a token is there, the status, and (`leaky`) nginx's HTML page. */
	waitSeconds?: number;
	status?: number;
	html?: string;
}

const configSchema = obj(
	{
		rate: num({ min: 0.001 }),
		burst: num({ min: 0 }),
		retryAfter: oneOf([...RETRY_AFTER_STYLES]),
		info: oneOf([...INFO_STYLES]),
		shape: oneOf([...SHAPES]),
		status: int({ min: 429, max: 503 }),
	},
	{ strict: true, required: ['rate', 'burst'] },
);

/** Validates a limiter's settings (errors under `rateLimit.field`). */
export function parseRateLimit(input: unknown): RateLimitConfig {
	const errors: FieldErrors = {};
	const parsed = configSchema.parse(input, 'rateLimit', errors) as unknown as RateLimitConfig;
	if (parsed.shape !== 'leaky' && parsed.burst < 1) addError(errors, 'rateLimit.burst', 'A bucket or window holds at least 1 (burst 0 is for shape leaky).');
	if (parsed.status !== undefined && !REFUSAL_STATUSES.includes(parsed.status)) addError(errors, 'rateLimit.status', 'rateLimit.status must be 429 or 503.');
	throwIfErrors(errors);
	return parsed;
}

/**
 * `10/s,burst=10[,retry-after=date][,info=ratelimit][,shape=window|leaky][,status=503]` (the CLI's form) → settings.
 * `N/m` is per minute. Throws a plain Error naming what is wrong.
 */
export function parseRateLimitSpec(spec: string): RateLimitConfig {
	const [ratePart, ...rest] = spec.split(',').map((part) => part.trim());
	const rate = /^(\d+(?:\.\d+)?)\/(s|m)$/.exec(ratePart ?? '');
	if (!rate) throw new Error(`--rate-limit: expected RATE/s or RATE/m first (e.g. 10/s,burst=10), got '${ratePart}'`);
	const input: Record<string, unknown> = { rate: Number(rate[1]) / (rate[2] === 'm' ? 60 : 1) };
	for (const part of rest) {
		const [key, value] = part.split('=', 2);
		if (key === 'burst') input.burst = Number(value);
		else if (key === 'retry-after') input.retryAfter = value;
		else if (key === 'info') input.info = value;
		else if (key === 'shape') input.shape = value;
		else if (key === 'status') input.status = Number(value);
		else throw new Error(`--rate-limit: unknown setting '${key}' (burst, retry-after, info, shape, status)`);
	}
	input.burst ??= input.shape === 'leaky' ? 0 : Math.max(1, Math.ceil(input.rate as number));
	try {
		return parseRateLimit(input);
	} catch (error) {
		throw new Error(`--rate-limit: ${JSON.stringify((error as { errors?: unknown }).errors ?? String(error))}`);
	}
}

/** One line for the start-up text: the limit as its shape states it, and what a refusal carries. */
export function describeRateLimit(config: RateLimitConfig | undefined): string {
	if (!config) return 'none';
	const status = config.status ?? (config.shape === 'leaky' ? 503 : 429);
	if (config.shape === 'leaky') {
		return `nginx limit_req rate=${config.rate}r/s burst=${config.burst} nodelay, per token (refusals: ${status} with nginx's HTML page, no Retry-After, no allowance headers)`;
	}
	const limit = config.shape === 'window' ? `${config.burst} per ${config.burst / config.rate} s window` : `${config.rate}/s, burst ${config.burst}`;
	return `${limit} per token (refusals: ${status}, Retry-After: ${config.retryAfter ?? 'seconds'}, headers: ${config.info ?? 'none'})`;
}

const MAX_REFUSALS_KEPT = 10_000;

interface Bucket {
	tokens: number;
	at: number;
}

export class RateLimiter {
	private config: RateLimitConfig | undefined;
	private buckets = new Map<string, Bucket>();
	private counts: RateLimitCounts = { allowed: 0, refused: 0 };
	/** When each refusal came, in ms since the limit was set or reset (the first MAX_REFUSALS_KEPT). */
	private refusedAt: number[] = [];
	private since = 0;

	constructor(private readonly now: () => number = Date.now) {}

	/** Replaces the settings (undefined: no limit) and starts every bucket full, counts at 0. */
	set(config: RateLimitConfig | undefined): void {
		this.config = config;
		this.reset();
	}

	get settings(): RateLimitConfig | undefined {
		return this.config;
	}

	reset(): void {
		this.buckets.clear();
		this.counts = { allowed: 0, refused: 0 };
		this.refusedAt = [];
		this.since = this.now();
	}

	stats(): RateLimitCounts {
		return { ...this.counts };
	}

	/** When the refusals came, ms since the limit was set or reset: where they fall tells first contact from later probing. */
	refusals(): number[] {
		return [...this.refusedAt];
	}

	/** Takes a token for a request made with `token` (the Authorization header as sent). */
	admit(token: string): Admission {
		const config = this.config;
		if (!config) return { allowed: true, headers: {} };
		const now = this.now();
		const leaky = config.shape === 'leaky';
		// nginx's limit_req with `burst` N (nodelay) lets N + 1 through at once, then one per 1/rate.
		const capacity = leaky ? config.burst + 1 : config.burst;
		let bucket = this.buckets.get(token);
		if (!bucket) {
			bucket = { tokens: capacity, at: now };
			this.buckets.set(token, bucket);
		}
		const windowMs = (config.burst / config.rate) * 1000;
		if (config.shape === 'window') {
			// Whole again at the end of each window, nothing before.
			const start = Math.floor(now / windowMs) * windowMs;
			if (bucket.at < start) bucket.tokens = config.burst;
			bucket.at = now;
		} else {
			const tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * config.rate);
			// nginx keeps its state as of the last request accepted: a refusal changes nothing.
			if (!leaky || tokens >= 1) Object.assign(bucket, { tokens, at: now });
			else {
				const status = config.status ?? 503;
				return this.refuse(now, { allowed: false, headers: {}, waitSeconds: (1 - tokens) / config.rate, status, html: nginxPage(status) });
			}
		}
		const allowed = bucket.tokens >= 1;
		if (allowed) {
			bucket.tokens -= 1;
			this.counts.allowed++;
		} else this.refuse(now, undefined);
		const windowEnd = (Math.floor(now / windowMs) + 1) * windowMs;
		const untilFull = config.shape === 'window' ? Math.ceil((windowEnd - now) / 1000) : undefined;
		const headers = leaky ? {} : this.infoHeaders(config, bucket.tokens, now, untilFull);
		if (allowed) return { allowed, headers };
		const waitSeconds = config.shape === 'window' ? (windowEnd - now) / 1000 : (1 - bucket.tokens) / config.rate;
		const whole = Math.max(1, Math.ceil(waitSeconds));
		const status = config.status ?? 429;
		if (config.retryAfter === 'date') headers['retry-after'] = new Date(Math.ceil((now + waitSeconds * 1000) / 1000) * 1000).toUTCString();
		else if (config.retryAfter !== 'none') headers['retry-after'] = String(whole);
		return { allowed, headers, waitSeconds, status };
	}

	/** Counts a refusal (and returns `admission`). */
	private refuse<T>(now: number, admission: T): T {
		this.counts.refused++;
		if (this.refusedAt.length < MAX_REFUSALS_KEPT) this.refusedAt.push(now - this.since);
		return admission;
	}

	/** `windowUntilFull`: for a window, the seconds to its end (a bucket's are computed from its tokens). */
	private infoHeaders(config: RateLimitConfig, tokens: number, now: number, windowUntilFull?: number): Record<string, string> {
		const remaining = Math.max(0, Math.floor(tokens));
		const untilFull = windowUntilFull ?? Math.max(0, Math.ceil((config.burst - tokens) / config.rate));
		switch (config.info ?? 'none') {
			case 'x-ratelimit':
			case 'x-ratelimit-delta':
				return {
					'x-ratelimit-limit': String(config.burst),
					'x-ratelimit-remaining': String(remaining),
					'x-ratelimit-reset': String(config.info === 'x-ratelimit' ? Math.ceil(now / 1000) + untilFull : untilFull),
				};
			case 'ratelimit':
				return {
					// The quota per window states the rate exactly (whole seconds: per second, or per minute below 1/s).
					'ratelimit-policy': `"bucket";q=${config.rate >= 1 ? config.rate : config.rate * 60};w=${config.rate >= 1 ? 1 : 60}`,
					ratelimit: `"bucket";r=${remaining};t=${untilFull}`,
				};
			default:
				return {};
		}
	}
}

/** nginx's own error page for a refusal (what limit_req sends: no problem document, no Retry-After). */
export function nginxPage(status: number): string {
	const title = `${status} ${status === 503 ? 'Service Temporarily Unavailable' : 'Too Many Requests'}`;
	return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}
