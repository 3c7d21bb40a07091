import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as addTag from './addTag.operation';
import * as get from './get.operation';
import * as removeTag from './removeTag.operation';
import * as update from './update.operation';

export const operations = { addTag, get, removeTag, update } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('candidate', [
		{
			name: 'Add Tag',
			value: 'addTag',
			description: 'Add a tag to a candidate',
			action: 'Add a tag to a candidate',
		},
		{ name: 'Get', value: 'get', description: 'Get a candidate', action: 'Get a candidate' },
		{
			name: 'Remove Tag',
			value: 'removeTag',
			description: 'Remove a tag from a candidate, keeping their other tags',
			action: 'Remove a tag from a candidate',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Update a candidate',
			action: 'Update a candidate',
		},
	], 'get'),
	...addTag.description,
	...get.description,
	...removeTag.description,
	...update.description,
];
