import type { INodeProperties } from 'n8n-workflow';
import * as application from './application';
import * as applicationForm from './applicationForm';
import * as candidate from './candidate';
import * as candidateNote from './candidateNote';
import * as emailTemplate from './emailTemplate';
import * as feedback from './feedback';
import * as interview from './interview';
import * as job from './job';
import * as jobNote from './jobNote';
import * as tag from './tag';
import * as userCategory from './userCategory';
import * as webhook from './webhook';
import type { OperationMap } from './types';

/** Resource → its operations; the router dispatches through this map. */
export const resources = {
	application: application.operations,
	applicationForm: applicationForm.operations,
	candidate: candidate.operations,
	candidateNote: candidateNote.operations,
	emailTemplate: emailTemplate.operations,
	feedback: feedback.operations,
	interview: interview.operations,
	job: job.operations,
	jobNote: jobNote.operations,
	tag: tag.operations,
	userCategory: userCategory.operations,
	webhook: webhook.operations,
} satisfies Record<string, OperationMap>;

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Application', value: 'application' },
		{ name: 'Application Form', value: 'applicationForm' },
		{ name: 'Candidate', value: 'candidate' },
		{ name: 'Candidate Note', value: 'candidateNote' },
		{ name: 'Email Template', value: 'emailTemplate' },
		{ name: 'Feedback', value: 'feedback' },
		{ name: 'Interview', value: 'interview' },
		{ name: 'Job', value: 'job' },
		{ name: 'Job Note', value: 'jobNote' },
		{ name: 'Tag', value: 'tag' },
		{ name: 'User Category', value: 'userCategory' },
		{ name: 'Webhook', value: 'webhook' },
	],
	default: 'application',
};

/** Every resource's operation selector and fields, in resource order. */
export const resourceDescriptions: INodeProperties[] = [
	...application.description,
	...applicationForm.description,
	...candidate.description,
	...candidateNote.description,
	...emailTemplate.description,
	...feedback.description,
	...interview.description,
	...job.description,
	...jobNote.description,
	...tag.description,
	...userCategory.description,
	...webhook.description,
];
