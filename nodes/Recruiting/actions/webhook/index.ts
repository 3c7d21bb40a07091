import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as get from './get.operation';
import * as update from './update.operation';

export const operations = { get, update } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('webhook', [
		{ name: 'Get', value: 'get', description: 'Get a webhook', action: 'Get a webhook' },
		{
			name: 'Update',
			value: 'update',
			description: 'Update a webhook\'s endpoint, name, events or description',
			action: 'Update a webhook',
		},
	]),
	...get.description,
	...update.description,
];
