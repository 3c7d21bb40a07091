import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestAllItems, resourcePath } from '../../../shared/transport';
import { invalidField, requireId } from '../../../shared/validation';
import { idLocator } from '../common.descriptions';

/** The tag of Add Tag and Remove Tag: from the list, by ID, or by its name. */
export function tagField(description: string): INodeProperties {
	return idLocator({
		name: 'tagId',
		displayName: 'Tag',
		placeholder: 'tag_…',
		searchListMethod: 'searchTags',
		byNamePlaceholder: 'e.g. Hired',
		description,
	});
}

/**
 * The tag's ID. A name (the "By Name" mode) is looked up in the tag list, ignoring case and
 * surrounding spaces; an unknown or ambiguous name is refused before anything is written.
 */
export async function readTagId(this: IExecuteFunctions, itemIndex: number): Promise<string> {
	const locator = this.getNodeParameter('tagId', itemIndex, '') as unknown;
	const mode = typeof locator === 'object' && locator !== null ? (locator as IDataObject).mode : undefined;
	if (mode !== 'name') return requireId.call(this, 'tagId', itemIndex, 'Tag');

	const name = String((locator as IDataObject).value ?? '').trim();
	if (name === '') throw invalidField(this.getNode(), itemIndex, 'Tag', 'a tag name is required');
	const tags = await recruitingRequestAllItems.call(this, { path: resourcePath('tags'), itemIndex });
	const wanted = name.toLowerCase();
	const found = tags.filter((tag) => String(tag.name ?? '').trim().toLowerCase() === wanted);
	if (found.length === 0) {
		throw invalidField(this.getNode(), itemIndex, 'Tag', `no tag is named "${name}": pick it from the list or create it in the service first`);
	}
	if (found.length > 1) {
		throw invalidField(this.getNode(), itemIndex, 'Tag', `${found.length} tags are named "${name}": pick one from the list or give its ID`);
	}
	return String(found[0].id);
}
