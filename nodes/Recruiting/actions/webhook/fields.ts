import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { idField } from '../common.descriptions';

export const webhookIdField: INodeProperties = idField(
	'Webhook ID',
	'webhookId',
	'wh_…',
	'The ID of a webhook created in the service\'s dashboard, as the dashboard or a Recruiting Trigger\'s Webhook ID field shows it',
);

/**
 * The signing key is a secret: it stays out of output items (and so out of saved execution data)
 * unless the user asks for it. The Recruiting Trigger fetches it by itself.
 */
export function withoutSigningKey(webhook: IDataObject, includeSigningKey = false): IDataObject {
	if (includeSigningKey || !('signing_key' in webhook)) return webhook;
	const rest = { ...webhook };
	delete rest.signing_key;
	return rest;
}
