import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { WEBHOOK_EVENTS } from '../shared/events';
import type { SignatureFailure } from '../shared/signature';
import {
	checkSignatureHeaders,
	describeSignatureFailure,
	readSignatureHeaders,
	verifyCheckedSignature,
} from '../shared/signature';
import { currentSigningKey, refreshedSigningKey } from './signingKeys';
import { signingKeySource, webhookIdParameter } from './webhookApi';

/**
 * The one item a verified delivery starts the workflow with.
 *
 * - `event`: the delivery's `type`, e.g. `candidate.updated` (passed through even if not one of the 19 known events); null if absent.
 * - `timestamp`: the delivery's `timestamp`, or else the `webhook-timestamp` header as ISO 8601.
 * - `messageId`: the `webhook-id` header. A retried delivery carries the same one: use it to drop duplicates.
 * - `deliveryId`: the delivery's own `id`, or null.
 * - `object`: the resource the event is about (`data.object`, or `data` itself when it is not wrapped); null if absent.
 * - `headers`: every request header, only with the "Include Headers" option.
 */
export interface DeliveryItem extends IDataObject {
	event: string | null;
	timestamp: string | number;
	messageId: string;
	deliveryId: string | null;
	object: IDataObject | null;
	headers?: IDataObject;
}

const KNOWN_EVENTS: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

function respond(
	this: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	this.getResponseObject().status(status).json(body).end();
	return { noWebhookResponse: true };
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

/** Verifies, filters and turns one delivery into one item; answers every refusal itself. */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject() as ReturnType<IWebhookFunctions['getRequestObject']> & {
		rawBody?: unknown;
		readRawBody?: () => Promise<void>;
	};
	// n8n reads the body for parsable content types; otherwise it leaves that to the node.
	if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	const rawBody = request.rawBody;
	// Without the exact bytes nothing can be verified: fail closed.
	if (!Buffer.isBuffer(rawBody)) return unauthorized.call(this, 'missing-body');

	// What needs no key first, so junk never costs a request to the service.
	const check = checkSignatureHeaders(readSignatureHeaders(request.headers));
	if (!check.valid) return unauthorized.call(this, check.reason);

	const webhookId = webhookIdParameter.call(this);
	const source = await signingKeySource.call(this, webhookId);
	let secret: string | undefined;
	try {
		secret = await currentSigningKey(source);
	} catch (error) {
		this.logger.error(
			`Recruiting Trigger could not fetch the signing key of webhook "${webhookId}": ${(error as Error).message}`,
		);
	}
	if (secret === undefined) {
		return respond.call(this, 503, {
			message: 'The signing key to verify this delivery is not available; try again later',
		});
	}

	let result = verifyCheckedSignature(check, rawBody, secret);
	if (!result.valid && result.reason === 'no-matching-signature') {
		// Perhaps the key was rotated since it was cached: fetch it again (rate limited) and retry.
		let fresh: string | undefined;
		try {
			fresh = await refreshedSigningKey(source, secret);
		} catch (error) {
			this.logger.warn(
				`Recruiting Trigger could not refetch the signing key of webhook "${webhookId}": ${(error as Error).message}`,
			);
		}
		if (fresh !== undefined) result = verifyCheckedSignature(check, rawBody, fresh);
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
	const options = this.getNodeParameter('options', {}) as IDataObject;
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

	const item: DeliveryItem = {
		event,
		timestamp:
			typeof body.timestamp === 'string' || typeof body.timestamp === 'number'
				? body.timestamp
				: new Date(check.timestamp * 1000).toISOString(),
		messageId: check.id,
		deliveryId: stringOrNull(body.id),
		object: deliveredObject(body.data),
	};
	if (options.includeHeaders === true) item.headers = { ...request.headers } as IDataObject;

	return { workflowData: [this.helpers.returnJsonArray(item)] };
}
