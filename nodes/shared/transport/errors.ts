import type { IHttpRequestMethods, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { notTheService } from '../baseUrl';
import { redactDocument, redactSecrets } from './redact';
import type { RateLimitWaitExceeded } from './waitBudget';
import type { FullResponse, RecruitingRequest } from './types';

/**
 * What the user reads when a request fails: problem documents, network failures, redirects and
 * malformed answers, each turned into an n8n error naming the request.
 */

interface ProblemDocument {
	type?: string;
	title?: string;
	status?: number;
	detail?: string;
	instance?: string;
	errors?: Record<string, string[] | string>;
}

/** Methods that may be sent again without doing the work twice. */
export function isIdempotent(method: IHttpRequestMethods): boolean {
	return method === 'GET' || method === 'PUT' || method === 'DELETE' || method === 'HEAD';
}

/** A response header by name, whatever its case; the first of a repeated one. */
export function header(response: FullResponse, name: string): string | undefined {
	const value = response.headers?.[name] ?? response.headers?.[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

function isProblem(body: unknown): body is ProblemDocument {
	return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** Every field error of a problem document, one line each: `title: must be 1 to 100 characters`. */
export function describeFieldErrors(errors: ProblemDocument['errors']): string[] {
	if (!errors || typeof errors !== 'object') return [];
	return Object.entries(errors).map(([field, messages]) => {
		const text = Array.isArray(messages) ? messages.join('; ') : String(messages);
		return `${field}: ${text}`;
	});
}

/** How many characters of an answer that is no problem document an error quotes. */
export const BODY_EXCERPT_LENGTH = 200;

/** How much of an HTML page is read for its text: a proxy's error page says what it is near the top. */
const HTML_READ_LENGTH = 64 * 1024;

/** Elements whose content is not text a reader sees. */
const HIDDEN_ELEMENTS = new Set(['script', 'style', 'head', 'title', 'template', 'noscript', 'svg']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (entity, name: string) => {
		if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
		const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
		return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : entity;
	});
}

/**
 * The text a reader sees on an HTML page (a WAF's or proxy's error page): tags, comments, scripts
 * and styles dropped, entities decoded; the page's title where its body has no text. One pass
 * with indexOf, linear in the page read.
 */
export function htmlToText(html: string): string {
	const page = html.slice(0, HTML_READ_LENGTH);
	const lower = page.toLowerCase();
	let text = '';
	let at = 0;
	while (at < page.length) {
		const open = page.indexOf('<', at);
		if (open === -1) {
			text += page.slice(at);
			break;
		}
		text += page.slice(at, open);
		if (page.startsWith('<!--', open)) {
			const end = page.indexOf('-->', open + 4);
			at = end === -1 ? page.length : end + 3;
			continue;
		}
		const close = page.indexOf('>', open);
		if (close === -1) break;
		at = close + 1;
		text += ' ';
		const name = /^<([a-z][a-z0-9-]*)/.exec(lower.slice(open, open + 20))?.[1];
		if (name !== undefined && HIDDEN_ELEMENTS.has(name)) {
			const end = lower.indexOf(`</${name}`, at);
			const after = end === -1 ? -1 : page.indexOf('>', end);
			at = after === -1 ? page.length : after + 1;
		}
	}
	const squeeze = (value: string) => decodeEntities(value).replace(/\s+/g, ' ').trim();
	const titleStart = lower.indexOf('<title');
	const titleOpen = titleStart === -1 ? -1 : page.indexOf('>', titleStart);
	const titleEnd = titleOpen === -1 ? -1 : lower.indexOf('</title', titleOpen);
	const title = titleEnd === -1 ? '' : page.slice(titleOpen + 1, titleEnd);
	return squeeze(text) || squeeze(title);
}

/** An answer that is an HTML page. */
function isHtmlAnswer(response: FullResponse): boolean {
	return typeof response.body === 'string' && isHtml(response.body, header(response, 'content-type'));
}

function isHtml(body: string, contentType: string | undefined): boolean {
	if (contentType !== undefined && /html/i.test(contentType)) return true;
	return /^\s*<(?:!doctype\s+html|html|head|body)[\s>]/i.test(body.slice(0, 200));
}

/**
 * What an error quotes of an answer that is no problem document (a WAF's or proxy's page in text
 * or HTML, a JSON array, an object of some other gateway): its first BODY_EXCERPT_LENGTH
 * characters as text, secrets hidden first (redactSecrets), so a cut never shows part of one.
 */
export function bodyExcerpt(response: FullResponse): string | undefined {
	const { body } = response;
	if (body === undefined || body === null || body === '') return undefined;
	let text: string;
	if (typeof body === 'string') {
		text = isHtml(body, header(response, 'content-type')) ? htmlToText(body) : body.slice(0, HTML_READ_LENGTH).replace(/\s+/g, ' ').trim();
	} else if (typeof body === 'object' && Object.keys(body).length === 0) {
		return undefined;
	} else {
		text = JSON.stringify(redactDocument(body)) ?? '';
	}
	// Redacted on ten times what is shown: a secret that begins within the excerpt is whole in it
	// (keys and tokens are far shorter), and the expressions never run over megabytes.
	text = redactSecrets(text.slice(0, 10 * BODY_EXCERPT_LENGTH));
	if (text === '') return undefined;
	return text.length > BODY_EXCERPT_LENGTH ? `${text.slice(0, BODY_EXCERPT_LENGTH)}…` : text;
}

export function problemError(
	node: INode,
	request: RecruitingRequest,
	response: FullResponse,
	attempts = 1,
): NodeApiError {
	const status = response.statusCode;
	// What the service says is shown to the user: never a signing key it may have echoed.
	const problem = (isProblem(response.body) ? redactDocument(response.body) : {}) as ProblemDocument;
	const detailLines = [problem.detail, ...describeFieldErrors(problem.errors)].filter(
		(line): line is string => typeof line === 'string' && line !== '',
	);
	// Not a problem document (none of its fields): what came back is quoted, or only "HTTP 403" is left.
	const excerpt = problem.title || problem.detail || problem.errors ? undefined : bodyExcerpt(response);
	let message = problem.title ? `${problem.title} (HTTP ${status})` : `HTTP ${status}`;
	if (status >= 500 && attempts > 1) message += `, after ${attempts} attempts`;
	if (status >= 500 && !isIdempotent(request.method)) {
		detailLines.push(
			`A ${request.method} is not retried automatically: it may have taken effect, so check before running it again.`,
		);
	}
	if (status === 401) {
		message = 'Authorization failed: check the access token and the company ID of the credential';
		if (problem.title) detailLines.unshift(problem.title);
	} else if (status === 404 && request.notFound) {
		message = `The ${request.notFound} was not found`;
		// n8n shows the message as the title and the description below it: not the same thing twice.
		const restated = (line: string) => /not found/i.test(line) && quotedIn(message).some((id) => line.includes(id));
		const rest = detailLines.filter((line) => !restated(line));
		detailLines.splice(0, detailLines.length, ...rest);
		if (detailLines.length === 0) {
			detailLines.push(`${request.method} ${request.path} answered 404: check the ID, and that it belongs to the credential's company`);
		}
	}
	if (excerpt !== undefined) detailLines.push(`The answer is not a problem document; it begins: ${excerpt}`);
	const elsewhere = notTheService(status, isHtmlAnswer(response), isProblem(response.body) && !excerpt);
	if (elsewhere !== undefined) {
		// n8n shows only the message where publishing fails: it must say the cause.
		if (!request.notFound) message = `HTTP ${status} from something that is not the recruiting service: check the credential's Base URL`;
		detailLines.unshift(elsewhere);
	}
	return new NodeApiError(node, { ...problem, ...(excerpt !== undefined && { body: excerpt }), httpCode: String(status) } as JsonObject, {
		message,
		description: detailLines.join('\n') || undefined,
		httpCode: String(status),
		itemIndex: request.itemIndex,
	});
}

/** Seconds as people read them: 45 s, 5 min, 1 min 30 s, 3 h, 2 h 5 min. */
export function describeSeconds(seconds: number): string {
	const whole = Math.max(0, Math.ceil(seconds));
	if (whole < 60) return `${whole} s`;
	if (whole < 3600) {
		const rest = whole % 60;
		return rest === 0 ? `${Math.floor(whole / 60)} min` : `${Math.floor(whole / 60)} min ${rest} s`;
	}
	const minutes = Math.round((whole % 3600) / 60);
	return minutes === 0 ? `${Math.floor(whole / 3600)} h` : `${Math.floor(whole / 3600)} h ${minutes} min`;
}

/**
 * The service asked to wait longer than the run may (Request Options → Max Wait for Rate Limits):
 * rate limiting (429) or unavailable (503), the wait as it asked it (or as waited), and what the
 * node does. `context.rateLimitWaitSeconds` says how long it asked: the router adds how many items
 * were done, and an AI agent's tool hands the model that wait as text.
 */
export function rateLimitWaitError(
	node: INode,
	request: RecruitingRequest,
	exceeded: RateLimitWaitExceeded,
	refused: FullResponse | undefined,
): NodeApiError {
	const problem = (refused && isProblem(refused.body) ? redactDocument(refused.body) : {}) as ProblemDocument;
	const unavailable = exceeded.status === 503;
	const asked = describeSeconds(exceeded.askedSeconds);
	const budget =
		exceeded.budgetMs === 0
			? `Max Wait for Rate Limits is 0 (fail at the first ${unavailable ? 'such answer' : '429'})`
			: `this run may wait ${describeSeconds(exceeded.budgetMs / 1000)} while no request gets through (Max Wait for Rate Limits) and has waited ${describeSeconds(exceeded.waitedMs / 1000)}`;
	// A pause is capped at an hour: past it this process tries one request again, whatever was asked.
	const then =
		exceeded.retrySeconds + 1 < exceeded.askedSeconds
			? `The node stops this run; requests with this credential try again in ${describeSeconds(exceeded.retrySeconds)}.`
			: 'The node stops this run here; later runs with this credential wait until then, within their own Max Wait.';
	const httpCode = unavailable ? '503' : '429';
	const error = new NodeApiError(node, { ...problem, httpCode } as JsonObject, {
		message: !unavailable
			? `The service is rate limiting requests and asked to wait ${asked} more`
			: exceeded.stated
				? `The service is unavailable and asked to wait ${asked} before the next request`
				: `The service is unavailable (overloaded: HTTP 503) and still was after the node waited ${describeSeconds(exceeded.waitedMs / 1000)}`,
		description: [
			`${request.method} ${request.path}: ${budget}.`,
			then,
			problem.detail,
			unavailable
				? 'Run the workflow again once the service is back, or raise Request Options → Max Wait for Rate Limits to wait it out.'
				: 'Raise Request Options → Max Wait for Rate Limits, run fewer items at a time, or run the workflow when the service is less busy.',
		]
			.filter((line) => typeof line === 'string' && line !== '')
			.join('\n'),
		httpCode,
		itemIndex: request.itemIndex,
	});
	error.context.rateLimitWaitSeconds = Math.ceil(exceeded.askedSeconds);
	return error;
}

/** Seconds the service asked to wait, for an error of rateLimitWaitError; undefined for any other error. */
export function rateLimitWaitOf(error: unknown): number | undefined {
	const seconds = (error as { context?: { rateLimitWaitSeconds?: unknown } } | undefined)?.context?.rateLimitWaitSeconds;
	return typeof seconds === 'number' ? seconds : undefined;
}

/**
 * A request not sent because its run had already failed (sendRate.ts's RunCancelled):
 * `context.runCancelled`, so the router reports the failure that ended the run instead.
 */
export function runCancelledError(node: INode, request: RecruitingRequest, cause: Error): NodeOperationError {
	const error = new NodeOperationError(node, cause.message, {
		description: `${request.method} ${request.path} was not sent.`,
		itemIndex: request.itemIndex,
	});
	error.context.runCancelled = true;
	return error;
}

/** The values a message quotes: `The note "n_1" of candidate "c_1"` → n_1, c_1. */
function quotedIn(message: string): string[] {
	return message.split('"').filter((_, i) => i % 2 === 1 && _ !== '');
}

export function networkError(node: INode, request: RecruitingRequest, error: Error, attempts = 1): NodeApiError {
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
	const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
	const detail = [error.message, causeMessage && causeMessage !== error.message ? `(${causeMessage})` : '', code ? `[${code}]` : '']
		.filter((part) => part !== '')
		.join(' ');
	// `networkCode`, not `code`: NodeApiError would replace the message below with its own for a known code.
	return new NodeApiError(node, { message: error.message, networkCode: code ?? null } as JsonObject, {
		message: timedOut
			? 'The Recruiting service did not answer in time'
			: 'The Recruiting service could not be reached',
		description: `${request.method} ${request.path}${tries}: ${detail}`,
		itemIndex: request.itemIndex,
	});
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

export function notSentError(node: INode, request: RecruitingRequest, refused: Error): NodeOperationError {
	const why = (refused as { description?: unknown }).description;
	return new NodeOperationError(node, `n8n did not send the request: ${refused.message}`, {
		description: [`${request.method} ${request.path}`, typeof why === 'string' ? why : undefined].filter(Boolean).join(': '),
		itemIndex: request.itemIndex,
	});
}

/** The error thrown by n8n's helper when no HTTP answer came back at all (reset, refused, timeout). */
export function isTransportFailure(error: unknown): error is Error {
	if (!(error instanceof Error)) return false;
	const response = (error as { response?: unknown }).response;
	return response === undefined || response === null;
}

/**
 * Anything n8n's helper threw that is not a missing answer (a credential that cannot be read, a
 * request it refused to send): n8n's own errors pass as they are, anything else is wrapped so
 * the user sees it on the node.
 */
export function asNodeError(node: INode, request: RecruitingRequest, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, `The request to the Recruiting service failed: ${message}`, {
		description: `${request.method} ${request.path}`,
		itemIndex: request.itemIndex,
	});
}
/**
 * A 3xx is never followed (see `disableFollowRedirect`): the API does not redirect, and a
 * redirect to another host would take the token with it. The error names where it pointed.
 */
export function redirectError(node: INode, request: RecruitingRequest, response: FullResponse): NodeApiError {
	const location = header(response, 'location') ?? '(no Location header)';
	return new NodeApiError(node, { httpCode: String(response.statusCode), location } as JsonObject, {
		message: `The Recruiting service answered with a redirect (HTTP ${response.statusCode}), which is not followed`,
		description: `${request.method} ${request.path} was redirected to ${location}. Requests carry your access token, so they are never sent on to another address: check the credential's Base URL.`,
		httpCode: String(response.statusCode),
		itemIndex: request.itemIndex,
	});
}

/** The parsed body of an answer below 300 (undefined for an empty one). */
export function parseBody<T>(node: INode, request: RecruitingRequest, response: FullResponse): T | undefined {
	const { body } = response;
	if (body === undefined || body === null || body === '') return undefined;
	if (typeof body === 'string') {
		// n8n's HTTP helper hands back the raw text when JSON parsing fails.
		try {
			return JSON.parse(body) as T;
		} catch {
			const elsewhere = notTheService(response.statusCode, isHtmlAnswer(response), false);
			throw new NodeApiError(node, { body: redactSecrets(body.slice(0, 200)) } as JsonObject, {
				message: elsewhere ? "An HTML page, not the recruiting service's JSON: check the credential's Base URL" : 'The Recruiting service answered with malformed JSON',
				description: [elsewhere, `${request.method} ${request.path} returned HTTP ${response.statusCode} with a body that is not valid JSON`].filter(Boolean).join('\n'),
				httpCode: String(response.statusCode),
				itemIndex: request.itemIndex,
			});
		}
	}
	return body as T;
}
