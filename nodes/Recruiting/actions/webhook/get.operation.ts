import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { webhookIdField, webhookNotFound } from './fields';

const properties: INodeProperties[] = [webhookIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const webhookId = requireId.call(this, 'webhookId', itemIndex, 'Webhook ID');
	return await recruitingRequestData.call(this, {
		method: 'GET',
		path: resourcePath('webhooks', webhookId),
		itemIndex,
		notFound: webhookNotFound(webhookId),
	});
}
