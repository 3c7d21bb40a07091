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
			description:
				'Overwrites the fields given of a note on a candidate (files and mentions given replace the current ones). Returns the updated note.',
			action: 'Change the text of an existing note on a candidate (can_…) by note ID',
		},
	]),
	...update.description,
];
