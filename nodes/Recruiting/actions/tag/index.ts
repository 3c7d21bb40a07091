import type { INodeProperties } from 'n8n-workflow';
import type { OperationMap } from '../types';
import * as getMany from './getMany.operation';

export const operations = { getMany } satisfies OperationMap;

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{ name: 'Get Many', value: 'getMany', description: 'List tags', action: 'Get many tags' },
		],
		default: 'getMany',
	},
	...getMany.description,
];
