import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { webhookLabel } from '../../../shared/events';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { optionsCollection } from '../common.descriptions';
import { readCollection } from '../helpers';
import { webhookIdField, withoutSigningKey } from './fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	description:
		'Retrieves one webhook by ID. Returns its endpoint, name, description, subscribed_events and status; the signing key only when asked for.',
	action: 'Get a webhook',
	toolDescription: 'Get a webhook by ID (wh_…)',
};

export const properties: INodeProperties[] = [
	webhookIdField,
	optionsCollection([
		{
			displayName: 'Include Signing Key',
			name: 'includeSigningKey',
			type: 'boolean',
			default: false,
			description:
				'Whether to output the webhook\'s signing key. It is a secret and would be saved with the execution data; the Recruiting Trigger does not need it.',
		},
	]),
];

export const output = 'webhook';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const webhookId = requireId.call(this, 'webhookId', itemIndex, 'Webhook ID');
	const options = readCollection.call(this, 'options', itemIndex);
	const webhook = await recruitingRequestData.call(this, {
		method: 'GET',
		path: resourcePath('webhooks', webhookId),
		itemIndex,
		notFound: webhookLabel(webhookId),
	});
	return withoutSigningKey(webhook, options.includeSigningKey === true);
}
