import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { isSimplified, simplifyField, simplifyJob } from '../simplify';
import { jobIdField } from './fields';

const properties: INodeProperties[] = [jobIdField, simplifyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['get'] } },
	properties,
);

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
