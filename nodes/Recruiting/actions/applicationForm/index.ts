import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as remove from './delete.operation';

export const operations = { delete: remove } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('applicationForm', [
		{
			name: 'Delete',
			value: 'delete',
			description:
				'Permanently deletes an application form; this cannot be undone. Returns { deleted: true }.',
			action: 'Permanently delete an application form by form ID (form_…): cannot be undone',
		},
	]),
	...remove.description,
];
