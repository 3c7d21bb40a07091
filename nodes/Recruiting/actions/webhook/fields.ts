import type { INodeProperties } from 'n8n-workflow';

export const webhookIdField: INodeProperties = {
	displayName: 'Webhook ID',
	name: 'webhookId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'wh_…',
	description: 'The ID of a webhook created in the service\'s dashboard',
};

export const webhookNotFound = (webhookId: string): string => `webhook "${webhookId}"`;
