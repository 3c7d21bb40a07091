/** Editor fields shared by the operations: builders of INodeProperties only, no runtime code. */
import type { INodeProperties } from 'n8n-workflow';
import { toolListProperties } from './toolMode';
import type { OperationOption } from './types';

/**
 * The Get Many option of an Operation selector: `getManyOption('Lists the tags…', 'Get many
 * tags')`. The action is a label for people (at most 50 characters): n8n names a node added from
 * the panel after it, and describes a tool by it plus " in Recruiting".
 */
export function getManyOption(description: string, action: string, toolDescription?: string): OperationOption {
	return { name: 'Get Many', value: 'getMany', description, action, ...(toolDescription !== undefined && { toolDescription }) };
}

/** Return All / Limit, as every list operation shows them; as an AI agent's tool, Limit and Page. */
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
		displayOptions: { show: { returnAll: [false] }, hide: { '@tool': [true] } },
	},
	...toolListProperties,
];

/** The escape hatch for query parameters the service accepts but the node does not model. */
export const additionalQueryOption: INodeProperties = {
	displayName: 'Additional Query Parameters',
	name: 'additionalQuery',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Parameter',
	default: {},
	description: 'Extra query parameters to send with every page request; only for parameters the service documents',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					description: 'Name of a query parameter the service accepts that this operation has no field for',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description: 'The value of that query parameter, sent as text',
				},
			],
		},
	],
};

/** A collection of optional fields, each added by the user: Additional Fields, Update Fields, Options, Filters. */
export function collection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** The optional fields of a create. */
export const additionalFields = (options: INodeProperties[]): INodeProperties =>
	collection('Additional Fields', 'additionalFields', 'Add Field', options);

/** The fields of an update: only those added are sent. */
export const updateFields = (options: INodeProperties[]): INodeProperties =>
	collection('Update Fields', 'updateFields', 'Add Field', options);

/** Options that change how an operation runs or what it outputs, not what it sends. */
export const optionsCollection = (options: INodeProperties[]): INodeProperties =>
	collection('Options', 'options', 'Add option', options);

/** The Options collection of a list operation: its own options plus the escape hatch, sorted by name. */
export function listOptions(extra: INodeProperties[] = []): INodeProperties {
	return optionsCollection(
		[...extra, additionalQueryOption].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	);
}

export { idLocator, withArticle } from '../../shared/locator';

/** A required ID typed or mapped as text, where the service has no list to pick it from. */
export function idField(displayName: string, name: string, placeholder: string, description: string): INodeProperties {
	return { displayName, name, type: 'string', required: true, default: '', placeholder, description };
}

/**
 * A list of `{ id, name }` tag references (job create, candidate update); read it with
 * `tagReferences`. Each row takes a tag from the dropdown or, left on its first entry (value ''),
 * by the name typed below it; that entry also keeps the editor from flagging the empty value.
 */
export function tagsCollection(description: string): INodeProperties {
	return {
		displayName: 'Tags',
		name: 'tags',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Tag',
		default: {},
		description,
		options: [
			{
				displayName: 'Tag',
				name: 'tag',
				values: [
					{
						displayName: 'Tag Name or ID',
						name: 'id',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getTags' },
						default: '',
						hint: `Pick a tag, or leave "${TAG_BY_NAME}" and type its name below`,
						description: `The tag, from the account's tags (its ID, tag_…, as Tag → Get Many lists it); "${TAG_BY_NAME}" takes the name typed in Or Tag Name instead. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
					},
					{
						displayName: 'Or Tag Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. Senior',
						hint: 'Used when no tag is picked above: the exact name, case ignored',
						description:
							"Instead of picking a tag above: the tag's exact name (case ignored), looked up before anything is sent; an unknown name is an error",
					},
				],
			},
		],
	};
}

/** The first entry of the Tags rows' dropdown: no tag picked, the name below is used. */
export const TAG_BY_NAME = 'By Name (Below)';

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
		// Without one n8n labels the add button "Choose...".
		placeholder: `Add ${options.displayName}`,
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

/**
 * An `{ id, name }` object of the API (a category, a source's contact…) as a group of its two text
 * fields, after any other fields it has (`first`, e.g. a language's code).
 */
export function idNameGroup(
	displayName: string,
	name: string,
	description: string,
	texts: { id: string; name: string },
	first: INodeProperties[] = [],
): INodeProperties {
	return fieldGroup({
		displayName,
		name,
		description,
		values: [
			...first,
			textField('ID', 'id', { description: texts.id }),
			textField('Name', 'name', { description: texts.name }),
		],
	});
}

/** A text parameter, empty by default. */
export function textField(
	displayName: string,
	name: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return { displayName, name, type: 'string', default: '', ...extra };
}

/** Orders options by name, as the editor lists them where the API's order means nothing to a user. */
export function byName(a: { name: string }, b: { name: string }): number {
	return a.name.localeCompare(b.name);
}
