import type { INodeProperties } from 'n8n-workflow';
import { application } from './application';
import { applicationForm } from './applicationForm';
import { candidate } from './candidate';
import { candidateNote } from './candidateNote';
import type { RecruitingResource } from './defineResource';
import { emailTemplate } from './emailTemplate';
import { feedback } from './feedback';
import { interview } from './interview';
import { job } from './job';
import { jobNote } from './jobNote';
import { tag } from './tag';
import { user } from './user';
import { userCategory } from './userCategory';
import { webhook } from './webhook';
import type { OperationMap } from './types';

/**
 * Every resource, once: the Resource selector lists them in this order, their editor fields
 * follow in the same order, and the router dispatches through their operations.
 */
const RESOURCES: RecruitingResource[] = [
	application,
	applicationForm,
	candidate,
	candidateNote,
	emailTemplate,
	feedback,
	interview,
	job,
	jobNote,
	tag,
	user,
	userCategory,
	webhook,
];

/** Resource → its operations; the router dispatches through this map. */
export const resources: Record<string, OperationMap> = Object.fromEntries(
	RESOURCES.map(({ value, operations }) => [value, operations]),
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

/** Every resource's operation selector and fields, in resource order. */
export const resourceDescriptions: INodeProperties[] = RESOURCES.flatMap(({ description }) => description);
