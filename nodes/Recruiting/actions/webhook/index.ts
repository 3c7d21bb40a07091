import type { INodeProperties } from 'n8n-workflow';
import type { OperationMap } from '../types';
import * as get from './get.operation';
import * as update from './update.operation';

export const operations = { get, update } satisfies OperationMap;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a webhook', action: 'Get a webhook' },
			{
				name: 'Update',
				value: 'update',
				description: 'Update a webhook\'s endpoint, name, events or description',
				action: 'Update a webhook',
			},
		],
		default: 'get',
	},
	...get.description,
	...update.description,
];
