import type { INodeProperties } from 'n8n-workflow';
import { getManyOption, operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as complete from './complete.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export const operations = { complete, getMany, update } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('feedback', [
		{
			name: 'Complete',
			value: 'complete',
			description:
				'Fills in a feedback form for an application with answers to its questions (the service\'s full API). Returns the new, complete feedback with its questions and answers.',
			action: 'Complete a feedback form (form_…) for an application (app_…); returns the new feedback (fdbk_…)',
		},
		getManyOption(
			'feedback',
			'Lists feedback with its questions and answers (the service\'s full API), optionally only one status or form, filtered after fetching. Returns one item per feedback.',
			'Get many feedback forms (fdbk_…) with status and answers, optionally only pending or complete ones',
		),
		{
			name: 'Update',
			value: 'update',
			description:
				'Writes answers to the questions of a feedback form about an application. Returns the updated feedback with its questions and answers.',
			action: 'Record answers on a feedback form by feedback ID (fdbk_…), replacing earlier answers to those questions',
		},
		// Update stays the default: workflows saved before the other operations existed leave it out.
	], 'update'),
	...complete.description,
	...getMany.description,
	...update.description,
];
