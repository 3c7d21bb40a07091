import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as update from './update.operation';

export const operations = { update } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('candidateNote', [
		{
			name: 'Update',
			value: 'update',
			description: 'Update a note on a candidate',
			action: 'Update a candidate note',
		},
	]),
	...update.description,
];
