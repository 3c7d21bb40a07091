import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { MAX_PAGE_SIZE, recruitingRequestPage, resourcePath, walkInOrder } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { candidateIdField } from '../candidate/fields';
import { idLocator } from '../common.descriptions';
import { enteredText, scalarText } from '../../../shared/text';

/** Pages of GET /applications the candidate lookup reads at most: 10,000 applications, as the pickers. */
const LOOKUP_PAGES = 100;

/** One application, from the list the Application → Get Many operation shows, or by ID. */
export const applicationIdField: INodeProperties = idLocator({
	name: 'applicationId',
	displayName: 'Application',
	placeholder: 'app_…',
	searchListMethod: 'searchApplications',
	description:
		'The application (app_…), or pick one from the list (candidate — job, searched by name and e-mail); e.g. the ID of an Application → Get Many item or of an application.* trigger item\'s object',
});

/** The application's candidate: the service reads an application under its candidate's path. */
export const applicationCandidateField: INodeProperties = {
	...candidateIdField,
	required: false,
	default: { mode: 'id', value: '' },
	description:
		'The ID (can_…) of the application\'s candidate, e.g. candidate_id of an Application → Get Many item (Simplify on). Leave empty to have it found from the application: one extra request (GET /applications, 100 per page) when the application is among the first 100 the service lists, one more for each further 100',
};

/**
 * The candidate of an application, read off the application list page by page until it is there:
 * the reference has no way to read one application without its candidate's ID.
 */
async function candidateOfApplication(this: IExecuteFunctions, itemIndex: number, applicationId: string): Promise<string> {
	let candidateId = '';
	// One page at a time (window 1): the field hint promises one extra request per 100 applications.
	await walkInOrder({
		first: 1,
		last: LOOKUP_PAGES,
		window: 1,
		start: async (page) =>
			await recruitingRequestPage.call(this, { path: resourcePath('applications'), page, pageSize: MAX_PAGE_SIZE, itemIndex }),
		accept: (_page, { items, hasNextPage }) => {
			const application = items.find((item) => item.id === applicationId);
			if (application) candidateId = scalarText((application.candidate as IDataObject | undefined)?.id)?.trim() ?? '';
			return application !== undefined || !hasNextPage;
		},
	});
	if (candidateId !== '') return candidateId;
	throw new NodeApiError(this.getNode(), { applicationId } as JsonObject, {
		message: `The application "${applicationId}" was not found`,
		description: `It is not among the first ${LOOKUP_PAGES * MAX_PAGE_SIZE} applications the service lists with their candidate (GET /applications). Give its Candidate ID as well.`,
		httpCode: '404',
		itemIndex,
	});
}

/** The application's ID and its candidate's: given, or found from the application. */
export async function applicationAndCandidate(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<{ applicationId: string; candidateId: string }> {
	const applicationId = requireId.call(this, 'applicationId', itemIndex, applicationIdField.displayName);
	const given = enteredText(this.getNodeParameter('candidateId', itemIndex, '', { extractValue: true }));
	const candidateId = given.trim() !== ''
		? requireId.call(this, 'candidateId', itemIndex, candidateIdField.displayName)
		: await candidateOfApplication.call(this, itemIndex, applicationId);
	return { applicationId, candidateId };
}

/** `application "app_1" of candidate "can_1"`: how a 404 names the application. */
export const applicationNotFound = ({ applicationId, candidateId }: { applicationId: string; candidateId: string }): string =>
	`application "${applicationId}" of candidate "${candidateId}"`;
