import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as update from './update.operation';

export const operations = { update } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('feedback', [
		{
			name: 'Update',
			value: 'update',
			description: 'Update feedback and its answers',
			action: 'Update feedback',
		},
	]),
	...update.description,
];
