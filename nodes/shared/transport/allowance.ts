import { headerOf, type Headers } from './types';

/** Retry-After as seconds from `now` (the wall clock): seconds or an HTTP date; undefined if absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const seconds = Number(value);
	// A number beyond a billion is an epoch time a proxy sent where seconds belong.
	if (Number.isFinite(seconds)) return Math.max(0, seconds > 1e9 ? seconds - now / 1000 : seconds);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

export interface StatedAllowance {
	remaining: number;
	resetSeconds?: number;
	limit?: number;
	rate?: number;
}

const parameter = (field: string, name: string) => {
	const match = new RegExp(`(?:^|;)\\s*${name}=(\\d+(?:\\.\\d+)?)`).exec(field);
	return match ? Number(match[1]) : undefined;
};

/**
 * The allowance an answer states: the IETF fields (`RateLimit: "p";r=…;t=…` with `RateLimit-Policy:
 * "p";q=…;w=…`), their earlier draft (`RateLimit-Remaining`, `-Reset`, `-Limit`) or `X-RateLimit-*`
 * (a reset in seconds, or an epoch time in seconds or milliseconds, read on the wall clock).
 */
export function readAllowance(headers: Headers | undefined, now = Date.now()): StatedAllowance | undefined {
	const structured = headerOf(headers, 'ratelimit') ?? '';
	const remaining = parameter(structured, 'r');
	if (remaining !== undefined) {
		const policy = headerOf(headers, 'ratelimit-policy') ?? '';
		const [quota, window] = [parameter(policy, 'q'), parameter(policy, 'w')];
		// A quota below one request says nothing usable (and would stop every send).
		const usable = quota !== undefined && quota >= 1 ? quota : undefined;
		return { remaining, resetSeconds: parameter(structured, 't'), limit: usable, rate: usable && window ? usable / window : undefined };
	}
	for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
		const [left, reset, limit] = ['remaining', 'reset', 'limit'].map((name) => Number(headerOf(headers, prefix + name) ?? NaN));
		if (!Number.isFinite(left)) continue;
		const resetSeconds = reset > 1e12 ? (reset - now) / 1000 : reset > 1e9 ? reset - now / 1000 : reset;
		return { remaining: Math.max(0, left), resetSeconds: Number.isFinite(reset) ? Math.max(0, resetSeconds) : undefined, limit: limit >= 1 ? limit : undefined };
	}
	return undefined;
}
