import type { INodeProperties } from 'n8n-workflow';
import { idLocator } from '../common.descriptions';

/** Also used by the candidate note resource: a note belongs to a candidate. */
export const candidateIdField: INodeProperties = idLocator({
	name: 'candidateId',
	displayName: 'Candidate',
	placeholder: 'can_…',
	searchListMethod: 'searchCandidates',
	description:
		'The candidate\'s ID (can_…), or pick one from the list. Take it from candidate_id of an Application → Get Many item (Simplify on) or from the candidate in a Recruiting Trigger item\'s object.',
});

/** `candidate "can_1"`: how a 404 names the candidate. */
export const candidateNotFound = (candidateId: string): string => `candidate "${candidateId}"`;
