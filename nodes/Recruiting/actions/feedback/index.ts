import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as update from './update.operation';

export const operations = { update } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('feedback', [
		{
			name: 'Update',
			value: 'update',
			description:
				'Writes answers to the questions of a feedback form about an application. Returns the updated feedback with its questions and answers.',
			action: 'Record answers on a feedback form by feedback ID (fdbk_…), replacing earlier answers to those questions',
		},
	]),
	...update.description,
];
