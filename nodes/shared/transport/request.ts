import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { isExpression, NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { BASE_URL_REFUSALS, checkBaseUrl } from '../baseUrl';
import { noteRateLimited } from './walker';
import { passGate } from './rateLimitGate';

/** Part of the transport's surface since the Base URL rule moved out of it. */
export { isLoopbackHost } from '../baseUrl';

/**
 * One request to the service, shared by both nodes: the credential (read once per execution
 * context), URL building, the action node's Request Options, retries, rate limits, redirects
 * and problem documents. Walking a list page by page is in paging.ts.
 */

export const CREDENTIAL_TYPE = 'recruitingApi';

export const API_VERSION_PATH = '/v1.0';

export type RecruitingContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

export interface RequestPolicy {
	/** Per attempt, in milliseconds. */
	timeoutMs: number;
	/** Further attempts after a 5xx or a network error, for GET, PUT and DELETE only. */
	maxRetries: number;
	/** First back-off in milliseconds; doubled on each retry. */
	retryDelayMs: number;
	/** How many 429 answers one call waits out before giving up. */
	maxRateLimitWaits: number;
	/** Upper bound on a single Retry-After wait, in seconds. */
	maxRetryAfterSeconds: number;
}

export const DEFAULT_POLICY: RequestPolicy = {
	timeoutMs: 30_000,
	maxRetries: 2,
	retryDelayMs: 250,
	maxRateLimitWaits: 5,
	maxRetryAfterSeconds: 60,
};

export interface RecruitingRequest {
	method: IHttpRequestMethods;
	/** Relative to `/v1.0/{company_id}`; build it with `resourcePath`. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	itemIndex?: number;
	/** What a 404 means, e.g. `job "job_1"`; named in the error. */
	notFound?: string;
	/** A 404 answers `undefined` instead of throwing (the caller treats "gone" as a result). */
	allowNotFound?: boolean;
	policy?: Partial<RequestPolicy>;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

interface ProblemDocument {
	type?: string;
	title?: string;
	status?: number;
	detail?: string;
	instance?: string;
	errors?: Record<string, string[] | string>;
}

/** A path segment an HTTP client would resolve instead of sending (`.` and `..`, even percent-encoded). */
export function isDotSegment(value: string): boolean {
	return value === '.' || value === '..';
}

/**
 * Joins raw path segments, each percent-encoded into its own segment, so an id such as
 * `a/../b?x#y` can never reach another path. Ids are validated before this (see validation.ts);
 * a dot segment here is a programming error.
 */
export function resourcePath(...segments: string[]): string {
	return segments
		.map((segment) => {
			if (segment === '' || isDotSegment(segment)) {
				throw new Error(`Invalid path segment "${segment}"`);
			}
			return '/' + encodeURIComponent(segment);
		})
		.join('');
}

function isIdempotent(method: IHttpRequestMethods): boolean {
	return method === 'GET' || method === 'PUT' || method === 'DELETE' || method === 'HEAD';
}

function header(response: FullResponse, name: string): string | undefined {
	const value = response.headers?.[name] ?? response.headers?.[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/** Retry-After as seconds or an HTTP date; unreadable values wait one second. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number {
	if (value === undefined || value.trim() === '') return 1;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds);
	const date = Date.parse(value);
	return Number.isNaN(date) ? 1 : Math.max(0, (date - now) / 1000);
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

function problemError(
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
	} else if (status === 429) {
		message = 'The service is rate limiting requests and kept answering 429: try again later';
	}
	return new NodeApiError(node, { ...problem, httpCode: String(status) } as JsonObject, {
		message,
		description: detailLines.join('\n') || undefined,
		httpCode: String(status),
		itemIndex: request.itemIndex,
	});
}

/** The values a message quotes: `The note "n_1" of candidate "c_1"` → n_1, c_1. */
function quotedIn(message: string): string[] {
	return message.split('"').filter((_, i) => i % 2 === 1 && _ !== '');
}

function networkError(node: INode, request: RecruitingRequest, error: Error, attempts = 1): NodeApiError {
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

/** The error thrown by n8n's helper when no HTTP answer came back at all (reset, refused, timeout). */
function isTransportFailure(error: unknown): error is Error {
	if (!(error instanceof Error)) return false;
	const response = (error as { response?: unknown }).response;
	return response === undefined || response === null;
}

/**
 * Anything n8n's helper threw that is not a missing answer (a credential that cannot be read, a
 * request it refused to send): n8n's own errors pass as they are, anything else is wrapped so
 * the user sees it on the node.
 */
function asNodeError(node: INode, request: RecruitingRequest, error: unknown): NodeApiError | NodeOperationError {
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
function redirectError(node: INode, request: RecruitingRequest, response: FullResponse): NodeApiError {
	const location = header(response, 'location') ?? '(no Location header)';
	return new NodeApiError(node, { httpCode: String(response.statusCode), location } as JsonObject, {
		message: `The Recruiting service answered with a redirect (HTTP ${response.statusCode}), which is not followed`,
		description: `${request.method} ${request.path} was redirected to ${location}. Requests carry your access token, so they are never sent on to another address: check the credential's Base URL.`,
		httpCode: String(response.statusCode),
		itemIndex: request.itemIndex,
	});
}

/** The action node's "Request Options" collection; its Timeout is in milliseconds. Triggers and pickers have none. */
export const REQUEST_OPTIONS = 'requestOptions';

/** Request Options of a node run whose values hold no expression: the same for every item. */
const constantRequestOptions = new WeakMap<object, IDataObject>();

/**
 * The action node's Request Options for one item. Reading a parameter builds an expression
 * context, and this runs for every page and item, so options without an expression are read
 * once per node run.
 */
function requestOptionsOf(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const cached = constantRequestOptions.get(this);
	if (cached) return cached;
	const read = this.getNodeParameter(REQUEST_OPTIONS, itemIndex, {}) as unknown;
	const options = typeof read === 'object' && read !== null ? (read as IDataObject) : {};
	const raw = this.getNode().parameters?.[REQUEST_OPTIONS];
	const perItem =
		isExpression(raw) ||
		(typeof raw === 'object' && raw !== null && Object.values(raw).some((value) => isExpression(value)));
	if (!perItem) constantRequestOptions.set(this, options);
	return options;
}

function timeoutOption(this: RecruitingContext, itemIndex: number | undefined): number | undefined {
	if (itemIndex === undefined || !('getInputData' in this)) return undefined;
	const value = requestOptionsOf.call(this as IExecuteFunctions, itemIndex).timeout;
	if (value === undefined || value === null || value === '') return undefined;
	const ms = typeof value === 'string' ? Number(value) : value;
	if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 1) {
		throw new NodeOperationError(this.getNode(), 'Invalid "Timeout": must be a number of milliseconds of at least 1', {
			itemIndex,
		});
	}
	return ms;
}

/** Upper bound of Request Options → Concurrency and → Pages in Flight. */
export const MAX_CONCURRENCY = 10;

/** A whole-number Request Option of the action node; `fallback` where it is unset or the context has none. */
export function boundedOption(
	this: RecruitingContext,
	itemIndex: number | undefined,
	name: string,
	label: string,
	fallback: number,
): number {
	if (itemIndex === undefined || !('getInputData' in this)) return fallback;
	const value = requestOptionsOf.call(this as IExecuteFunctions, itemIndex)[name];
	if (value === undefined || value === null || value === '') return fallback;
	const n = typeof value === 'string' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
		throw new NodeOperationError(
			this.getNode(),
			`Invalid "${label}": must be a whole number from 1 to ${MAX_CONCURRENCY}`,
			{ itemIndex },
		);
	}
	return n;
}

/**
 * Request Options → Concurrency: how many input items run at once. Unset: `unset` (the router
 * gives reads the read window and writes 1, so writes go strictly one after another).
 */
export function concurrencyOption(this: RecruitingContext, itemIndex: number | undefined, unset = 1): number {
	return boundedOption.call(this, itemIndex, 'concurrency', 'Concurrency', unset);
}

/** What every request of one node run needs from the credential, read and checked once. */
interface Connection {
	/** `{baseUrl}/v1.0/{company}` */
	base: string;
	/** Handed to n8n's helper, so it does not decrypt the credential again for every request. */
	credentials: ICredentialsDecrypted;
}

/**
 * One per execution context (a node run, a webhook call, a hook): the credential cannot change
 * within one, and decrypting it for every page or item was a measurable part of each request.
 * A WeakMap, so nothing outlives its context; a failed read is not kept.
 */
const connections = new WeakMap<object, Promise<Connection>>();

function connectionOf(this: RecruitingContext): Promise<Connection> {
	let connection = connections.get(this);
	if (!connection) {
		connection = readConnection.call(this);
		connections.set(this, connection);
		connection.catch(() => connections.delete(this));
	}
	return connection;
}

async function readConnection(this: RecruitingContext): Promise<Connection> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const companyId = String(credentials.companyId ?? '');
	const checked = checkBaseUrl(credentials.baseUrl, credentials.allowInsecureHttp);
	if ('refused' in checked && checked.refused === 'notWebUrl') {
		throw new NodeOperationError(this.getNode(), BASE_URL_REFUSALS.notWebUrl());
	}
	// The token travels in every request: in clear text only to this machine, or when asked for.
	if ('refused' in checked) {
		throw new NodeOperationError(this.getNode(), BASE_URL_REFUSALS.plainHttp(checked.host), {
			description:
				'Use https://, or switch on "Allow Unencrypted HTTP" in the credential if the service really is only reachable over plain HTTP on a network you trust.',
		});
	}
	if (companyId === '' || isDotSegment(companyId)) {
		throw new NodeOperationError(this.getNode(), "The credential's Company ID is empty or invalid");
	}
	return {
		base: `${checked.baseUrl}${API_VERSION_PATH}${resourcePath(companyId)}`,
		credentials: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data: credentials },
	};
}

/**
 * One call to the service. Returns the parsed body (undefined for an empty answer).
 * 429 is waited out for every method (the service did not act on it); 5xx and network
 * failures are retried only for idempotent methods, so a POST is never sent twice blindly.
 */
export async function recruitingRequest<T = IDataObject>(
	this: RecruitingContext,
	request: RecruitingRequest,
): Promise<T | undefined> {
	const node = this.getNode();
	const timeoutMs = timeoutOption.call(this, request.itemIndex);
	const policy = { ...DEFAULT_POLICY, ...(timeoutMs !== undefined && { timeoutMs }), ...request.policy };
	const connection = await connectionOf.call(this);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: connection.base + request.path,
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: policy.timeoutMs,
		// n8n's helper would follow a redirect and, by default, send the Authorization header to
		// any host it points at. The API never redirects, so a 3xx is refused below instead.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	const retryable = isIdempotent(request.method);
	let retries = 0;
	const gate = passGate(this, policy.maxRateLimitWaits);
	let refused: FullResponse | undefined;

	for (;;) {
		let response: FullResponse;
		// Other requests of this context used up this one's waits while it queued: its last 429 stands.
		if (!(await gate.beforeAttempt()) && refused) throw problemError(node, request, refused, retries + 1);
		try {
			// `timeout` only bounds a silent socket: an answer trickling in could hold a call for
			// much longer. The signal bounds the whole attempt (in a workflow execution n8n puts its
			// own cancel signal in its place; hooks, deliveries and pickers keep this one).
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...options, abortSignal: AbortSignal.timeout(policy.timeoutMs) },
				{ credentialsDecrypted: connection.credentials },
			)) as FullResponse;
		} catch (error) {
			gate.answered();
			if (!isTransportFailure(error)) throw asNodeError(node, request, error);
			if (retryable && retries < policy.maxRetries) {
				await sleep(policy.retryDelayMs * 2 ** retries++);
				continue;
			}
			throw networkError(node, request, error, retries + 1);
		}

		const status = response.statusCode;
		if (status === 429) {
			noteRateLimited(this);
			const wait = Math.min(retryAfterSeconds(header(response, 'retry-after')), policy.maxRetryAfterSeconds);
			// The wait itself happens in the gate, before the next attempt of any request of this context.
			refused = response;
			if (gate.rateLimited(wait)) continue;
		} else {
			gate.answered();
		}
		if (status >= 500 && retryable && retries < policy.maxRetries) {
			await sleep(policy.retryDelayMs * 2 ** retries++);
			continue;
		}
		// A DELETE whose first answer was lost may find the resource already gone: that is success.
		if (status === 404 && request.method === 'DELETE' && retries > 0) return undefined;
		if (status === 404 && request.allowNotFound) return undefined;
		if (status >= 300 && status < 400) throw redirectError(node, request, response);
		if (status >= 400) throw problemError(node, request, response, retries + 1);
		return parseBody<T>(node, request, response);
	}
}

