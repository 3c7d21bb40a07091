import type { INodeProperties } from 'n8n-workflow';
import { getManyOption, operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as updateSource from './updateSource.operation';

export const operations = { get, getMany, updateSource } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('application', [
		{
			name: 'Get',
			value: 'get',
			description:
				'Retrieves one application, under its candidate (the service\'s full API); the candidate is found from the application when not given. Returns the application: with Simplify on, flat fields as Get Many gives them.',
			action: 'Get one application by ID (app_…), with its candidate (can_…) found when not given',
		},
		getManyOption(
			'applications',
			'Lists applications, optionally filtered by candidate, job, parent stage or custom pipeline. Returns one item per application: with Simplify on, flat fields (candidate_name, candidate_email, job_title, parent_stage…), otherwise the full application.',
			'Search applications by job (job_…), candidate (can_…) or parent stage, with candidate and job names',
		),
		{
			name: 'Update Source',
			value: 'updateSource',
			description:
				'Sets where an application came from: origin, source name, contact, user, recruiter (the service\'s full API; only the fields given are sent). Returns the application\'s source.',
			action: 'Set where an application (app_…) of a candidate (can_…) came from: origin, source, referrer',
		},
		// Get Many stays the default: workflows saved before the other operations existed leave it out.
	], 'getMany'),
	...get.description,
	...getMany.description,
	...updateSource.description,
];
