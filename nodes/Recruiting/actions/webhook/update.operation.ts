import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { WEBHOOK_EVENT_OPTIONS, webhookLabel } from '../../../shared/events';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { checkEventNames, checkHttpUrl, checkSomeFields, requireId } from '../../../shared/validation';
import { byName, updateFields } from '../common.descriptions';
import { readCollection } from '../helpers';
import { webhookIdField, withoutSigningKey } from './fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	description:
		'Overwrites a webhook\'s endpoint, name, events or description. Changing the endpoint or events of a webhook a Recruiting Trigger workflow uses stops deliveries to n8n. Returns the updated webhook.',
	action: 'Update a webhook',
	toolDescription: 'Update a webhook (wh_…)',
};

export const properties: INodeProperties[] = [
	webhookIdField,
	updateFields([
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			description: 'The webhook\'s new description, as plain text; overwrites the current one',
		},
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/hooks/recruiting',
			description:
				'The absolute http:// or https:// URL the service delivers events to. Changing it stops deliveries to a Recruiting Trigger that uses this webhook.',
		},
		{
			displayName: 'Events',
			name: 'events',
			type: 'multiOptions',
			// The service's documented events, by name; an expression may give others (new events appear over time)
			options: [...WEBHOOK_EVENT_OPTIONS].sort(byName),
			default: [],
			description:
				'The events to subscribe to, e.g. application.created; replaces the current subscriptions (a Recruiting Trigger using this webhook stops getting the others). An expression may also give a comma-separated list or names not in this list.',
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: 'The webhook\'s new name, as plain text; overwrites the current one',
		},
	]),
];

export const output = 'webhook';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const webhookId = requireId.call(this, 'webhookId', itemIndex, 'Webhook ID');
	const fields = readCollection.call(this, 'updateFields', itemIndex);
	const body: IDataObject = {};

	if (fields.endpoint !== undefined) {
		body.endpoint = checkHttpUrl(node, itemIndex, 'Endpoint', fields.endpoint);
	}
	if (fields.name !== undefined) body.name = String(fields.name);
	if (fields.description !== undefined) body.description = String(fields.description);
	if (fields.events !== undefined) body.events = checkEventNames(node, itemIndex, 'Events', fields.events);

	const webhook = await recruitingRequestData.call(this, {
		method: 'PUT',
		path: resourcePath('webhooks', webhookId),
		body: checkSomeFields(node, itemIndex, body),
		itemIndex,
		notFound: webhookLabel(webhookId),
	});
	return withoutSigningKey(webhook);
}
