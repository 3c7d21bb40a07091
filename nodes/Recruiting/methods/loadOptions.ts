import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { recruitingRequestAllItems, resourcePath } from '../../shared/transport';
import { text } from './search';

/** Every tag, by name, for the Tags lists of Job Create and Candidate Update (a dropdown inside a list). */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const tags = await recruitingRequestAllItems.call(this, { path: resourcePath('tags') });
	return tags
		.map((tag) => ({ name: text(tag.name) || text(tag.id), value: text(tag.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
