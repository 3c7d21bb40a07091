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
		displayOptions: { show: { resource: ['candidateNote'] } },
		options: [
			{
				name: 'Update',
				value: 'update',
				description: 'Update a note on a candidate',
				action: 'Update a candidate note',
			},
		],
		default: 'update',
	},
	...update.description,
];
