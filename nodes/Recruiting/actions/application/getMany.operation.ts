import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { checkOneOf, invalidField } from '../../../shared/validation';
import {
	getManyItems,
	listOptions,
	readAdditionalQuery,
	returnAllAndLimit,
} from '../common.descriptions';

export const PARENT_STAGES = ['rejected', 'new', 'screening', 'interviewing', 'offered', 'hired'] as const;

/** The six stages as editor options ("New", …); the trigger's Parent Stages filter uses them too. */
export const PARENT_STAGE_OPTIONS = PARENT_STAGES.map((stage) => ({
	name: stage.charAt(0).toUpperCase() + stage.slice(1),
	value: stage,
}));

const SORTS = ['applied_at', '-applied_at'] as const;

/**
 * Filter parameter → query name. The service does not publish these names: they are the
 * package's documented assumption, and the additional query parameters cover any other.
 */
const ID_FILTERS = [
	{ name: 'candidateId', displayName: 'Candidate ID', query: 'candidate_id', placeholder: 'can_…' },
	{ name: 'customPipelineId', displayName: 'Custom Pipeline ID', query: 'custom_pipeline_id', placeholder: '' },
	{ name: 'jobId', displayName: 'Job ID', query: 'job_id', placeholder: 'job_…' },
] as const;

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			...ID_FILTERS.map(
				(filter): INodeProperties => ({
					displayName: filter.displayName,
					name: filter.name,
					type: 'string',
					default: '',
					placeholder: filter.placeholder,
					description: `Only applications with this ${filter.displayName.replace(/ ID$/, '').toLowerCase()} ID`,
				}),
			),
			{
				displayName: 'Parent Stage',
				name: 'parentStage',
				type: 'options',
				options: PARENT_STAGE_OPTIONS,
				default: 'new',
				description: 'Only applications in this stage of the pipeline',
			},
		],
	},
	listOptions([
		{
			displayName: 'Sort',
			name: 'sort',
			type: 'options',
			options: [
				{ name: 'Applied At, Oldest First', value: 'applied_at' },
				{ name: 'Applied At, Newest First', value: '-applied_at' },
			],
			default: 'applied_at',
			description: 'The order of the applications',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['application'], operation: ['getMany'] } },
	properties,
);

/** The modeled filters and sort as query parameters; an added filter must have a value. */
function readFilters(this: IExecuteFunctions, itemIndex: number, options: IDataObject): IDataObject {
	const node = this.getNode();
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	for (const filter of ID_FILTERS) {
		const value = filters[filter.name];
		if (value === undefined) continue;
		const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
		if (text.trim() === '') {
			throw invalidField(node, itemIndex, filter.displayName, 'a value is required, or remove the filter');
		}
		qs[filter.query] = text;
	}
	if (filters.parentStage !== undefined) {
		qs.parent_stage = checkOneOf(node, itemIndex, 'Parent Stage', filters.parentStage, PARENT_STAGES);
	}
	if (options.sort !== undefined) qs.sort = checkOneOf(node, itemIndex, 'Sort', options.sort, SORTS);
	return qs;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	// The modeled filters win over a same-named additional query parameter.
	const qs = { ...readAdditionalQuery(options), ...readFilters.call(this, itemIndex, options) };
	return await getManyItems.call(this, itemIndex, resourcePath('applications'), qs);
}
