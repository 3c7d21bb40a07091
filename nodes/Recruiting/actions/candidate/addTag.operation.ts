import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequest, resourcePath } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { success } from '../helpers';
import { candidateIdField } from './fields';
import { readTagId, tagField } from './tag';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Add Tag',
	value: 'addTag',
	description: 'Adds one tag to a candidate, keeping their other tags. Returns { success: true }.',
	action: 'Add a tag to a candidate',
	toolDescription: 'Add a tag to a candidate (can_…)',
};

export const properties: INodeProperties[] = [
	candidateIdField,
	tagField(
		'The tag to add: its ID (tag_…, from Tag → Get Many), its exact name (an unknown name is an error and nothing is written), or pick it from the list',
	),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const candidateId = requireId.call(this, 'candidateId', itemIndex, candidateIdField.displayName);
	const tagId = await readTagId.call(this, itemIndex);
	await recruitingRequest.call(this, {
		method: 'POST',
		path: resourcePath('candidates', candidateId, 'tags'),
		body: { id: tagId },
		itemIndex,
		notFound: `candidate "${candidateId}" or tag "${tagId}"`,
	});
	return success();
}
