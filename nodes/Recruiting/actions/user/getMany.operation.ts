import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { viaFullApi } from '../fullApi';
import { simpleGetMany } from '../helpers';

const list = simpleGetMany('user', ['users'], { output: 'user', plural: 'users' });

export const { description, output } = list;

/** The list names no ID: a 404 can only mean a service without GET /users. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await viaFullApi(this, itemIndex, 'GET /users', async () => await list.execute.call(this, itemIndex) as IDataObject[]);
}
