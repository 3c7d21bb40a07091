import type { INodeProperties } from 'n8n-workflow';
import { idLocator } from '../common.descriptions';

export const jobIdField: INodeProperties = idLocator({
	name: 'jobId',
	displayName: 'Job ID',
	placeholder: 'job_…',
	searchListMethod: 'searchJobs',
	description:
		'The job: pick one from the list (jobs that have applications, searchable by title) or give its ID (job_…), e.g. from an application\'s job.id',
});
