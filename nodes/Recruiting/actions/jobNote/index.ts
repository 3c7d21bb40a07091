import type { INodeProperties } from 'n8n-workflow';
import { getManyOption, operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as getMany from './getMany.operation';

export const operations = { getMany } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('jobNote', [getManyOption(
		'job notes',
		'Lists the notes of one job. Returns one item per note (text, creator, date_created, files, mentioned_users).',
		'Get the notes written on a job, by job ID (job_…)',
	)]),
	...getMany.description,
];
