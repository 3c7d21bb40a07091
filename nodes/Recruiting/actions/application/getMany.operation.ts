import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { resourcePath } from '../../../shared/transport';
import { checkId, checkOneOf, invalidField } from '../../../shared/validation';
import { optionsOf } from '../../../shared/options';
import { PARENT_STAGE_OPTIONS, PARENT_STAGES } from '../../../shared/stages';
import { scalarText } from '../../../shared/text';
import { collection, getManyOption, idLocator, listOptions, returnAllAndLimit } from '../common.descriptions';
import { getManyItems, readAdditionalQuery, readCollection } from '../helpers';
import { isSimplified, simplifyApplication, simplifyField } from '../simplify';

export const SORTS = ['applied_at', '-applied_at'] as const;

/**
 * Filter parameter → query name. The service does not publish these names: they are the
 * package's documented assumption, and the additional query parameters cover any other.
 */
const ID_FILTERS = [
	{
		name: 'candidateId',
		displayName: 'Candidate',
		query: 'candidate_id',
		placeholder: 'can_…',
		searchListMethod: 'searchCandidates',
		description:
			'Only applications of this candidate: their ID (can_…), e.g. from Candidate → Get or a Recruiting Trigger item, or pick one from the list',
	},
	{
		name: 'customPipelineId',
		displayName: 'Custom Pipeline ID',
		query: 'custom_pipeline_id',
		placeholder: '',
		description: 'Only applications in this custom hiring pipeline, by the pipeline\'s ID as the service shows it',
	},
	{
		name: 'jobId',
		displayName: 'Job',
		query: 'job_id',
		placeholder: 'job_…',
		searchListMethod: 'searchJobs',
		description:
			'Only applications to this job: its ID (job_…), e.g. from Job → Get or a Recruiting Trigger item, or pick one from the list',
	},
] as const;

export const option = getManyOption(
	'Lists applications, optionally filtered by candidate, job, parent stage or custom pipeline. Returns one item per application: with Simplify on, flat fields (candidate_name, candidate_email, job_title, parent_stage…), otherwise the full application.',
	'Get many applications',
	'Get many applications (by job_… or can_…)',
);

export const properties: INodeProperties[] = [
	...returnAllAndLimit,
	simplifyField,
	collection('Filters', 'filters', 'Add Filter', [
		...ID_FILTERS.map((filter): INodeProperties => {
			const { description } = filter;
			// Candidates and jobs can be picked from the list; a pipeline ID is typed.
			if ('searchListMethod' in filter) return { ...idLocator({ ...filter, description }), required: false };
			return {
				displayName: filter.displayName,
				name: filter.name,
				type: 'string',
				default: '',
				placeholder: filter.placeholder,
				description,
			};
		}),
		{
			displayName: 'Parent Stage',
			name: 'parentStage',
			type: 'options',
			options: PARENT_STAGE_OPTIONS,
			default: 'new',
			description:
				'Only applications whose current stage belongs to this parent stage: rejected, new, screening, interviewing, offered or hired',
		},
	]),
	listOptions([
		{
			displayName: 'Sort',
			name: 'sort',
			type: 'options',
			options: optionsOf(SORTS, {
				applied_at: 'Applied At, Oldest First',
				'-applied_at': 'Applied At, Newest First',
			}),
			default: 'applied_at',
			description: 'The order of the applications, by the date and time they applied',
		},
	]),
];

/** The modeled filters and sort as query parameters; an added filter must have a value. */
function readFilters(this: IExecuteFunctions, itemIndex: number, options: IDataObject): IDataObject {
	const node = this.getNode();
	const filters = readCollection.call(this, 'filters', itemIndex);
	const qs: IDataObject = {};
	for (const filter of ID_FILTERS) {
		const raw = filters[filter.name];
		if (raw === undefined) continue;
		// A picked or typed resource locator holds the ID in `value`.
		const value = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as IDataObject).value : raw;
		const id = scalarText(value) ?? '';
		if (id.trim() === '') {
			throw invalidField(node, itemIndex, filter.displayName, 'a value is required, or remove the filter');
		}
		// Sent in the query, checked as a path ID is: a huge value would be refused by the server (431).
		qs[filter.query] = checkId(node, itemIndex, filter.displayName, id);
	}
	if (filters.parentStage !== undefined) {
		qs.parent_stage = checkOneOf(node, itemIndex, 'Parent Stage', filters.parentStage, PARENT_STAGES);
	}
	if (options.sort !== undefined) qs.sort = checkOneOf(node, itemIndex, 'Sort', options.sort, SORTS);
	return qs;
}

export const output = 'application';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const options = readCollection.call(this, 'options', itemIndex);
	// The modeled filters win over a same-named additional query parameter.
	const qs = { ...readAdditionalQuery(options), ...readFilters.call(this, itemIndex, options) };
	const applications = await getManyItems.call(this, itemIndex, {
		path: resourcePath('applications'),
		qs,
		plural: 'applications',
	});
	return isSimplified.call(this, itemIndex) ? applications.map(simplifyApplication) : applications;
}
