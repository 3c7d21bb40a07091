import type { INodeProperties } from 'n8n-workflow';

/** Also used by the candidate note resource: a note belongs to a candidate. */
export const candidateIdField: INodeProperties = {
	displayName: 'Candidate ID',
	name: 'candidateId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'can_…',
	description: 'The ID of the candidate',
};

/** `candidate "can_1"`: how a 404 names the candidate. */
export const candidateNotFound = (candidateId: string): string => `candidate "${candidateId}"`;
