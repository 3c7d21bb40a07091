import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { CREDENTIAL_TYPE, isDotSegment, recruitingRequest, recruitingRequestData, resourcePath } from '../shared/transport';
import type { SigningKeySource } from './signingKeys';
import { rememberSigningKey, signingKeyCacheKey } from './signingKeys';

/** The two contexts the trigger runs in: lifecycle hooks and deliveries. */
export type TriggerContext = IHookFunctions | IWebhookFunctions;

/** What the trigger reads of a webhook. The signing key is handed to the memory cache, never returned. */
export interface RemoteWebhook {
	id: string;
	endpoint: string;
	events: string[];
	name?: string;
	description?: string;
}

/** The Webhook ID parameter, trimmed; an empty value or a dot segment is refused. */
export function webhookIdParameter(this: TriggerContext): string {
	const raw = this.getNodeParameter('webhookId', '') as unknown;
	const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	if (id === '' || isDotSegment(id)) {
		throw new NodeOperationError(this.getNode(), 'Invalid "Webhook ID": enter the ID of a webhook', {
			description: WEBHOOK_ID_HINT,
		});
	}
	return id;
}

export const WEBHOOK_ID_HINT =
	"Create the webhook in the recruiting service's dashboard, then copy its ID here. n8n points it at this workflow while the workflow is active and puts it back as it was when the workflow is deactivated.";

function webhookNotFound(this: TriggerContext, id: string): NodeOperationError {
	return new NodeOperationError(this.getNode(), `Webhook "${id}" was not found in the recruiting service`, {
		description: `Check the Webhook ID and the credential's company. ${WEBHOOK_ID_HINT}`,
	});
}

/** Where this webhook's signing key is cached: base URL + company + webhook id. */
export async function signingKeySource(this: TriggerContext, id: string): Promise<SigningKeySource> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const cacheKey = signingKeyCacheKey(
		String(credentials.baseUrl ?? ''),
		String(credentials.companyId ?? ''),
		id,
	);
	return {
		cacheKey,
		load: async () => {
			const data = await getWebhookData.call(this, id);
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

/** GET /webhooks/{id} → the resource, or undefined when the service answers 404. */
async function findWebhookData(this: TriggerContext, id: string): Promise<IDataObject | undefined> {
	const body = (await recruitingRequest.call(this, {
		method: 'GET',
		path: resourcePath('webhooks', id),
		notFound: `webhook "${id}"`,
		allowNotFound: true,
	})) as IDataObject | undefined;
	if (body === undefined) return undefined;
	return typeof body.data === 'object' && body.data !== null ? (body.data as IDataObject) : body;
}

async function getWebhookData(this: TriggerContext, id: string): Promise<IDataObject> {
	const data = await findWebhookData.call(this, id);
	if (!data) throw webhookNotFound.call(this, id);
	return data;
}

/**
 * GET /webhooks/{id}, or undefined for an unknown id. Caches the signing key in memory on the
 * way (so a delivery to this process needs no fetch) and returns everything else.
 */
export async function findWebhook(this: TriggerContext, id: string): Promise<RemoteWebhook | undefined> {
	const data = await findWebhookData.call(this, id);
	if (!data) return undefined;
	rememberSigningKey((await signingKeySource.call(this, id)).cacheKey, data.signing_key);
	const events = Array.isArray(data.subscribed_events)
		? data.subscribed_events.filter((event): event is string => typeof event === 'string')
		: [];
	return {
		id,
		endpoint: typeof data.endpoint === 'string' ? data.endpoint : '',
		events,
		name: typeof data.name === 'string' ? data.name : undefined,
		description: typeof data.description === 'string' ? data.description : undefined,
	};
}

/** As `findWebhook`, but an unknown id throws an error that names it. */
export async function getWebhook(this: TriggerContext, id: string): Promise<RemoteWebhook> {
	const remote = await findWebhook.call(this, id);
	if (!remote) throw webhookNotFound.call(this, id);
	return remote;
}

/**
 * PUT /webhooks/{id} with endpoint, events, name and description (each only when known).
 * With `allowNotFound`, a webhook deleted meanwhile is not an error.
 */
export async function putWebhook(
	this: TriggerContext,
	webhook: Omit<RemoteWebhook, 'id'>,
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
		notFound: `webhook "${id}"`,
		allowNotFound,
	});
}

/** Same events in any order (and ignoring repeats). */
export function sameEvents(a: readonly string[], b: readonly string[]): boolean {
	const left = new Set(a);
	const right = new Set(b);
	return left.size === right.size && [...left].every((event) => right.has(event));
}
