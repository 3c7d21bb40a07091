import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { requireId } from '../../../shared/validation';
import { success } from '../helpers';
import { candidateIdField, candidateNotFound } from './fields';
import { readTagId, tagField } from './tag';

export const description = updateDisplayOptions({ show: { resource: ['candidate'], operation: ['removeTag'] } }, [
	candidateIdField,
	tagField(
		'The tag to take off: its ID (tag_…, from Tag → Get Many or the candidate\'s tags), its exact name, or pick it from the list. A tag the candidate does not have is not an error: nothing is written.',
	),
]);

/**
 * The API has no "remove tag" endpoint: the candidate's tags are read and written back without
 * this one, every other tag exactly as read. A tag change made in between can be lost.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const candidateId = requireId.call(this, 'candidateId', itemIndex, 'Candidate ID');
	const tagId = await readTagId.call(this, itemIndex);
	const path = resourcePath('candidates', candidateId);
	const notFound = candidateNotFound(candidateId);
	const candidate = await recruitingRequestData.call(this, { method: 'GET', path, itemIndex, notFound });
	const tags = Array.isArray(candidate.tags) ? (candidate.tags as IDataObject[]) : [];
	const kept = tags.filter((tag) => String(tag.id) !== tagId);
	if (kept.length === tags.length) return success();
	await recruitingRequestData.call(this, { method: 'PUT', path, body: { tags: kept }, itemIndex, notFound });
	return success();
}
