import type { INodeProperties } from 'n8n-workflow';
import { idLocator } from '../common.descriptions';

/** Also used by the candidate note resource: a note belongs to a candidate. */
export const candidateIdField: INodeProperties = idLocator({
	name: 'candidateId',
	displayName: 'Candidate ID',
	placeholder: 'can_…',
	searchListMethod: 'searchCandidates',
	description:
		'The candidate: pick one from the list (candidates who applied to a job, searchable by name or e-mail) or give their ID (can_…), e.g. from a trigger or an application',
});

/** `candidate "can_1"`: how a 404 names the candidate. */
export const candidateNotFound = (candidateId: string): string => `candidate "${candidateId}"`;
