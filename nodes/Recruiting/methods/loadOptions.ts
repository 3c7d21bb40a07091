import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { byName, TAG_BY_NAME } from '../actions/common.descriptions';
import { EMAIL_TEMPLATE_LIST, readEntries, TAG_LIST, USER_LIST } from '../lists';
import { inRun, URGENT_RUN } from '../../shared/transport';
import type { ListSource } from '../../shared/search';

/** Dropdowns inside lists and groups, where n8n has no "From list" picker: every entry, by name. */
async function everyEntry(this: ILoadOptionsFunctions, source: ListSource): Promise<INodePropertyOptions[]> {
	// Someone is looking at the editor: an urgent run of its own.
	return await inRun(this, URGENT_RUN, async () => (await readEntries.call(this, source)).sort(byName));
}

/**
 * The Tags rows of Job Create and Candidate Update: first "no tag picked, by the name below"
 * (the rows' default, ''), then every tag.
 */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return [{ name: TAG_BY_NAME, value: '' }, ...(await everyEntry.call(this, TAG_LIST))];
}

/** Job Create's auto responder. */
export async function getEmailTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await everyEntry.call(this, EMAIL_TEMPLATE_LIST);
}

/** Users in lists: interview attendees, mentioned users, a job's team (GET /users, the service's full API). */
export async function getUsers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	// The label already holds the e-mail the picker shows as description: a dropdown would repeat it.
	return (await everyEntry.call(this, USER_LIST)).map(({ name, value }) => ({ name, value }));
}
