import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { parseIdList } from './filters';

/** ID pickers (resource locators), as both nodes show and read them. */

export interface IdLocatorOptions {
	name: string;
	displayName: string;
	placeholder: string;
	/** A listSearch method name, where the service has a list to pick from. */
	searchListMethod?: string;
	/** Offer a "By Name" mode too (the operation resolves the name to an ID before writing). */
	byNamePlaceholder?: string;
	description?: string;
}

/** `an application`, `a job`: the indefinite article for a noun, by its first letter ("a user": u sounds as a consonant in the nouns here). */
export const withArticle = (noun: string): string => `${/^[aeio]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** An id parameter: picked from a list where one exists, or typed/mapped by ID. */
export function idLocator(options: IdLocatorOptions): INodeProperties {
	const byId = { displayName: 'By ID', name: 'id', type: 'string' as const, placeholder: options.placeholder };
	const fromList = options.searchListMethod && {
		displayName: 'From List',
		name: 'list',
		type: 'list' as const,
		placeholder: `Select ${withArticle(options.displayName.replace(/ ID$/, '').toLowerCase())}...`,
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

/**
 * The ID in a picker inside a collection (n8n does not extract those): a resource locator holds it
 * in `value`; a plain ID, as a workflow made before the picker holds it, is the ID itself.
 */
export function locatorValue(raw: unknown): unknown {
	return typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as IDataObject).value : raw;
}

/**
 * Rows of ID pickers (a fixedCollection), one ID a row: picked from the list the search method
 * gives (the jobs found on the applications: the service lists no jobs), or given by ID.
 */
export function idRows(options: { name: string; displayName: string; row: string; rowName: string; placeholder: string; searchListMethod: string }): INodeProperties {
	const noun = options.rowName.toLowerCase();
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: `Add ${options.rowName}`,
		default: {},
		options: [
			{
				name: `${options.row}s`,
				displayName: options.rowName,
				values: [
					idLocator({
						name: options.row,
						displayName: options.rowName,
						placeholder: options.placeholder,
						searchListMethod: options.searchListMethod,
						description: `Pick ${withArticle(noun)} (${noun}s that have applications, found by title), or give its ID (${options.placeholder.replace(/_.*/, '_…')})`,
					}),
				],
			},
		],
	};
}

/**
 * The IDs in an `idRows` value, or in the text field it replaced (`job_a, job_b`), or in what an
 * expression gives in either (an array of IDs, one ID, or several in one row): each once, in order.
 */
export function idsInRows(raw: unknown, row: string): string[] {
	const rows = typeof raw === 'object' && raw !== null && !Array.isArray(raw) && `${row}s` in raw ? (raw as IDataObject)[`${row}s`] : raw;
	const ids = (value: unknown): string[] => {
		const id = locatorValue(value);
		if (Array.isArray(id)) return id.flatMap(ids);
		return [...parseIdList(typeof id === 'number' ? String(id) : id)];
	};
	const list = Array.isArray(rows) ? rows.map((entry) => (typeof entry === 'object' && entry !== null && row in entry ? (entry as IDataObject)[row] : entry)) : [rows];
	return [...new Set(list.flatMap(ids))];
}
