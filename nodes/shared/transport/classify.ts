/**
 * What kind of failure an answer or a thrown error is: a problem document, no answer at all, a
 * request n8n refused to send, a time-out. The transport decides what to do from these; errors.ts
 * words them.
 */

export interface ProblemDocument {
	type?: string;
	title?: string;
	status?: number;
	detail?: string;
	instance?: string;
	errors?: Record<string, string[] | string>;
}

/** A body that can be read as a problem document (an object; its fields may be missing). */
export function isProblem(body: unknown): body is ProblemDocument {
	return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** How n8n's network layer marks an error that trying again cannot cure (its SSRF guard's, among others). */
const N8N_NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');
/** Node's codes for a request that was never sent: the URL or its options were refused before any connection. */
const NOT_SENT_CODES = new Set(['ERR_INVALID_URL', 'ERR_INVALID_PROTOCOL', 'ERR_INVALID_ARG_TYPE', 'ERR_INVALID_ARG_VALUE', 'ERR_UNESCAPED_CHARACTERS']);

/**
 * The part of a failure that says n8n (or Node) refused to send the request (an SSRF block, an
 * invalid URL), looked for along the error's causes; undefined for anything else. Such a request is
 * not retried, and the user is told what was refused, not that the service "could not be reached".
 */
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
