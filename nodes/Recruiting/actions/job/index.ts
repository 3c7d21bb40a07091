import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as create from './create.operation';
import * as remove from './delete.operation';
import * as get from './get.operation';

export const operations = { create, delete: remove, get } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('job', [
		{
			name: 'Create',
			value: 'create',
			description: 'Creates a job from a title and optional details. Returns the created job.',
			action: 'Create a job from a title and optional details; returns the new job ID (job_…)',
		},
		{
			name: 'Delete',
			value: 'delete',
			description:
				'Permanently deletes a job; this cannot be undone. Returns { deleted: true }.',
			action: 'Permanently delete a job by job ID (job_…): cannot be undone',
		},
		{
			name: 'Get',
			value: 'get',
			description:
				'Retrieves one job by ID. Returns the job: with Simplify on, flat fields (title, status, type, city, remote, owner_id, apply_url, tags…), otherwise the full record.',
			action: 'Get a job\'s details by job ID (job_…)',
		},
	], 'get'),
	...create.description,
	...get.description,
	...remove.description,
];
