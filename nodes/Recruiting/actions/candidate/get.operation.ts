import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { isSimplified, simplifyCandidate, simplifyField } from '../simplify';
import { candidateIdField, candidateNotFound } from './fields';

const properties: INodeProperties[] = [candidateIdField, simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['candidate'], operation: ['get'] } },
	properties,
);

export const output = 'candidate';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const candidateId = requireId.call(this, 'candidateId', itemIndex, candidateIdField.displayName);
	const candidate = await recruitingRequestData.call(this, {
		method: 'GET',
		path: resourcePath('candidates', candidateId),
		itemIndex,
		notFound: candidateNotFound(candidateId),
	});
	return isSimplified.call(this, itemIndex) ? simplifyCandidate(candidate) : candidate;
}
