import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { WEBHOOK_EVENT_OPTIONS } from '../../../shared/events';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { checkEventNames, checkHttpUrl, checkSomeFields, requireId } from '../../../shared/validation';
import { byName, updateFields } from '../common.descriptions';
import { readCollection } from '../helpers';
import { webhookIdField, webhookNotFound, withoutSigningKey } from './fields';

const properties: INodeProperties[] = [
	webhookIdField,
	updateFields([
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
		},
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/hooks/recruiting',
			description: 'The absolute http(s) URL the service delivers events to',
		},
		{
			displayName: 'Events',
			name: 'events',
			type: 'multiOptions',
			// The service's documented events, by name; an expression may give others (new events appear over time)
			options: [...WEBHOOK_EVENT_OPTIONS].sort(byName),
			default: [],
			description:
				'The events to subscribe to; replaces the current subscriptions. An expression may also name events not in this list.',
		},
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['update'] } },
	properties,
);

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
		notFound: webhookNotFound(webhookId),
	});
	return withoutSigningKey(webhook);
}
