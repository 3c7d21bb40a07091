import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequest, resourcePath } from '../../../shared/transport';
import { idField } from '../common.descriptions';
import { deletedOutput } from '../helpers';
import { requireId } from '../../../shared/validation';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	description:
		'Permanently deletes an application form; this cannot be undone. Returns { deleted: true }.',
	action: 'Delete an application form',
	toolDescription: 'Permanently delete an application form (form_…)',
};

export const properties: INodeProperties[] = [
	idField(
		'Form ID',
		'formId',
		'form_…',
		'The ID (form_…) of the application form to delete permanently, e.g. one of application_form.additional_form_ids of a job (Job → Get, Simplify off)',
	),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const formId = requireId.call(this, 'formId', itemIndex, 'Form ID');
	await recruitingRequest.call(this, {
		method: 'DELETE',
		path: resourcePath('forms', 'application', formId),
		itemIndex,
		notFound: `application form "${formId}"`,
	});
	return deletedOutput.call(this);
}
