import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequest, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { success } from '../helpers';

const properties: INodeProperties[] = [
	{
		displayName: 'Form ID',
		name: 'formId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of the application form to delete',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['applicationForm'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const formId = requireId.call(this, 'formId', itemIndex, 'Form ID');
	await recruitingRequest.call(this, {
		method: 'DELETE',
		path: resourcePath('forms', 'application', formId),
		itemIndex,
		notFound: `application form "${formId}"`,
	});
	return success();
}
