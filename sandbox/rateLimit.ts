/**
 * A realistic rate limiter: a token bucket per access token (the most common kind of API limit).
 * Each /v1.0 request takes one token; the bucket holds at most `burst` tokens and refills at
 * `rate` per second; a request that finds less than one token is refused with 429 before it is
 * handled. What the answers say about the allowance is selectable, as real services differ:
 *
 * - `retryAfter` on a 429: `seconds` (whole seconds until a token is there, at least 1), `date`
 *   (the same instant as an HTTP date, rounded up to the next second) or `none`.
 * - `info` on every answer: `none`; `x-ratelimit` (X-RateLimit-Limit = burst, -Remaining = whole
 *   tokens left, -Reset = epoch second when the bucket is full again, as GitHub's); `x-ratelimit-delta`
 *   (the same, -Reset in seconds from now); `ratelimit` (the IETF fields: `RateLimit-Policy:
 *   "bucket";q=<rate × w>;w=<1 or 60 seconds>` and `RateLimit: "bucket";r=<remaining>;t=<seconds
 *   until full>`).
 */
import { FieldErrors, throwIfErrors } from './problems';
import { num, obj, oneOf } from './validation';

export const RETRY_AFTER_STYLES = ['seconds', 'date', 'none'] as const;
export const INFO_STYLES = ['none', 'x-ratelimit', 'x-ratelimit-delta', 'ratelimit'] as const;

export interface RateLimitConfig {
	/** Tokens added per second. */
	rate: number;
	/** Most tokens the bucket holds (and holds at first). */
	burst: number;
	/** Default `seconds`. */
	retryAfter?: (typeof RETRY_AFTER_STYLES)[number];
	/** Default `none`. */
	info?: (typeof INFO_STYLES)[number];
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
	/** For a refusal: seconds until a token is there. */
	waitSeconds?: number;
}

const configSchema = obj(
	{
		rate: num({ min: 0.001 }),
		burst: num({ min: 1 }),
		retryAfter: oneOf([...RETRY_AFTER_STYLES]),
		info: oneOf([...INFO_STYLES]),
	},
	{ strict: true, required: ['rate', 'burst'] },
);

/** Validates a limiter's settings (errors under `rateLimit.field`). */
export function parseRateLimit(input: unknown): RateLimitConfig {
	const errors: FieldErrors = {};
	const parsed = configSchema.parse(input, 'rateLimit', errors) as unknown as RateLimitConfig;
	throwIfErrors(errors);
	return parsed;
}

/**
 * `10/s,burst=10[,retry-after=date][,info=ratelimit]` (the CLI's form) → settings. `N/m` is per
 * minute. Throws a plain Error naming what is wrong.
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
		else throw new Error(`--rate-limit: unknown setting '${key}' (burst, retry-after, info)`);
	}
	input.burst ??= Math.max(1, Math.ceil(input.rate as number));
	try {
		return parseRateLimit(input);
	} catch (error) {
		throw new Error(`--rate-limit: ${JSON.stringify((error as { errors?: unknown }).errors ?? String(error))}`);
	}
}

interface Bucket {
	tokens: number;
	at: number;
}

export class RateLimiter {
	private config: RateLimitConfig | undefined;
	private buckets = new Map<string, Bucket>();
	private counts: RateLimitCounts = { allowed: 0, refused: 0 };

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
	}

	stats(): RateLimitCounts {
		return { ...this.counts };
	}

	/** Takes a token for a request made with `token` (the Authorization header as sent). */
	admit(token: string): Admission {
		const config = this.config;
		if (!config) return { allowed: true, headers: {} };
		const now = this.now();
		let bucket = this.buckets.get(token);
		if (!bucket) {
			bucket = { tokens: config.burst, at: now };
			this.buckets.set(token, bucket);
		}
		bucket.tokens = Math.min(config.burst, bucket.tokens + ((now - bucket.at) / 1000) * config.rate);
		bucket.at = now;
		const allowed = bucket.tokens >= 1;
		if (allowed) {
			bucket.tokens -= 1;
			this.counts.allowed++;
		} else {
			this.counts.refused++;
		}
		const headers = this.infoHeaders(config, bucket.tokens, now);
		if (allowed) return { allowed, headers };
		const waitSeconds = (1 - bucket.tokens) / config.rate;
		const whole = Math.max(1, Math.ceil(waitSeconds));
		if (config.retryAfter === 'date') headers['retry-after'] = new Date(Math.ceil((now + waitSeconds * 1000) / 1000) * 1000).toUTCString();
		else if (config.retryAfter !== 'none') headers['retry-after'] = String(whole);
		return { allowed, headers, waitSeconds };
	}

	private infoHeaders(config: RateLimitConfig, tokens: number, now: number): Record<string, string> {
		const remaining = Math.max(0, Math.floor(tokens));
		const untilFull = Math.max(0, Math.ceil((config.burst - tokens) / config.rate));
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
