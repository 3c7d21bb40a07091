import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { viaFullApi } from '../fullApi';
import { simpleGetMany } from '../helpers';

const list = simpleGetMany(['users'], {
	output: 'user',
	plural: 'users',
	description:
		'Lists the users of the company account. Returns one item per user: ID (usr_…), name, e-mail, type (role), category, permissions and assigned jobs.',
	action: 'Get many users',
	toolDescription: 'Get many users (usr_…)',
});

export const { option, properties, output } = list;

/** The list names no ID: a 404 can only mean a service without GET /users. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await viaFullApi(this, itemIndex, 'GET /users', async () => await list.execute.call(this, itemIndex) as IDataObject[]);
}
