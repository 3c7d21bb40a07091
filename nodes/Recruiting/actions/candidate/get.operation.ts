import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { candidateIdField, candidateNotFound } from './fields';

const properties: INodeProperties[] = [candidateIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['candidate'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const candidateId = requireId.call(this, 'candidateId', itemIndex, 'Candidate ID');
	return await recruitingRequestData.call(this, {
		method: 'GET',
		path: resourcePath('candidates', candidateId),
		itemIndex,
		notFound: candidateNotFound(candidateId),
	});
}
