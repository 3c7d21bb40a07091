import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { recruitingRequestAllItems, resourcePath } from '../../shared/transport';
import { updateDisplayOptions } from '../../shared/updateDisplayOptions';
import { invalidField, requireId } from '../../shared/validation';
import type { RecruitingOperation } from './types';

/** A resource's Operation selector; the first option is the default unless another is named. */
export function operationSelector(
	resource: string,
	options: INodePropertyOptions[],
	defaultOperation = String(options[0].value),
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
}

/** The Get Many option of an Operation selector: `getManyOption('tags', 'List tags')`. */
export function getManyOption(plural: string, description: string): INodePropertyOptions {
	return { name: 'Get Many', value: 'getMany', description, action: `Get many ${plural}` };
}

/** Return All / Limit, as every list operation shows them. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** The escape hatch for query parameters the service accepts but the node does not model. */
export const additionalQueryOption: INodeProperties = {
	displayName: 'Additional Query Parameters',
	name: 'additionalQuery',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	description: 'Extra query parameters to send with every page request',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

/** The Options collection of a list operation: its own options plus the escape hatch, sorted by name. */
export function listOptions(extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...extra, additionalQueryOption].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

/** Paging is owned by the node: these names cannot be overridden from the escape hatch. */
const RESERVED_QUERY = new Set(['page', 'page_size']);

export function readAdditionalQuery(options: IDataObject): IDataObject {
	const pairs = ((options.additionalQuery as IDataObject | undefined)?.parameter ?? []) as Array<{
		name: string;
		value: string;
	}>;
	const qs: IDataObject = {};
	for (const { name, value } of pairs) {
		if (name && !RESERVED_QUERY.has(name)) qs[name] = value;
	}
	return qs;
}

/** Limit: a whole number of at least 1 (a numeric string from an expression counts). */
function readLimit(this: IExecuteFunctions, itemIndex: number): number {
	const value: unknown = this.getNodeParameter('limit', itemIndex, 50);
	const limit = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
		throw invalidField(this.getNode(), itemIndex, 'Limit', 'must be a whole number of at least 1');
	}
	return limit;
}

/** Runs a list operation: Return All or Limit over the pagination envelope. */
export async function getManyItems(
	this: IExecuteFunctions,
	itemIndex: number,
	path: string,
	qs: IDataObject = {},
	notFound?: string,
): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? undefined : readLimit.call(this, itemIndex);
	return await recruitingRequestAllItems.call(this, { path, qs, limit, itemIndex, notFound });
}

interface IdLocatorOptions {
	name: string;
	displayName: string;
	placeholder: string;
	/** A listSearch method name, where the service has a list to pick from. */
	searchListMethod?: string;
	/** Offer a "By Name" mode too (the operation resolves the name to an ID before writing). */
	byNamePlaceholder?: string;
	description?: string;
}

/** An id parameter: picked from a list where one exists, or typed/mapped by ID. */
export function idLocator(options: IdLocatorOptions): INodeProperties {
	const byId = { displayName: 'By ID', name: 'id', type: 'string' as const, placeholder: options.placeholder };
	const fromList = options.searchListMethod && {
		displayName: 'From List',
		name: 'list',
		type: 'list' as const,
		placeholder: `Select a ${options.displayName.replace(/ ID$/, '').toLowerCase()}...`,
		typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
	};
	const byName = options.byNamePlaceholder !== undefined && {
		displayName: 'By Name',
		name: 'name',
		type: 'string' as const,
		placeholder: options.byNamePlaceholder,
	};
	const modes: INodeProperties['modes'] = [
		...(fromList ? [fromList] : []),
		byId,
		...(byName ? [byName] : []),
	];
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: options.searchListMethod ? 'list' : 'id', value: '' },
		required: true,
		description: options.description,
		modes,
	};
}

/** A path segment read from an id parameter of the operation. */
export interface IdSegment {
	/** The parameter; its displayName names it in validation errors. */
	field: INodeProperties;
	/** What the id identifies, for the 404 message: `job` → `The job "job_1" was not found`. */
	noun: string;
}

/**
 * A Get Many operation with nothing but Return All, Limit and the additional query escape hatch,
 * over a path of fixed segments and ids: `simpleGetMany('jobNote', ['jobs', jobIdSegment, 'notes'])`.
 */
export function simpleGetMany(resource: string, segments: Array<string | IdSegment>): RecruitingOperation {
	const idFields = segments.flatMap((segment) => (typeof segment === 'string' ? [] : [segment.field]));
	return {
		description: updateDisplayOptions({ show: { resource: [resource], operation: ['getMany'] } }, [
			...idFields,
			...returnAllAndLimit,
			listOptions(),
		]),
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
			let notFound: string | undefined;
			const rawSegments = segments.map((segment) => {
				if (typeof segment === 'string') return segment;
				const id = requireId.call(this, segment.field.name, itemIndex, segment.field.displayName);
				notFound = `${segment.noun} "${id}"`;
				return id;
			});
			const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
			return await getManyItems.call(
				this,
				itemIndex,
				resourcePath(...rawSegments),
				readAdditionalQuery(options),
				notFound,
			);
		},
	};
}

/** A list of `{ id, name }` tag references (job create, candidate update); read it with `entry.tag`. */
export function tagsCollection(description: string): INodeProperties {
	return {
		displayName: 'Tags',
		name: 'tags',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		description,
		options: [
			{
				displayName: 'Tag',
				name: 'tag',
				values: [
					{ displayName: 'ID', name: 'id', type: 'string', default: '', placeholder: 'tag_…' },
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				],
			},
		],
	};
}

interface FieldGroupOptions {
	displayName: string;
	name: string;
	/** The inner group's name: the parameter value reads `{ [name]: { [inner]: … } }`. */
	inner?: string;
	values: INodeProperties[];
	multipleValues?: boolean;
	description?: string;
}

/** A nested object of the API (a location, a deadline…) as one group of fields in the editor. */
export function fieldGroup(options: FieldGroupOptions): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'fixedCollection',
		typeOptions: options.multipleValues ? { multipleValues: true } : undefined,
		default: {},
		description: options.description,
		options: [
			{
				displayName: options.displayName,
				name: options.inner ?? options.name,
				values: options.values,
			},
		],
	};
}

/** The entries of a `fieldGroup` parameter value, whether it holds one group or many. */
export function groupEntries(fields: IDataObject, name: string, inner = name): IDataObject[] {
	const value = (fields[name] as IDataObject | undefined)?.[inner];
	if (Array.isArray(value)) return value as IDataObject[];
	return value && typeof value === 'object' ? [value as IDataObject] : [];
}

/** Drops empty values, so a sub-field left untouched is not sent. */
export function compact(object: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(object).filter(([, value]) => value !== '' && value !== undefined && value !== null),
	);
}

/** The object if it has a key, else undefined: a group added with every field left empty is not sent. */
export function nonEmpty(object: IDataObject): IDataObject | undefined {
	return Object.keys(object).length ? object : undefined;
}
