import { headerOf, type Headers } from './types';

/**
 * What the service's answers say about its limit: `Retry-After`, and the allowance left in any of
 * the common header forms. The only place the wall clock is read: an HTTP date or an epoch time is
 * turned into seconds from now here, and everything after works in those seconds.
 */

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
