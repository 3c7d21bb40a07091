import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { checkId, invalidField, requireId } from '../../../shared/validation';
import { candidateIdField, candidateNotFound } from '../candidate/fields';
import { applicationLocator } from '../application/fields';
import { additionalFields } from '../common.descriptions';
import { candidateLacks, viaFullApi } from '../fullApi';
import { locatorValue, readCollection, splitList } from '../helpers';
import { enteredText } from '../../../shared/text';
import { usersField } from '../user/fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Create',
	value: 'create',
	description:
		'Adds a note to a candidate, optionally about one of their applications, mentioning users (the service\'s full API). Returns the created note.',
	action: 'Add a note to a candidate',
	toolDescription: 'Add a note to a candidate (can_…)',
};

export const properties: INodeProperties[] = [
	{
		...candidateIdField,
		description:
			'The ID (can_…) of the candidate the note is about, or pick the candidate from the list; e.g. candidate_id of an Application → Get Many item (Simplify on)',
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: 'The note\'s text, e.g. the result of an AI screening; it may not be empty',
	},
	additionalFields([
		{
			...applicationLocator('The application (app_…) of this candidate the note is about, or pick one from the list; leave out for a note on the candidate'),
			required: false,
		},
		usersField('Mentioned User Names or IDs', 'mentionedUsers', 'The users (usr_…) to mention in the note'),
		{
			displayName: 'Restricted',
			name: 'restricted',
			type: 'boolean',
			default: false,
			description: 'Whether only privileged users may see the note',
		},
	]),
];

export const output = 'note';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const candidateId = requireId.call(this, 'candidateId', itemIndex, candidateIdField.displayName);
	const noteText = this.getNodeParameter('text', itemIndex, '') as unknown;
	// Sent as written; only a text of nothing but spaces is refused.
	if (enteredText(noteText) === '') throw invalidField(this.getNode(), itemIndex, 'Text', 'a note needs some text');
	const fields = readCollection.call(this, 'additionalFields', itemIndex);

	const body: IDataObject = { text: String(noteText) };
	const mentioned = splitList(fields.mentionedUsers);
	if (mentioned.length) body.mentioned_users = mentioned;
	if (fields.restricted !== undefined) body.restricted = fields.restricted === true;
	// Checked as a path ID is: it goes into the request line (a 10,000-character one is refused there, 431).
	const given = locatorValue(fields.applicationId);
	const applicationId = enteredText(given) === '' ? '' : checkId(this.getNode(), itemIndex, 'Application', given);

	return await viaFullApi(
		this,
		itemIndex,
		'POST /candidates/{candidate_id}/notes',
		async () =>
			await recruitingRequestData.call(this, {
				method: 'POST',
				path: resourcePath('candidates', candidateId, 'notes'),
				qs: applicationId ? { application_id: applicationId } : undefined,
				body,
				itemIndex,
				notFound: applicationId ? `application "${applicationId}" of candidate "${candidateId}"` : candidateNotFound(candidateId),
			}),
		async () => await candidateLacks.call(this, itemIndex, candidateId, applicationId || undefined),
	);
}
