import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { WEBHOOK_EVENT_OPTIONS } from '../../../shared/events';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { checkHttpUrl, checkSomeFields, invalidField, requireId } from '../../../shared/validation';
import { webhookIdField, webhookLabel, withoutSigningKey } from './fields';

const properties: INodeProperties[] = [
	webhookIdField,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
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
				options: [...WEBHOOK_EVENT_OPTIONS].sort((a, b) => a.name.localeCompare(b.name)),
				default: [],
				description:
					'The events to subscribe to; replaces the current subscriptions. An expression may also name events not in this list.',
			},
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['update'] } },
	properties,
);

/** `resource.action`, lower case: the shape of every event the service documents. */
const EVENT_NAME = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+$/;

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const webhookId = requireId.call(this, 'webhookId', itemIndex, 'Webhook ID');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};

	if (fields.endpoint !== undefined) {
		body.endpoint = checkHttpUrl(node, itemIndex, 'Endpoint', fields.endpoint);
	}
	if (fields.name !== undefined) body.name = String(fields.name);
	if (fields.description !== undefined) body.description = String(fields.description);
	if (fields.events !== undefined) {
		const events = (Array.isArray(fields.events) ? fields.events : String(fields.events).split(','))
			.map((event) => String(event).trim())
			.filter((event) => event !== '');
		if (events.length === 0) {
			throw invalidField(node, itemIndex, 'Events', 'select at least one event');
		}
		// Names not in the list pass (new events appear over time), but only if they look like one.
		const malformed = events.find((event) => !EVENT_NAME.test(event));
		if (malformed !== undefined) {
			throw invalidField(node, itemIndex, 'Events', `"${malformed}" is not an event name (such as candidate.updated)`);
		}
		body.events = events;
	}

	const webhook = await recruitingRequestData.call(this, {
		method: 'PUT',
		path: resourcePath('webhooks', webhookId),
		body: checkSomeFields(node, itemIndex, body),
		itemIndex,
		notFound: webhookLabel(webhookId),
	});
	return withoutSigningKey(webhook);
}
