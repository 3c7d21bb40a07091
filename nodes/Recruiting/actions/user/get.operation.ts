import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { listAnswers, viaFullApi } from '../fullApi';
import { userLocator } from './fields';

const properties: INodeProperties[] = [
	userLocator(
		'userId',
		'User',
		'The user\'s ID (usr_…), or pick the user from the list (searched by name and e-mail); e.g. owner_id of a job or organizer_id of an interview',
	),
];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['get'] } }, properties);

export const output = 'user';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const userId = requireId.call(this, 'userId', itemIndex, 'User');
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
