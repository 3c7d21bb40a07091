import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { WEBHOOK_EVENTS } from '../shared/events';
import { eventKey } from '../shared/eventKey';
import type { SignatureFailure } from '../shared/signature';
import {
	checkSignatureHeaders,
	describeSignatureFailure,
	matchSignature,
	readSignatureHeaders,
} from '../shared/signature';
import { filteredOut, parseIdList } from '../shared/filters';
import { instantNow } from './instant';
import { isDuplicateDelivery } from './seenDeliveries';
import { currentSigningKey, refreshedSigningKey, SIGNING_KEY_MAX_AGE_MS, signingKeyWaitSeconds } from './signingKeys';
import { rateLimitWaitOf } from '../shared/transport';
import { signingKeySource, webhookIdParameter } from './webhookApi';

/**
 * The one item a verified delivery starts the workflow with.
 *
 * - `event`: the delivery's `type`, e.g. `candidate.updated` (passed through even if not one of the 19 known events); null if absent.
 * - `timestamp`: the delivery's `timestamp`, or else the `webhook-timestamp` header as ISO 8601.
 * - `messageId`: the `webhook-id` header. A retried delivery carries the same one: use it to drop duplicates.
 * - `eventKey`: the event's key, the same from the Recruiting Polling Trigger for the events it sees too (shared/eventKey.ts).
 * - `deliveryId`: the delivery's own `id`, or null.
 * - `object`: the resource the event is about (`data.object`, or `data` itself when it is not wrapped); null if absent.
 * - `headers`: the request headers without credential-bearing ones, only with the "Include Headers" option.
 */
export interface DeliveryItem extends IDataObject {
	event: string | null;
	timestamp: string | number;
	messageId: string;
	eventKey: string;
	deliveryId: string | null;
	object: IDataObject | null;
	headers?: IDataObject;
}

type DeliveryRequest = ReturnType<IWebhookFunctions['getRequestObject']> & {
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
};

const KNOWN_EVENTS: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

/** `application/json`, or a structured `+json` type; parameters such as charset are ignored. */
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9.!#$&^_-]+\+)?json$/;

/** Headers a proxy or client may add that carry credentials: never copied into an item. */
export const SECRET_HEADER_NAMES: readonly string[] = [
	'authorization',
	'proxy-authorization',
	'cookie',
	'set-cookie',
	'x-api-key',
	'x-n8n-api-key',
	'x-auth-token',
	'x-access-token',
	'x-amz-security-token',
	'x-csrf-token',
	'x-xsrf-token',
];
const SECRET_HEADERS: ReadonlySet<string> = new Set(SECRET_HEADER_NAMES);

/**
 * What marks a header as credential-bearing: these words anywhere in its name (`x-authtoken`,
 * `x-amzn-oidc-accesstoken`, `x-csrftoken`) or a `key` part (`x-functions-key`, `x-privatekey`).
 * The signature headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) match none.
 */
const SECRET_HEADER_WORD = /auth|token|secret|passw|apikey|jwt|session|cookie|credential|oidc|bearer/;
const KEY_PART = /(?:^|-)[a-z]*key$|(?:^|-)key(?:-|$)/;

/** The request headers without credential-bearing ones (the signature headers are no secret). */
export function redactHeaders(headers: IDataObject): IDataObject {
	const kept: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		const lower = name.toLowerCase();
		if (SECRET_HEADERS.has(lower) || SECRET_HEADER_WORD.test(lower) || KEY_PART.test(lower)) continue;
		kept[name] = value;
	}
	return kept;
}

function respond(
	this: IWebhookFunctions,
	status: number,
	body: IDataObject,
	headers: Record<string, string> = {},
): IWebhookResponseData {
	const response = this.getResponseObject();
	for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
	response.status(status).json(body).end();
	return { noWebhookResponse: true };
}

/**
 * The key could not be read: 503, so the service delivers again later. When the service refused
 * the key fetch with 429, its Retry-After goes with it (at least 1 s).
 */
function keyUnavailable(this: IWebhookFunctions, waitSeconds: number | undefined): IWebhookResponseData {
	return respond.call(
		this,
		503,
		{ message: 'The signing key to verify this delivery is not available; try again later' },
		waitSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(waitSeconds))) },
	);
}

function unauthorized(this: IWebhookFunctions, reason: SignatureFailure): IWebhookResponseData {
	// Debug, not warn: a flood of forged requests must not flood the log.
	this.logger.debug(`Recruiting Trigger refused a delivery: ${describeSignatureFailure(reason)}`, {
		node: this.getNode().name,
		reason,
	});
	return respond.call(this, 401, { message: 'Invalid webhook signature', reason });
}

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `data.object` (the documented shape) or `data` itself (the shape of the overview page). */
function deliveredObject(data: unknown): IDataObject | null {
	if (!isPlainObject(data)) return null;
	return isPlainObject(data.object) ? data.object : data;
}

function stringOrNull(value: unknown): string | null {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

function isJsonContentType(header: unknown): boolean {
	if (typeof header !== 'string') return false;
	return JSON_MEDIA_TYPE.test(header.split(';')[0].trim().toLowerCase());
}

/** The exact body bytes, or undefined when they cannot be had (never throws). */
async function readRawBody(request: DeliveryRequest): Promise<Buffer | undefined> {
	try {
		// n8n reads the body for the content types it parses; for the others that is left to the node.
		if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
			await request.readRawBody();
		}
	} catch {
		return undefined;
	}
	return Buffer.isBuffer(request.rawBody) ? request.rawBody : undefined;
}

