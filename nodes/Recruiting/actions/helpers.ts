/**
 * What the operations run: reading parameters, building request bodies, listing. Their editor
 * fields are in common.descriptions.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestAllItems, resourcePath } from '../../shared/transport';
import { updateDisplayOptions } from '../../shared/updateDisplayOptions';
import { invalidField, requireId } from '../../shared/validation';
import { listOptions, returnAllAndLimit } from './common.descriptions';
import type { RecruitingOperation } from './types';

/** What delete, cancel and add-tag output: the service answers them without a body. A fresh object each time, since output items are mutable. */
export function success(): IDataObject {
	return { success: true };
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
