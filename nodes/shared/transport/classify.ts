/** What kind of failure an answer, a thrown error or a request not sent is; errors.ts words them. */

export interface ProblemDocument {
	type?: string;
	title?: string;
	status?: number;
	detail?: string;
	instance?: string;
	errors?: Record<string, string[] | string>;
}

/** An object, not null nor an array: a body read as a problem document (its fields may be missing), a list's entry. */
export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How n8n's network layer marks an error that trying again cannot cure (its SSRF guard's, among others). */
const N8N_NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');
/** Node's codes for a request that was never sent: the URL or its options were refused before any connection. */
const NOT_SENT_CODES = new Set(['ERR_INVALID_URL', 'ERR_INVALID_PROTOCOL', 'ERR_INVALID_ARG_TYPE', 'ERR_INVALID_ARG_VALUE', 'ERR_UNESCAPED_CHARACTERS']);

/** Where along its causes a failure says n8n (or Node) refused to send the request (an SSRF block, an invalid URL). */
export function refusedByN8n(error: unknown): Error | undefined {
	let level: unknown = error;
	for (let depth = 0; depth < 6 && level instanceof Error; depth++) {
		const marked = (level as unknown as Record<symbol, unknown>)[N8N_NON_RETRYABLE] === true;
		const code = (level as { code?: unknown }).code;
		if (marked || /^Ssrf/.test(level.name) || (typeof code === 'string' && NOT_SENT_CODES.has(code))) return level;
		level = (level as { cause?: unknown }).cause;
	}
	return undefined;
}

/** The error thrown by n8n's helper when no HTTP answer came back at all (reset, refused, timeout). */
export function isTransportFailure(error: unknown): error is Error {
	if (!(error instanceof Error)) return false;
	const response = (error as { response?: unknown }).response;
	return response === undefined || response === null;
}

/** A failure without an answer, as the user is told of it: its code, its cause's text, and whether it timed out. */
export function networkFailureOf(error: Error): { code: string | undefined; causeMessage: string; timedOut: boolean } {
	// n8n's HTTP helper wraps the client's error in a NodeApiError of its own ("The connection was
	// aborted, perhaps the server is offline") without a code; the original is its `cause`.
	const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
	const causeCode = typeof cause?.code === 'string' ? cause.code : undefined;
	const causeMessage = typeof cause?.message === 'string' ? cause.message : '';
	const code = (error as { code?: string }).code ?? causeCode;
	const timedOut =
		code === 'ECONNABORTED' ||
		code === 'ETIMEDOUT' ||
		// The attempt's own time bound (AbortSignal.timeout) cancels the request.
		code === 'ERR_CANCELED' ||
		/timeout/i.test(error.message) ||
		/timeout/i.test(causeMessage);
	return { code, causeMessage, timedOut };
}

/** A request that would have to wait for the service longer than its run may. */
export class RateLimitWaitExceeded extends Error {
	constructor(
		/** Seconds the service asked to wait from now, uncapped. */
		readonly askedSeconds: number,
		readonly budgetMs: number,
		readonly waitedMs: number,
		/** The answer that asked: 429 (rate limited) or 503 (unavailable). */
		readonly status: number,
		/** Seconds until this process tries again (a pause is capped). */
		readonly retrySeconds: number,
		/** Whether the service said how long, or the wait is the node's back-off. */
		readonly stated: boolean,
	) {
		super('The service asked to wait longer than this run may wait');
	}
}

/** A request whose run failed while it waited to be sent: it is not sent. */
export class RunCancelled extends Error {
	constructor() {
		super('Not sent: the run had already failed');
	}
}