/**
 * Names under which a secret travels: a webhook's `signing_key`, and the usual names of tokens,
 * passwords and keys (`access_token`, `client_secret`, `api_key`, `apiKey`…).
 */
const SECRET_NAME = String.raw`(?:signing[_ -]?key|[a-z_]*secret|[a-z_]*token|passw(?:or)?d|api[_-]?key)`;

/** `"name": "value` in JSON, the value possibly cut off: the quote is put back after the mark. */
const JSON_SECRET = new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*")[^"]*"?`, 'gi');
/** The same inside an escaped JSON string: `\\"name\\":\\"value\\"`. */
const ESCAPED_JSON_SECRET = new RegExp(String.raw`(\\"${SECRET_NAME}\\"\s*:\s*\\")[^"\\]*`, 'gi');
/** In prose or a query: `signing_key=…`, `signing key: …`, a long value right after the name. */
const TEXT_SECRET = new RegExp(String.raw`\b(${SECRET_NAME})(\s*[:=]\s*|\s+)([A-Za-z0-9+/=_.~-]{16,})`, 'gi');
/** The value of an Authorization header quoted back. */
const AUTHORIZATION_VALUE = /\b(Bearer|Basic)(\s+)[A-Za-z0-9+/=_.~-]+/gi;

/**
 * Text from the service shown in an error (a body excerpt, a problem document's title, detail or
 * field errors): a webhook's `signing_key` could be in it, and error texts end up in execution
 * data and logs. Hides secrets by their form or their name: `whsec_…` values, bearer and basic
 * credentials, and the value given under a secret's name (JSON, escaped JSON, `name=value`,
 * `name: value`). Paths, IDs and other long words stay as they are: an error must still say which
 * record or path it is about.
 */
