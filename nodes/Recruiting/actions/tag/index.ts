import type { INodeProperties } from 'n8n-workflow';
import { getManyOption, operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as getMany from './getMany.operation';

export const operations = { getMany } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('tag', [getManyOption(
		'tags',
		'Lists the account\'s tags. Returns one item per tag (ID, name, color, type, status); Candidate → Add Tag takes the ID or the name.',
		'Get many tags with their IDs and names',
	)]),
	...getMany.description,
];
