import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { notTheService } from '../baseUrl';
import { bodyExcerpt, isHtmlAnswer } from './bodyText';
import { isObject, networkFailureOf, type ProblemDocument, type RateLimitWaitExceeded } from './classify';
import { isIdempotent } from './policy';
import { redactDocument, redactSecrets } from './redact';
import { headerOf, type FullResponse, type RecruitingRequest } from './types';

/** What the user reads when a request fails, as an n8n error naming the request (what kind of failure: classify.ts). */

/** The problem document of an answer, never with a signing key it may have echoed; empty for none. */
function problemOf(response: FullResponse | undefined): ProblemDocument {
	return (response && isObject(response.body) ? redactDocument(response.body) : {}) as ProblemDocument;
}

/** Every field error of a problem document, one line each: `title: must be 1 to 100 characters`. */
function describeFieldErrors(errors: ProblemDocument['errors']): string[] {
	if (!errors || typeof errors !== 'object') return [];
	return Object.entries(errors).map(([field, messages]) => {
		const text = Array.isArray(messages) ? messages.join('; ') : String(messages);
		return `${field}: ${text}`;
	});
}

export function problemError(
	node: INode,
	request: RecruitingRequest,
	response: FullResponse,
	attempts = 1,
): NodeApiError {
	const status = response.statusCode;
	const problem = problemOf(response);
	let detailLines = [problem.detail, ...describeFieldErrors(problem.errors)].filter(
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
		const quoted = message.split('"').filter((id, i) => i % 2 === 1 && id !== '');
		detailLines = detailLines.filter((line) => !/not found/i.test(line) || !quoted.some((id) => line.includes(id)));
		if (detailLines.length === 0) {
			detailLines.push(`${request.method} ${request.path} answered 404: check the ID, and that it belongs to the credential's company`);
		}
	}
	if (excerpt !== undefined) detailLines.push(`The answer is not a problem document; it begins: ${excerpt}`);
	const elsewhere = notTheService(status, isHtmlAnswer(response), isObject(response.body) && !excerpt);
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
	const [unit, name, rest, restName] = whole < 3600 ? [60, 'min', whole % 60, 's'] : [3600, 'h', Math.round((whole % 3600) / 60), 'min'];
	return `${Math.floor(whole / unit)} ${name}${rest === 0 ? '' : ` ${rest} ${restName}`}`;
}

/**
 * The service asked to wait longer than the run may (Max Wait for Rate Limits). `waitSeconds`: the
 * router adds how many items were done, and an AI agent's tool hands the model that wait as text.
 */
export class RateLimitWaitError extends NodeApiError {
	private itemsDoneNoted = false;

	constructor(
		node: INode,
		response: JsonObject,
		options: ConstructorParameters<typeof NodeApiError>[2],
		/** Seconds the service asked to wait, whole. */
		readonly waitSeconds: number,
	) {
		super(node, response, options);
	}

	/** A run of several items says how far it got, once: items that waited on the same request share this error. */
	noteItemsDone(done: number, total: number): void {
		if (this.itemsDoneNoted || total < 2) return;
		this.itemsDoneNoted = true;
		this.description = `${done} of ${total} items were done before this one.\n${this.description ?? ''}`.trim();
	}
}

export function rateLimitWaitError(
	node: INode,
	request: RecruitingRequest,
	exceeded: RateLimitWaitExceeded,
	refused: FullResponse | undefined,
): RateLimitWaitError {
	const problem = problemOf(refused);
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
	const options = {
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
	};
	return new RateLimitWaitError(node, { ...problem, httpCode } as JsonObject, options, Math.ceil(exceeded.askedSeconds));
}

/** Seconds the service asked to wait, for an error of rateLimitWaitError; undefined for any other error. */
export function rateLimitWaitOf(error: unknown): number | undefined {
	return error instanceof RateLimitWaitError ? error.waitSeconds : undefined;
}

/** A RunCancelled request, as the node reports it: the router reports the failure that ended the run instead. */
export class RunCancelledError extends NodeOperationError {}

export function runCancelledError(node: INode, request: RecruitingRequest, cause: Error): RunCancelledError {
	return new RunCancelledError(node, cause.message, {
		description: `${request.method} ${request.path} was not sent.`,
		itemIndex: request.itemIndex,
	});
}

export function networkError(node: INode, request: RecruitingRequest, error: Error, attempts = 1): NodeApiError {
	const { code, causeMessage, timedOut } = networkFailureOf(error);
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

export function notSentError(node: INode, request: RecruitingRequest, refused: Error): NodeOperationError {
	const why = (refused as { description?: unknown }).description;
	return new NodeOperationError(node, `n8n did not send the request: ${refused.message}`, {
		description: [`${request.method} ${request.path}`, typeof why === 'string' ? why : undefined].filter(Boolean).join(': '),
		itemIndex: request.itemIndex,
	});
}

/** Anything else n8n's helper threw: n8n's own errors pass as they are, any other is wrapped to show on the node. */
export function asNodeError(node: INode, request: RecruitingRequest, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, `The request to the Recruiting service failed: ${message}`, {
		description: `${request.method} ${request.path}`,
		itemIndex: request.itemIndex,
	});
}

/** A 3xx is never followed: the API does not redirect, and one to another host would take the token with it. */
export function redirectError(node: INode, request: RecruitingRequest, response: FullResponse): NodeApiError {
	const location = headerOf(response.headers, 'location') ?? '(no Location header)';
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
