import type { INodeProperties } from 'n8n-workflow';
import { idLocator } from '../common.descriptions';

export const jobIdField: INodeProperties = idLocator({
	name: 'jobId',
	displayName: 'Job',
	placeholder: 'job_…',
	searchListMethod: 'searchJobs',
	description:
		'The job\'s ID (job_…), or pick one from the list (jobs that have applications). Take it from job_id of an Application → Get Many item (Simplify on) or from a Recruiting Trigger item\'s object on job events.',
});
