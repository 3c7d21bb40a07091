import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { recruitingRequestAllItems, resourcePath } from '../../shared/transport';
import { text, userLabel } from './search';

const nameOf = (record: IDataObject): string => text(record.name) || text(record.id);

/** Dropdowns inside lists and groups, where n8n has no "From list" picker: every record by name. */
async function byName(
	this: ILoadOptionsFunctions,
	collection: string,
	label: (record: IDataObject) => string = nameOf,
): Promise<INodePropertyOptions[]> {
	const records = await recruitingRequestAllItems.call(this, { path: resourcePath(collection) });
	return records
		.map((record) => ({ name: label(record), value: text(record.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** The Tags lists of Job Create and Candidate Update. */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await byName.call(this, 'tags');
}

/** Job Create's auto responder. */
export async function getEmailTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await byName.call(this, 'emailtemplates');
}

/** Users in lists: interview attendees, mentioned users, a job's team (GET /users, the service's full API). */
export async function getUsers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await byName.call(this, 'users', userLabel);
}
