import type { INodeProperties } from 'n8n-workflow';

export const jobIdField: INodeProperties = {
	displayName: 'Job ID',
	name: 'jobId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'job_…',
	description: 'The ID of the job',
};
