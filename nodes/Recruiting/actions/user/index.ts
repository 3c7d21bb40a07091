import type { INodeProperties } from 'n8n-workflow';
import { getManyOption, operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export const operations = { get, getMany } satisfies OperationMap;

/** Users are read through the service's full API (GET /users), beyond the 18-endpoint specification. */
export const description: INodeProperties[] = [
	operationSelector('user', [
		{
			name: 'Get',
			value: 'get',
			description:
				'Retrieves one user of the company account by ID. Returns the user: name, e-mail, type (role), category, permissions and assigned jobs.',
			action: 'Get a user\'s name, e-mail and role by user ID (usr_…)',
		},
		getManyOption(
			'users',
			'Lists the users of the company account. Returns one item per user: ID (usr_…), name, e-mail, type (role), category, permissions and assigned jobs.',
			'Get many users (usr_…) of the company with their names, e-mails and roles',
		),
	], 'getMany'),
	...get.description,
	...getMany.description,
];
