import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { recruitingRequestAllItems, resourcePath } from '../../shared/transport';
import { TAG_BY_NAME } from '../actions/common.descriptions';
import { text } from './search';

/** Dropdowns inside lists and groups, where n8n has no "From list" picker: every record by name. */
async function byName(this: ILoadOptionsFunctions, collection: string): Promise<INodePropertyOptions[]> {
	const records = await recruitingRequestAllItems.call(this, { path: resourcePath(collection) });
	return records
		.map((record) => ({ name: text(record.name) || text(record.id), value: text(record.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The Tags rows of Job Create and Candidate Update: first "no tag picked, by the name below"
 * (the rows' default, ''), then every tag.
 */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return [{ name: TAG_BY_NAME, value: '' }, ...(await byName.call(this, 'tags'))];
}

/** Job Create's auto responder. */
export async function getEmailTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await byName.call(this, 'emailtemplates');
}
