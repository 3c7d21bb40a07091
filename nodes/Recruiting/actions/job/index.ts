import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as create from './create.operation';
import * as remove from './delete.operation';
import * as get from './get.operation';

export const operations = { create, delete: remove, get } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('job', [
		{ name: 'Create', value: 'create', description: 'Create a job', action: 'Create a job' },
		{ name: 'Delete', value: 'delete', description: 'Delete a job', action: 'Delete a job' },
		{ name: 'Get', value: 'get', description: 'Get a job', action: 'Get a job' },
	], 'get'),
	...create.description,
	...get.description,
	...remove.description,
];
