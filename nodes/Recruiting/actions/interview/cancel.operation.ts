import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequest, resourcePath } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { idField } from '../common.descriptions';
import { success } from '../helpers';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Cancel',
	value: 'cancel',
	description:
		'Cancels a scheduled interview; this cannot be undone through the API. Returns { success: true }.',
	action: 'Cancel an interview',
	toolDescription: 'Cancel an interview (int_…)',
};

export const properties: INodeProperties[] = [
	idField(
		'Interview ID',
		'interviewId',
		'int_…',
		'The ID (int_…) of the interview to cancel, e.g. from Interview → Create, an application\'s interviews list (Application → Get Many, Simplify off) or an interview.* trigger item',
	),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const interviewId = requireId.call(this, 'interviewId', itemIndex, 'Interview ID');
	await recruitingRequest.call(this, {
		method: 'PUT',
		path: resourcePath('interviews', interviewId, 'cancel'),
		itemIndex,
		notFound: `interview "${interviewId}"`,
	});
	return success();
}
