import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequest, resourcePath } from '../../../shared/transport';
import { deletedOutput } from '../helpers';
import { requireId } from '../../../shared/validation';
import { jobIdField } from './fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Delete',
	value: 'delete',
	description:
		'Permanently deletes a job; this cannot be undone. Returns { deleted: true }.',
	action: 'Delete a job',
	toolDescription: 'Permanently delete a job (job_…)',
};

export const properties: INodeProperties[] = [jobIdField];

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
