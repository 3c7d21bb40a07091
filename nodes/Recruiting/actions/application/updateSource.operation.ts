import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { checkOneOf, checkSomeFields } from '../../../shared/validation';
import { idNameGroup, textField, updateFields } from '../common.descriptions';
import { optionsOf } from '../../../shared/options';
import { candidateLacks, viaFullApi } from '../fullApi';
import { compact, locatorValue, readCollection, readGroup, textObject } from '../helpers';
import { enteredText } from '../../../shared/text';
import { userLocator } from '../user/fields';
import { applicationAndCandidate, applicationCandidateField, applicationIdField, applicationNotFound } from './fields';
import type { OperationOption } from '../types';

/** How the candidate came to the application (service-facts.md, as the reference lists them). */
export const SOURCE_ORIGINS = [
	'added',
	'applied',
	'interested',
	'referred',
	'candidate_pool',
	'hire_hive_import',
	'agency_submission',
] as const;

/** A `{ id, name }` of the source. */
const reference = (displayName: string, name: string, what: string): INodeProperties =>
	idNameGroup(displayName, name, `The ${what}, by ID and/or name as the service shows them`, {
		id: `The ID of the ${what} as the service shows it`,
		name: `The name of the ${what}, as plain text`,
	});

export const option: OperationOption = {
	name: 'Update Source',
	value: 'updateSource',
	description:
		'Sets where an application came from: origin, source name, contact, user, recruiter (the service\'s full API; only the fields given are sent). Returns the application\'s source.',
	action: 'Update an application\'s source',
	toolDescription: 'Update an application\'s source (app_…)',
};

export const properties: INodeProperties[] = [
	applicationIdField,
	applicationCandidateField,
	updateFields([
		reference('Contact', 'contact', 'contact the candidate came through (e.g. a referrer)'),
		{
			displayName: 'Origin',
			name: 'origin',
			type: 'options',
			options: optionsOf(SOURCE_ORIGINS, { hire_hive_import: 'HireHive Import' }),
			default: 'added',
			description:
				'How the candidate came to the application: added, applied, interested, referred, candidate_pool, hire_hive_import or agency_submission',
		},
		reference('Recruiter', 'recruiter', 'recruiter (e.g. of an agency) the candidate came through'),
		textField('Source Name', 'source', {
			placeholder: 'LinkedIn',
			description: 'Where the candidate came from, as plain text, e.g. a job board such as LinkedIn',
		}),
		userLocator(
			'user',
			'User',
			'The company user the candidate came through (e.g. who referred them): pick one from the list, or give their ID (usr_…)',
			false,
		),
	]),
];

export const output = 'source';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const fields = readCollection.call(this, 'updateFields', itemIndex);
	const body: IDataObject = {};
	if (fields.origin !== undefined) body.origin = checkOneOf(node, itemIndex, 'Origin', fields.origin, SOURCE_ORIGINS);
	if (enteredText(fields.source) !== '') body.source = enteredText(fields.source);
	const contact = readGroup(fields.contact, 'contact');
	if (contact) body.contact = textObject({ id: contact.id, name: contact.name });
	const userId = enteredText(locatorValue(fields.user));
	if (userId !== '') body.user = { id: userId };
	const recruiter = readGroup(fields.recruiter, 'recruiter');
	if (recruiter) body.recruiter = textObject({ id: recruiter.id, name: recruiter.name });
	// Checked before the candidate is looked up: a run that would send nothing sends no request either.
	const sent = checkSomeFields(node, itemIndex, compact(body));

	const ids = await applicationAndCandidate.call(this, itemIndex);
	return await viaFullApi(
		this,
		itemIndex,
		'PUT /candidates/{candidate_id}/applications/{application_id}/source',
		async () =>
			await recruitingRequestData.call(this, {
				method: 'PUT',
				path: resourcePath('candidates', ids.candidateId, 'applications', ids.applicationId, 'source'),
				body: sent,
				itemIndex,
				notFound: applicationNotFound(ids),
			}),
		async () => await candidateLacks.call(this, itemIndex, ids.candidateId, ids.applicationId),
	);
}
