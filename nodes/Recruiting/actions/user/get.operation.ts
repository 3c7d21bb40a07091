import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { invalidField, requireId } from '../../../shared/validation';
import { listAnswers, viaFullApi } from '../fullApi';
import { userLocator } from './fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	description:
		'Retrieves one user of the company account by ID. Returns the user: name, e-mail, type (role), category, permissions and assigned jobs.',
	action: 'Get a user',
	toolDescription: 'Get a user by ID (usr_…)',
};

export const properties: INodeProperties[] = [
	userLocator(
		'userId',
		'User',
		'The user\'s ID (usr_…), or pick the user from the list (searched by name and e-mail); e.g. owner_id of a job or organizer_id of an interview',
	),
];

export const output = 'user';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const userId = requireId.call(this, 'userId', itemIndex, 'User');
	// /users/categories is another endpoint of the specification: the path would read that list.
	if (userId.toLowerCase() === 'categories') {
		throw invalidField(this.getNode(), itemIndex, 'User', '"categories" is not a user ID (the user categories are listed by User Category → Get Many)');
	}
	return await viaFullApi(
		this,
		itemIndex,
		'GET /users/{id}',
		async () =>
			await recruitingRequestData.call(this, {
				method: 'GET',
				path: resourcePath('users', userId),
				itemIndex,
				notFound: `user "${userId}"`,
			}),
		async () => await listAnswers.call(this, itemIndex, 'users'),
	);
}
