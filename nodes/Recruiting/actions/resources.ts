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
import * as user from './user';
import * as userCategory from './userCategory';
import * as webhook from './webhook';
import { toolOutputProperties } from './toolMode';
import type { OperationMap } from './types';

/**
 * Every resource, once: the Resource selector lists them in this order, their editor fields
 * follow in the same order, and the router dispatches through their operations.
 */
const RESOURCES = [
	{ name: 'Application', value: 'application', module: application },
	{ name: 'Application Form', value: 'applicationForm', module: applicationForm },
	{ name: 'Candidate', value: 'candidate', module: candidate },
	{ name: 'Candidate Note', value: 'candidateNote', module: candidateNote },
	{ name: 'Email Template', value: 'emailTemplate', module: emailTemplate },
	{ name: 'Feedback', value: 'feedback', module: feedback },
	{ name: 'Interview', value: 'interview', module: interview },
	{ name: 'Job', value: 'job', module: job },
	{ name: 'Job Note', value: 'jobNote', module: jobNote },
	{ name: 'Tag', value: 'tag', module: tag },
	{ name: 'User', value: 'user', module: user },
	{ name: 'User Category', value: 'userCategory', module: userCategory },
	{ name: 'Webhook', value: 'webhook', module: webhook },
] satisfies Array<{ name: string; value: string; module: { operations: OperationMap; description: INodeProperties[] } }>;

/** Resource → its operations; the router dispatches through this map. */
export const resources: Record<string, OperationMap> = Object.fromEntries(
	RESOURCES.map(({ value, module }) => [value, module.operations]),
);

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	description: 'The kind of record in the recruiting service to work with',
	options: RESOURCES.map(({ name, value }) => ({ name, value })),
	default: 'application',
};

/** The operations of a resource that output records (not only `{ success }`): an AI tool's Output option. */
function recordOperations(operations: OperationMap): string[] {
	return Object.entries(operations)
		.filter(([, operation]) => operation.output !== undefined)
		.map(([name]) => name);
}

/** Every resource's operation selector and fields, in resource order; an AI tool's Output last. */
export const resourceDescriptions: INodeProperties[] = RESOURCES.flatMap(({ value, module }) => {
	const withOutput = recordOperations(module.operations);
	return [...module.description, ...(withOutput.length ? toolOutputProperties(value, withOutput) : [])];
});
