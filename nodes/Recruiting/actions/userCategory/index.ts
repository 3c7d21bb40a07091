import type { INodeProperties } from 'n8n-workflow';
import { getManyOption, operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as getMany from './getMany.operation';

export const operations = { getMany } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('userCategory', [getManyOption(
		'user categories',
		'Lists the account\'s user categories. Returns one item per category (ID and name).',
		'Get many user categories with their IDs',
	)]),
	...getMany.description,
];
