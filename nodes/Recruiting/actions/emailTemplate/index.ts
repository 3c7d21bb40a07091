import type { INodeProperties } from 'n8n-workflow';
import { getManyOption, operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as getMany from './getMany.operation';

export const operations = { getMany } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('emailTemplate', [getManyOption(
		'email templates',
		'Lists the account\'s email templates. Returns one item per template (name, subject, body, stage, language).',
		'Get many email templates with their names, subjects and stages',
	)]),
	...getMany.description,
];