/** Options → Signing Key Max Age, in milliseconds: at most SIGNING_KEY_MAX_AGE_MS, which is also the default. */
function keyMaxAgeMs(options: IDataObject): number {
	const seconds = Number(options.signingKeyMaxAge);
	if (!Number.isFinite(seconds) || seconds <= 0) return SIGNING_KEY_MAX_AGE_MS;
	return Math.min(seconds * 1000, SIGNING_KEY_MAX_AGE_MS);
}

/**
 * Verifies, filters and turns one delivery into one item. Answers every refusal itself and
 * throws on no request input: only a verified delivery starts an execution. What the headers
 * decide comes before the body is read, and what needs no key before a key is fetched.
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject() as DeliveryRequest;
	const headers = request.headers as IDataObject;
	if (!isJsonContentType(headers['content-type'])) {
		return respond.call(this, 415, { message: 'Deliveries must be sent as application/json' });
	}
	const readAt = instantNow();
	const check = checkSignatureHeaders(readSignatureHeaders(request.headers), readAt.wall);
	if (!check.valid) return unauthorized.call(this, check.reason);

	const rawBody = await readRawBody(request);
	if (rawBody === undefined) return respond.call(this, 400, { message: 'The request body could not be read' });

	const webhookId = webhookIdParameter.call(this);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const source = signingKeySource.call(this, webhookId);
	let secret: string | undefined;
	let keyWait: number | undefined;
	try {
		secret = await currentSigningKey(source, readAt, keyMaxAgeMs(options));
	} catch (error) {
		keyWait = rateLimitWaitOf(error);
		this.logger.error(
			`Recruiting Trigger could not fetch the signing key of webhook "${webhookId}": ${(error as Error).message}`,
		);
	}
	// No fetch now (the last one failed moments ago): the wait the service asked for then still holds.
	if (secret === undefined) return keyUnavailable.call(this, keyWait ?? signingKeyWaitSeconds(source.cacheKey, readAt));

	// The headers were checked above: each key tried only runs the keyed half of the check.
	const verify = (key: string) => matchSignature(check, rawBody, key);
	let result = verify(secret);
	if (!result.valid && result.reason === 'no-matching-signature') {
		// Perhaps the key was rotated since it was cached: fetch it again (rate limited) and retry.
		let fresh: string | undefined;
		try {
			fresh = await refreshedSigningKey(source, secret, readAt);
		} catch (error) {
			this.logger.warn(
				`Recruiting Trigger could not refetch the signing key of webhook "${webhookId}": ${(error as Error).message}`,
			);
			// The service refused the fetch (429): the delivery may be good, so it is not refused as forged.
			const wait = rateLimitWaitOf(error);
			if (wait !== undefined) return keyUnavailable.call(this, wait);
		}
		if (fresh !== undefined) result = verify(fresh);
		// No refetch now, and the last one was refused with 429: the key cannot be checked, so 503 again.
		const wait = fresh === undefined ? signingKeyWaitSeconds(source.cacheKey, readAt) : undefined;
		if (!result.valid && wait !== undefined) return keyUnavailable.call(this, wait);
	}
	if (!result.valid) return unauthorized.call(this, result.reason);

	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return respond.call(this, 400, { message: 'The delivery body is not valid JSON' });
	}
	if (!isPlainObject(body)) {
		return respond.call(this, 400, { message: 'The delivery body is not a JSON object' });
	}

	const event = typeof body.type === 'string' ? body.type : null;
	const selected = this.getNodeParameter('events', []) as string[];
	// Only a known event can be "not selected"; a new event name passes through.
	if (
		options.ignoreUnselectedEvents !== false &&
		event !== null &&
		KNOWN_EVENTS.has(event) &&
		!selected.includes(event)
	) {
		return respond.call(this, 200, { message: `Event "${event}" is not selected in the trigger; ignored` });
	}
	const object = deliveredObject(body.data);
	const skipped = filteredOut(
		{ jobIds: parseIdList(options.jobIds), parentStages: parseIdList(options.parentStages) },
		event,
		object,
	);
	if (skipped !== undefined) return respond.call(this, 200, { message: `Filtered out: ${skipped}; ignored` });

	// Verified, and nothing awaited from here on: check and remember in one step.
	if (options.dropDuplicates !== false && isDuplicateDelivery(source.cacheKey, check.id, readAt)) {
		return respond.call(this, 200, { message: 'Duplicate delivery (same webhook-id); ignored' });
	}

	const item: DeliveryItem = {
		event,
		timestamp:
			typeof body.timestamp === 'string' || typeof body.timestamp === 'number'
				? body.timestamp
				: new Date(check.timestamp * 1000).toISOString(),
		messageId: check.id,
		eventKey: eventKey(event, object, check.id),
		deliveryId: stringOrNull(body.id),
		object,
	};
	if (options.includeHeaders === true) item.headers = redactHeaders(headers);

	return { workflowData: [this.helpers.returnJsonArray(item)] };
}
