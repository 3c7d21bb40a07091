import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequest, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { idLocator } from '../common.descriptions';
import { success } from '../helpers';
import { candidateIdField } from './fields';

const properties: INodeProperties[] = [
	candidateIdField,
	idLocator({
		name: 'tagId',
		displayName: 'Tag',
		placeholder: 'tag_…',
		searchListMethod: 'searchTags',
		description: 'The tag to add to the candidate',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['candidate'], operation: ['addTag'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const candidateId = requireId.call(this, 'candidateId', itemIndex, 'Candidate ID');
	const tagId = requireId.call(this, 'tagId', itemIndex, 'Tag');
	await recruitingRequest.call(this, {
		method: 'POST',
		path: resourcePath('candidates', candidateId, 'tags'),
		body: { id: tagId },
		itemIndex,
		notFound: `candidate "${candidateId}" or tag "${tagId}"`,
	});
	return success();
}