export function redactSecrets(text: string): string {
	return text
		.replace(JSON_SECRET, '$1[redacted]"')
		.replace(ESCAPED_JSON_SECRET, '$1[redacted]')
		.replace(/whsec_[A-Za-z0-9+/=_-]*/g, 'whsec_[redacted]')
		.replace(TEXT_SECRET, '$1$2[redacted]')
		.replace(AUTHORIZATION_VALUE, '$1$2[redacted]');
}

/** A problem document with every string passed through redactSecrets and `signing_key` values hidden. */
export function redactDocument(value: unknown, depth = 0): unknown {
	if (typeof value === 'string') return redactSecrets(value);
	if (depth > 20 || typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) return value.map((entry) => redactDocument(entry, depth + 1));
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [
			key,
			key === 'signing_key' ? '[redacted]' : redactDocument(entry, depth + 1),
		]),
	);
}

function parseBody<T>(node: INode, request: RecruitingRequest, response: FullResponse): T | undefined {
	const { body } = response;
	if (body === undefined || body === null || body === '') return undefined;
	if (typeof body === 'string') {
		// n8n's HTTP helper hands back the raw text when JSON parsing fails.
		try {
			return JSON.parse(body) as T;
		} catch {
			throw new NodeApiError(node, { body: redactSecrets(body.slice(0, 200)) } as JsonObject, {
				message: 'The Recruiting service answered with malformed JSON',
				description: `${request.method} ${request.path} returned HTTP ${response.statusCode} with a body that is not valid JSON`,
				httpCode: String(response.statusCode),
				itemIndex: request.itemIndex,
			});
		}
	}
	return body as T;
}

/** `{ data: resource }` → resource. */
export async function recruitingRequestData(
	this: RecruitingContext,
	request: RecruitingRequest,
): Promise<IDataObject> {
	return dataOf((await recruitingRequest.call(this, request)) as IDataObject | undefined) ?? {};
}

/** The resource of a `{ data: resource }` answer (an answer without the wrapper as it is). */
export function dataOf(body: IDataObject | undefined): IDataObject | undefined {
	if (body && typeof body.data === 'object' && body.data !== null) return body.data as IDataObject;
	return body;
}
