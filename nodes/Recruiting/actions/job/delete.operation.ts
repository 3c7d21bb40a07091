import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequest, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { deletedOutput } from '../helpers';
import { requireId } from '../../../shared/validation';
import { jobIdField } from './fields';

const properties: INodeProperties[] = [jobIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const jobId = requireId.call(this, 'jobId', itemIndex, jobIdField.displayName);
	await recruitingRequest.call(this, {
		method: 'DELETE',
		path: resourcePath('jobs', jobId),
		itemIndex,
		notFound: `job "${jobId}"`,
	});
	return deletedOutput.call(this);
}
