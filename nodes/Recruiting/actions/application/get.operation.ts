import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { candidateLacks, viaFullApi } from '../fullApi';
import { isSimplified, simplifyApplication, simplifyField } from '../simplify';
import { applicationAndCandidate, applicationCandidateField, applicationIdField, applicationNotFound } from './fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	description:
		'Retrieves one application, under its candidate (the service\'s full API); the candidate is found from the application when not given. Returns the application: with Simplify on, flat fields as Get Many gives them.',
	action: 'Get an application',
	toolDescription: 'Get an application by ID (app_…)',
};

export const properties: INodeProperties[] = [applicationIdField, applicationCandidateField, simplifyField];

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
