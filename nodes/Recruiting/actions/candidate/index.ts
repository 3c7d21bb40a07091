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
			action: 'Add a tag, by name or ID, to a candidate (can_…), keeping their other tags',
		},
		{
			name: 'Get',
			value: 'get',
			description:
				'Retrieves one candidate by ID. Returns the candidate: with Simplify on, flat fields (full_name, email, phone_number, title, company, tags, application_ids…), otherwise the full record.',
			action: 'Get a candidate\'s profile (name, e-mail, tags, applications) by candidate ID (can_…)',
		},
		{
			name: 'Remove Tag',
			value: 'removeTag',
			description:
				'Removes one tag from a candidate by reading their tags and writing back all the others: a tag change made by someone else in between can be lost. Returns { success: true }.',
			action: 'Remove a tag, by name or ID, from a candidate (can_…)',
		},
		{
			name: 'Update',
			value: 'update',
			description:
				'Overwrites the candidate fields given (others stay as they are); tags given replace the candidate\'s whole tag list. Returns the updated candidate.',
			action: 'Change a candidate\'s (can_…) profile fields; tags given replace all their tags',
		},
	], 'get'),
	...addTag.description,
	...get.description,
	...removeTag.description,
	...update.description,
];
