/**
 * What the operations run: reading parameters, building request bodies, listing. Their editor
 * fields are in common.descriptions.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeListSearchItems, INodeProperties } from 'n8n-workflow';
import { recruitingRequestAllItems, recruitingRequestPage, resourcePath, runOf } from '../../shared/transport';
import { enteredText } from '../../shared/text';
import { invalidField, requireId } from '../../shared/validation';
import { readEntries, TAG_LIST } from '../lists';
import { getManyOption, listOptions, returnAllAndLimit } from './common.descriptions';
import type { ToolShape } from './simplify';
import { isToolMode, noteToolListPage, readToolPage } from './toolMode';
import type { RecruitingOperation } from './types';

/** What delete, cancel and add-tag output: the service answers them without a body. A fresh object each time, since output items are mutable. */
export function success(): IDataObject {
	return { success: true };
}

/**
 * What a delete outputs: `{ deleted: true }`, n8n's convention, from node version 1.1; version 1
 * nodes keep `{ success: true }`, so workflows built on it go on working.
 */
export function deletedOutput(this: IExecuteFunctions): IDataObject {
	return this.getNode().typeVersion >= 1.1 ? { deleted: true } : success();
}

/** A collection or fixedCollection parameter's value; {} when nothing was added. */
export function readCollection(this: IExecuteFunctions, name: string, itemIndex: number): IDataObject {
	return this.getNodeParameter(name, itemIndex, {}) as IDataObject;
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

/**
 * Runs a list operation: Return All or Limit over the pagination envelope. As an AI agent's tool,
 * without Return All: the one page the model asked for (Page, Limit), with where it stands.
 */
export async function getManyItems(
	this: IExecuteFunctions,
	itemIndex: number,
	list: { path: string; qs?: IDataObject; notFound?: string; plural: string },
): Promise<IDataObject[]> {
	const { path, qs = {}, notFound } = list;
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (!returnAll && isToolMode.call(this)) {
		const { page, pageSize } = readToolPage.call(this, itemIndex);
		const answer = await recruitingRequestPage.call(this, { path, qs, page, pageSize, itemIndex, notFound });
		// A service that ignores page_size must not hand a model more than it asked for.
		const items = answer.items.slice(0, pageSize);
		const hasNextPage = answer.hasNextPage || answer.items.length > pageSize;
		noteToolListPage(this, itemIndex, { page, pageSize, noun: list.plural, totalItems: answer.totalItems, hasNextPage });
		return items;
	}
	const limit = returnAll ? undefined : readLimit.call(this, itemIndex);
	return await recruitingRequestAllItems.call(this, { path, qs, limit, itemIndex, notFound });
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
 * over a path of fixed segments and ids:
 * `simpleGetMany(['jobs', jobIdSegment, 'notes'], { output: 'note', plural: 'job notes', description, action })`.
 */
export function simpleGetMany(
	segments: Array<string | IdSegment>,
	records: { output: ToolShape; plural: string; description: string; action: string; toolDescription?: string },
): RecruitingOperation {
	const idFields = segments.flatMap((segment) => (typeof segment === 'string' ? [] : [segment.field]));
	return {
		option: getManyOption(records.description, records.action, records.toolDescription),
		properties: [...idFields, ...returnAllAndLimit, listOptions()],
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
			let notFound: string | undefined;
			const rawSegments = segments.map((segment) => {
				if (typeof segment === 'string') return segment;
				const id = requireId.call(this, segment.field.name, itemIndex, segment.field.displayName);
				notFound = `${segment.noun} "${id}"`;
				return id;
			});
			const options = readCollection.call(this, 'options', itemIndex);
			return await getManyItems.call(this, itemIndex, {
				path: resourcePath(...rawSegments),
				qs: readAdditionalQuery(options),
				notFound,
				plural: records.plural,
			});
		},
		output: records.output,
	};
}

/** Text as typed, spaces kept; '' for nothing. An expression may give a number where the API takes text. */
export const asText = (value: unknown): string => String(value ?? '');

export { locatorValue } from '../../shared/locator';

/** `"a, b"` or `['a', 'b']` (from an expression) → `['a', 'b']`, without empty entries. */
export function splitList(value: unknown): string[] {
	const parts: unknown[] = Array.isArray(value) ? value : enteredText(value).split(',');
	return parts.map(enteredText).filter((part) => part !== '');
}

/** The entries of a fixedCollection value, `{ [inner]: entry or entries }`, whether it holds one or many. */
export function readGroups(value: unknown, inner: string): IDataObject[] {
	const entries = (value as IDataObject | undefined)?.[inner];
	if (Array.isArray(entries)) return entries as IDataObject[];
	return entries && typeof entries === 'object' ? [entries as IDataObject] : [];
}

/** The entry of a single-group fixedCollection, if the user added it. */
export function readGroup(value: unknown, inner: string): IDataObject | undefined {
	return readGroups(value, inner)[0];
}

/** Drops empty values, so a sub-field left untouched is not sent. */
export function compact(object: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(object).filter(([, value]) => value !== '' && value !== undefined && value !== null),
	);
}

