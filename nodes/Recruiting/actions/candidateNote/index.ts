import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as create from './create.operation';
import * as update from './update.operation';

export const operations = { create, update } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('candidateNote', [
		{
			name: 'Create',
			value: 'create',
			description:
				'Adds a note to a candidate, optionally about one of their applications, mentioning users (the service\'s full API). Returns the created note.',
			action: 'Add a note to a candidate (can_…), optionally about an application (app_…), mentioning users',
		},
		{
			name: 'Update',
			value: 'update',
			description:
				'Overwrites the fields given of a note on a candidate (files and mentions given replace the current ones). Returns the updated note.',
			action: 'Change the text of an existing note on a candidate (can_…) by note ID',
		},
		// Update stays the default: workflows saved before Create existed leave the default out.
	], 'update'),
	...create.description,
	...update.description,
];
