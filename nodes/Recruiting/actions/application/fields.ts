import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { MAX_PAGE_SIZE, recruitingRequestPage, resourcePath, runOf } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { candidateIdField } from '../candidate/fields';
import { idLocator } from '../common.descriptions';
import { enteredText, scalarText } from '../../../shared/text';

/** Pages of GET /applications the candidate lookup reads at most: 10,000 applications, as the pickers. */
const LOOKUP_PAGES = 100;

/** One application, from the list the Application → Get Many operation shows, or by ID. */
export function applicationLocator(description: string): INodeProperties {
	return idLocator({ name: 'applicationId', displayName: 'Application', placeholder: 'app_…', searchListMethod: 'searchApplications', description });
}

export const applicationIdField = applicationLocator(
	'The application (app_…), or pick one from the list (candidate — job, searched by name and e-mail); e.g. the ID of an Application → Get Many item or of an application.* trigger item\'s object',
);

/** The application's candidate: the service reads an application under its candidate's path. */
export const applicationCandidateField: INodeProperties = {
	...candidateIdField,
	required: false,
	default: { mode: 'id', value: '' },
	description:
		'The ID (can_…) of the application\'s candidate, e.g. candidate_id of an Application → Get Many item (Simplify on). Leave empty to have it found from the application: one extra request (GET /applications, 100 per page) when the application is among the first 100 the service lists, one more for each further 100',
};

/**
 * The application list read so far in this run, page by page, as application → candidate: the
 * reference has no way to read one application without its candidate's ID. One per run (state.ts),
 * so 500 items without a candidate read the list once between them, not once each.
 */
class ApplicationDirectory {
	private readonly candidates = new Map<string, string>();
	private pagesRead = 0;
	private complete = false;
	/** The page being read: the items that need it wait for the same request. */
	private reading: Promise<void> | undefined;

	constructor(private readonly context: IExecuteFunctions) {}

	/** The application's candidate ID; '' once the list (or LOOKUP_PAGES of it) is read without it. */
	async candidateOf(applicationId: string, itemIndex: number): Promise<string> {
		for (;;) {
			const known = this.candidates.get(applicationId);
			if (known !== undefined) return known;
			if (this.complete) return '';
			this.reading ??= this.readNextPage(itemIndex).finally(() => (this.reading = undefined));
			await this.reading;
		}
	}

	private async readNextPage(itemIndex: number): Promise<void> {
		const page = this.pagesRead + 1;
		const { items, hasNextPage } = await recruitingRequestPage.call(this.context, {
			path: resourcePath('applications'),
			page,
			pageSize: MAX_PAGE_SIZE,
			itemIndex,
		});
		for (const item of items) {
			const candidateId = scalarText((item.candidate as IDataObject | undefined)?.id)?.trim() ?? '';
			if (typeof item.id === 'string' && candidateId !== '') this.candidates.set(item.id, candidateId);
		}
		this.pagesRead = page;
		this.complete = !hasNextPage || page >= LOOKUP_PAGES;
	}
}

/** The candidate of an application, from the run's directory (read one page at a time, as needed). */
async function candidateOfApplication(this: IExecuteFunctions, itemIndex: number, applicationId: string): Promise<string> {
	const directory = await runOf(this).once('applicationDirectory', async () => new ApplicationDirectory(this));
	const candidateId = await directory.candidateOf(applicationId, itemIndex);
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
