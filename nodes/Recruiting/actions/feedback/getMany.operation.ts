import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { resourcePath } from '../../../shared/transport';
import { checkOneOf, invalidField } from '../../../shared/validation';
import { collection, getManyOption, listOptions, returnAllAndLimit } from '../common.descriptions';
import { optionsOf } from '../../../shared/options';
import { viaFullApi } from '../fullApi';
import { getManyItems, readAdditionalQuery, readCollection } from '../helpers';
import { enteredText } from '../../../shared/text';
import { filterFetched } from '../toolMode';

export const FEEDBACK_STATUSES = ['pending', 'complete'] as const;

/** Said by both filters: the service's filter names are not published, so the node filters what it fetched. */
const AFTER_FETCHING =
	'Applied by this node to the feedback it fetched, not sent to the service (its filter names are not published): with Limit, the limit counts the feedback fetched, so fewer may come out; turn on Return All to filter the whole list';

export const option = getManyOption(
	'Lists feedback with its questions and answers (the service\'s full API), optionally only one status or form, filtered after fetching. Returns one item per feedback.',
	'Get many feedback forms',
	'Get many feedback forms (fdbk_…)',
);

export const properties: INodeProperties[] = [
	...returnAllAndLimit,
	collection('Filters', 'filters', 'Add Filter', [
		{
			displayName: 'Form ID',
			name: 'formId',
			type: 'string',
			default: '',
			placeholder: 'form_…',
			description: `Only feedback on this form (form_…). ${AFTER_FETCHING}.`,
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: optionsOf(FEEDBACK_STATUSES),
			default: 'pending',
			description: `Only pending (still to be filled in) or complete feedback. ${AFTER_FETCHING}.`,
		},
	]),
	listOptions(),
];

/** What a feedback must match, from the filters added; undefined when none was. */
function readFilter(this: IExecuteFunctions, itemIndex: number): ((feedback: IDataObject) => boolean) | undefined {
	const filters = readCollection.call(this, 'filters', itemIndex);
	const wanted: Array<[string, string]> = [];
	if (filters.formId !== undefined) {
		const formId = enteredText(filters.formId);
		if (formId === '') throw invalidField(this.getNode(), itemIndex, 'Form ID', 'a value is required, or remove the filter');
		wanted.push(['form_id', formId]);
	}
	if (filters.status !== undefined) {
		wanted.push(['status', checkOneOf(this.getNode(), itemIndex, 'Status', filters.status, FEEDBACK_STATUSES)]);
	}
	if (wanted.length === 0) return undefined;
	return (feedback) => wanted.every(([field, value]) => feedback[field] === value);
}

export const output = 'feedback';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const keep = readFilter.call(this, itemIndex);
	const qs = readAdditionalQuery(readCollection.call(this, 'options', itemIndex));
	// The list names no ID: a 404 can only mean a service without GET /feedback.
	const feedback = await viaFullApi(this, itemIndex, 'GET /feedback', async () =>
		await getManyItems.call(this, itemIndex, { path: resourcePath('feedback'), qs, plural: 'feedback' }),
	);
	return keep ? filterFetched(this, itemIndex, feedback, keep) : feedback;
}
