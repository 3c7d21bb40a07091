import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequest, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { success } from '../helpers';

const properties: INodeProperties[] = [
	{
		displayName: 'Interview ID',
		name: 'interviewId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'int_…',
		description:
			'The ID (int_…) of the interview to cancel, e.g. from Interview → Create, an application\'s interviews list (Application → Get Many, Simplify off) or an interview.* trigger item',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['interview'], operation: ['cancel'] } },
	properties,
);

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
