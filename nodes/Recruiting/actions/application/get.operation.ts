import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { candidateLacks, viaFullApi } from '../fullApi';
import { isSimplified, simplifyApplication, simplifyField } from '../simplify';
import { applicationAndCandidate, applicationCandidateField, applicationIdField, applicationNotFound } from './fields';

const properties: INodeProperties[] = [applicationIdField, applicationCandidateField, simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['application'], operation: ['get'] } },
	properties,
);

export const output = 'application';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const ids = await applicationAndCandidate.call(this, itemIndex);
	const application = await viaFullApi(
		this,
		itemIndex,
		'GET /candidates/{candidate_id}/applications/{application_id}',
		async () =>
			await recruitingRequestData.call(this, {
				method: 'GET',
				path: resourcePath('candidates', ids.candidateId, 'applications', ids.applicationId),
				itemIndex,
				notFound: applicationNotFound(ids),
			}),
		async () => await candidateLacks.call(this, itemIndex, ids.candidateId, ids.applicationId),
	);
	return isSimplified.call(this, itemIndex) ? simplifyApplication(application) : application;
}
