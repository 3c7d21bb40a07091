import type { INodeProperties } from 'n8n-workflow';
import type { OperationMap } from '../types';
import * as update from './update.operation';

export const operations = { update } satisfies OperationMap;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['feedback'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				description: 'Update feedback and its answers',
				action: 'Update feedback',
			},
		],
		default: 'update',
	},
	...update.description,
];
