import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as cancel from './cancel.operation';
import * as create from './create.operation';

export const operations = { cancel, create } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('interview', [
		{
			name: 'Cancel',
			value: 'cancel',
			description: 'Cancel an interview',
			action: 'Cancel an interview',
		},
		{
			name: 'Create',
			value: 'create',
			description: 'Schedule an interview for an application',
			action: 'Create an interview',
		},
	], 'create'),
	...cancel.description,
	...create.description,
];
