import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { requireId } from '../../../shared/validation';
import { idLocator } from '../common.descriptions';
import { tagNamed } from '../helpers';

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

	const tag = await tagNamed.call(this, itemIndex, 'Tag', String((locator as IDataObject).value ?? ''));
	return String(tag.id);
}
