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
			description: 'Adds one tag to a candidate, keeping their other tags. Returns { success: true }.',
			action: 'Add a tag to a candidate',
		},
		{
			name: 'Get',
			value: 'get',
			description:
				'Retrieves one candidate by ID. Returns the candidate: with Simplify on, flat fields (full_name, email, phone_number, title, company, tags, application_ids…), otherwise the full record.',
			action: 'Get a candidate',
		},
		{
			name: 'Remove Tag',
			value: 'removeTag',
			description:
				'Removes one tag from a candidate by reading their tags and writing back all the others: a tag change made by someone else in between can be lost. Returns { success: true }.',
			action: 'Remove a tag from a candidate',
		},
		{
			name: 'Update',
			value: 'update',
			description:
				'Overwrites the candidate fields given (others stay as they are); tags given replace the candidate\'s whole tag list. Returns the updated candidate.',
			action: 'Update a candidate',
		},
	], 'get'),
	...addTag.description,
	...get.description,
	...removeTag.description,
	...update.description,
];