/** A nested object of the body, without its empty values; undefined when none is left, so a group added but left empty is not sent. */
export function nested(object: IDataObject): IDataObject | undefined {
	const kept = compact(object);
	return Object.keys(kept).length ? kept : undefined;
}

/** `nested` over text values (the API's type for them); `toText` says whether spaces are trimmed. */
export function textObject(
	values: IDataObject,
	toText: (value: unknown) => string = enteredText,
): IDataObject | undefined {
	return nested(Object.fromEntries(Object.entries(values).map(([key, value]) => [key, toText(value)])));
}

/** How tag names compare: trimmed, one Unicode form (NFC), lower case. */
function tagNameKey(name: string): string {
	return name.trim().normalize('NFC').toLowerCase();
}

/** Tags grouped by how their shown name compares (tagNameKey). */
export function tagsByName(tags: INodeListSearchItems[]): Map<string, INodeListSearchItems[]> {
	const byName = new Map<string, INodeListSearchItems[]>();
	for (const tag of tags) {
		const key = tagNameKey(tag.name);
		byName.set(key, [...(byName.get(key) ?? []), tag]);
	}
	return byName;
}

/**
 * The one rule for a tag given by its name, wherever it is looked up (the account's tags, a
 * candidate's): the tag of that name, case and surrounding spaces ignored; undefined when none
 * has it. A name several tags share is refused naming `field`: which one was meant cannot be
 * told, and nothing has been written yet.
 */
export function tagNamedIn(
	this: IExecuteFunctions,
	itemIndex: number,
	field: string,
	tags: Map<string, INodeListSearchItems[]>,
	name: string,
): INodeListSearchItems | undefined {
	const found = tags.get(tagNameKey(name)) ?? [];
	if (found.length > 1) {
		throw invalidField(this.getNode(), itemIndex, field, `${found.length} tags are named "${name.trim()}": pick one from the list or give its ID`);
	}
	return found[0];
}

/** The account's tags by name, read once per node run (state.ts): the entries the Tag pickers offer (TAG_LIST). */
function accountTagsByName(this: IExecuteFunctions, itemIndex: number): Promise<Map<string, INodeListSearchItems[]>> {
	return runOf(this).once('accountTags', async () => tagsByName(await readEntries.call(this, TAG_LIST, itemIndex)));
}

/**
 * The account's tag with this name, as `{ id, name }`. An unknown name, or one several tags
 * share, is refused naming `field`: nothing has been written yet.
 */
export async function tagNamed(this: IExecuteFunctions, itemIndex: number, field: string, name: string): Promise<IDataObject> {
	const wanted = name.trim();
	if (wanted === '') throw invalidField(this.getNode(), itemIndex, field, 'a tag name is required');
	const found = tagNamedIn.call(this, itemIndex, field, await accountTagsByName.call(this, itemIndex), wanted);
	if (!found) {
		throw invalidField(this.getNode(), itemIndex, field, `no tag is named "${wanted}": pick it from the list or create it in the service first`);
	}
	return { id: String(found.value), name: found.name };
}

/**
 * A tag as a write takes it: exactly `{ id, name }` (recruiting-api.md), whatever else the tag
 * read carries; a field it lacks is left out, not sent empty.
 */
export function tagReference(tag: IDataObject): IDataObject {
	const reference: IDataObject = {};
	if (tag.id !== undefined) reference.id = tag.id;
	if (tag.name !== undefined) reference.name = tag.name;
	return reference;
}

/**
 * The `{ id, name }` references of a Tags list (see tagsCollection); undefined when no tag was
 * added. An entry with an ID is sent as given; one with only a name is looked up, so an unknown
 * name is refused before anything is written; one with neither is refused.
 */
export async function tagReferences(
	this: IExecuteFunctions,
	itemIndex: number,
	tags: unknown,
	toText: (value: unknown) => string = enteredText,
): Promise<IDataObject[] | undefined> {
	const entries = readGroups(tags, 'tag');
	if (entries.length === 0) return undefined;
	const references: IDataObject[] = [];
	for (const tag of entries) {
		// An ID is trimmed whatever `toText` does: spaces around it are never part of an ID.
		const reference = textObject({ id: enteredText(tag.id), name: toText(tag.name) }, asText);
		if (reference === undefined) throw invalidField(this.getNode(), itemIndex, 'Tags', 'each tag needs an ID or a name');
		references.push(reference.id === undefined ? await tagNamed.call(this, itemIndex, 'Tags', String(reference.name)) : reference);
	}
	return references;
}
