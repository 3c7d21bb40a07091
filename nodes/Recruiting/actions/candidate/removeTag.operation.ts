import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { TAG_LIST } from '../../lists';
import { success, tagNamedIn, tagReference, tagsByName } from '../helpers';
import { candidateIdField, candidateNotFound } from './fields';
import { readTagId, tagField } from './tag';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Remove Tag',
	value: 'removeTag',
	description:
		'Removes one tag from a candidate by reading their tags and writing back all the others: a tag change made by someone else in between can be lost. Returns { success: true }.',
	action: 'Remove a tag from a candidate',
	toolDescription: 'Remove a tag from a candidate (can_…)',
};

export const properties: INodeProperties[] = [
	candidateIdField,
	tagField(
		'The tag to take off: pick it from the list, give its ID (tag_…, from Tag → Get Many or the candidate\'s tags) or, in By Name mode, its name. A value that is none of the candidate\'s tag IDs is also compared with the names of their tags (case and spaces ignored; a name two of them share is an error). A tag the candidate does not have is not an error: nothing is written.',
	),
];

/**
 * The API has no "remove tag" endpoint: the candidate's tags are read and written back without
 * this one, every other tag as the reference a write takes ({ id, name }: not the color, type or
 * status a GET may add). A tag change made in between can be lost.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const candidateId = requireId.call(this, 'candidateId', itemIndex, candidateIdField.displayName);
	const tagId = await readTagId.call(this, itemIndex);
	const path = resourcePath('candidates', candidateId);
	const notFound = candidateNotFound(candidateId);
	const candidate = await recruitingRequestData.call(this, { method: 'GET', path, itemIndex, notFound });
	// Only objects are tags: anything else in the list (a null) could not be written back.
	const tags = (Array.isArray(candidate.tags) ? (candidate.tags as unknown[]) : []).filter(
		(tag): tag is IDataObject => typeof tag === 'object' && tag !== null && !Array.isArray(tag),
	);
	let kept = tags.filter((tag) => String(tag.id ?? '') !== tagId);
	// An agent or a user may give a name where an ID is asked for: the candidate's tags carry both,
	// and the name is looked up among them by the rule every tag name follows.
	if (kept.length === tags.length) {
		const named = tagNamedIn.call(this, itemIndex, 'Tag', tagsByName(tags.flatMap(TAG_LIST.entries)), tagId);
		if (named) kept = tags.filter((tag) => String(tag.id ?? '') !== named.value);
	}
	if (kept.length === tags.length) return success();
	const body = { tags: kept.map(tagReference) };
	await recruitingRequestData.call(this, { method: 'PUT', path, body, itemIndex, notFound });
	return success();
}
