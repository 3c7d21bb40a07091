import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { webhookLabel } from '../shared/events';
import { scalarText } from '../shared/text';
import type { RequestPolicy } from '../shared/transport';
import { dataOf, isDotSegment, recruitingRequest, recruitingRequestData, resourcePath } from '../shared/transport';
import type { SigningKeySource } from './signingKeys';
import { signingKeyCacheKey } from './signingKeys';

/** The two contexts the trigger runs in: lifecycle hooks and deliveries. */
export type TriggerContext = IHookFunctions | IWebhookFunctions;

/** What the trigger reads of a webhook, without its signing key (see `WebhookRead`). */
export interface RemoteWebhook {
	id: string;
	endpoint: string;
	events: string[];
	name?: string;
	description?: string;
	/** `enabled` or `disabled` as the dashboard sets it; undefined when the service does not say. */
	status?: string;
}

/** The Webhook ID parameter, trimmed; an empty value or a dot segment is refused. */
export function webhookIdParameter(this: TriggerContext): string {
	const raw = this.getNodeParameter('webhookId', '') as unknown;
	const id = (scalarText(raw) ?? '').trim();
	if (id === '' || isDotSegment(id)) {
		throw new NodeOperationError(this.getNode(), 'Invalid "Webhook ID": enter the ID of a webhook', {
			description: WEBHOOK_ID_HINT,
		});
	}
	return id;
}

export const WEBHOOK_ID_HINT =
	"Create the webhook in the recruiting service's dashboard, then copy its ID here. n8n points it at this workflow while the workflow is published (active in n8n 1.x) and puts it back as it was when the workflow is unpublished.";

/**
 * Where this webhook's signing key is cached: the node's credential (by id, so no delivery has
 * to decrypt it) and the webhook id. A changed credential is read again when the key expires or
 * a signature fails (see signingKeys.ts).
 */
export function signingKeyCacheKeyOf(this: TriggerContext, id: string): string {
	const credential = this.getNode().credentials?.recruitingApi;
	return signingKeyCacheKey(String(credential?.id ?? credential?.name ?? ''), id);
}

/** On the delivery path the sender is waiting: one short attempt, no retries, no 429 waits. */
export const DELIVERY_KEY_POLICY: Partial<RequestPolicy> = {
	timeoutMs: 5_000,
	maxRetries: 0,
	maxRateLimitWaitMs: 0,
};

/** The cached key of a webhook and how to fetch it again within the delivery path's budget. */
export function signingKeySource(this: TriggerContext, id: string): SigningKeySource {
	return {
		cacheKey: signingKeyCacheKeyOf.call(this, id),
		load: async () => {
			const data = await fetchWebhookData.call(this, id, DELIVERY_KEY_POLICY);
			if (!data) throw webhookNotFound.call(this, id);
			const key = data.signing_key;
			if (typeof key !== 'string' || key === '') {
				throw new NodeOperationError(this.getNode(), `Webhook "${id}" has no signing key`, {
					description: 'Deliveries cannot be verified, so none is accepted.',
				});
			}
			return key;
		},
	};
}

function webhookNotFound(this: TriggerContext, id: string): NodeOperationError {
	return new NodeOperationError(this.getNode(), `Webhook "${id}" was not found in the recruiting service`, {
		description: `Check the Webhook ID and the credential's company. ${WEBHOOK_ID_HINT}`,
	});
}

/** GET /webhooks/{id} → the resource, or undefined when the service answers 404. */
async function fetchWebhookData(
	this: TriggerContext,
	id: string,
	policy?: Partial<RequestPolicy>,
): Promise<IDataObject | undefined> {
	const body = await recruitingRequest.call(this, {
		method: 'GET',
		path: resourcePath('webhooks', id),
		notFound: webhookLabel(id),
		allowNotFound: true,
		policy,
	});
	return dataOf(body as IDataObject | undefined);
}

/** One read of a webhook: what the trigger works with, and apart from it the signing key. */
export interface WebhookRead {
	webhook: RemoteWebhook;
	/** For the memory cache only (signingKeys.ts); never part of `webhook`, so never stored or sent back. */
	signingKey: string | undefined;
}

/**
 * The one reader of the remote webhook: GET /webhooks/{id}. An unknown id throws an error naming
 * it when `required`, else gives undefined.
 */
export async function readWebhook(context: TriggerContext, id: string, options: { required: true }): Promise<WebhookRead>;
export async function readWebhook(
	context: TriggerContext,
	id: string,
	options: { required: boolean },
): Promise<WebhookRead | undefined>;
export async function readWebhook(
	context: TriggerContext,
	id: string,
	{ required }: { required: boolean },
): Promise<WebhookRead | undefined> {
	const data = await fetchWebhookData.call(context, id);
	if (!data) {
		if (required) throw webhookNotFound.call(context, id);
		return undefined;
	}
	const webhook: RemoteWebhook = {
		id,
		endpoint: scalarText(data.endpoint) ?? '',
		events: Array.isArray(data.subscribed_events)
			? data.subscribed_events.filter((event): event is string => typeof event === 'string')
			: [],
		name: scalarText(data.name),
		description: scalarText(data.description),
		status: scalarText(data.status),
	};
	const key = data.signing_key;
	return { webhook, signingKey: typeof key === 'string' && key !== '' ? key : undefined };
}

/**
 * PUT /webhooks/{id} with endpoint, events, name and description (each only when known).
 * With `allowNotFound`, a webhook deleted meanwhile is not an error.
 */
export async function putWebhook(
	this: TriggerContext,
	webhook: Omit<RemoteWebhook, 'id' | 'status'>,
	id: string,
	{ allowNotFound = false } = {},
): Promise<void> {
	const body: IDataObject = { events: webhook.events };
	if (webhook.endpoint !== '') body.endpoint = webhook.endpoint;
	if (webhook.name !== undefined) body.name = webhook.name;
	if (webhook.description !== undefined) body.description = webhook.description;
	await recruitingRequestData.call(this, {
		method: 'PUT',
		path: resourcePath('webhooks', id),
		body,
		notFound: webhookLabel(id),
		allowNotFound,
	});
}

/** Same events in any order (and ignoring repeats). */
export function sameEvents(a: readonly string[], b: readonly string[]): boolean {
	const left = new Set(a);
	const right = new Set(b);
	return left.size === right.size && [...left].every((event) => right.has(event));
}
