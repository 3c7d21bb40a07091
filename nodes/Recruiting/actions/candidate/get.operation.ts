import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { isSimplified, simplifyCandidate, simplifyField } from '../simplify';
import { candidateIdField, candidateNotFound } from './fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	description:
		'Retrieves one candidate by ID. Returns the candidate: with Simplify on, flat fields (full_name, email, phone_number, title, company, tags, application_ids…), otherwise the full record.',
	action: 'Get a candidate',
	toolDescription: 'Get a candidate by ID (can_…)',
};

export const properties: INodeProperties[] = [candidateIdField, simplifyField];

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
