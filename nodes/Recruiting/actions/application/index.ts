import type { INodeProperties } from 'n8n-workflow';
import { getManyOption, operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as getMany from './getMany.operation';

export const operations = { getMany } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('application', [getManyOption(
		'applications',
		'Lists applications, optionally filtered by candidate, job, parent stage or custom pipeline. Returns one item per application: with Simplify on, flat fields (candidate_name, candidate_email, job_title, parent_stage…), otherwise the full application.',
		'Search applications by job (job_…), candidate (can_…) or parent stage, with candidate and job names',
	)]),
	...getMany.description,
];
