import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { isSimplified, simplifyField, simplifyJob } from '../simplify';
import { jobIdField } from './fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Get',
	value: 'get',
	description:
		'Retrieves one job by ID. Returns the job: with Simplify on, flat fields (title, status, type, city, remote, owner_id, apply_url, tags…), otherwise the full record.',
	action: 'Get a job',
	toolDescription: 'Get a job by ID (job_…)',
};

export const properties: INodeProperties[] = [jobIdField, simplifyField];

export const output = 'job';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const jobId = requireId.call(this, 'jobId', itemIndex, jobIdField.displayName);
	const job = await recruitingRequestData.call(this, {
		method: 'GET',
		path: resourcePath('jobs', jobId),
		itemIndex,
		notFound: `job "${jobId}"`,
	});
	return isSimplified.call(this, itemIndex) ? simplifyJob(job) : job;
}
