import type { IDataObject, INodeListSearchItems } from 'n8n-workflow';
import { scalarText } from '../shared/text';
import { recruitingRequestAllItems, resourcePath, type RecruitingContext } from '../shared/transport';
import { listEntry, type ListSource } from '../shared/search';

export { listEntry };

/**
 * The account's lists that the editor offers by name and that names are looked up in: tags and
 * e-mail templates, and the users. Each has one source here, read whole by `readEntries` (the dropdowns inside
 * lists; the tag names of Add Tag, Remove Tag and the Tags lists) or page by page by the pickers
 * (../shared/search.ts), so that all of them offer the same entries under the same names.
 */

export const TAG_LIST: ListSource = {
	path: resourcePath('tags'),
	entries: (tag) => listEntry(tag.id, tag.name),
};

/** Shown with the subject, which tells templates of similar names apart. */
export const EMAIL_TEMPLATE_LIST: ListSource = {
	path: resourcePath('emailtemplates'),
	entries: (template) => listEntry(template.id, template.name, template.subject),
};

/** A user as lists show them: `First Last <e-mail>`, so namesakes can be told apart. */
export function userLabel(user: IDataObject): string {
	const name = `${scalarText(user.first_name) ?? ''} ${scalarText(user.last_name) ?? ''}`.trim();
	const email = scalarText(user.email) ?? '';
	if (name === '') return email;
	return email ? `${name} <${email}>` : name;
}

/** The company's users (GET /users, the service's full API). */
export const USER_LIST: ListSource = {
	path: resourcePath('users'),
	entries: (user) => listEntry(user.id, userLabel(user), user.email),
};

/** Every entry of a list, all its pages read. */
export async function readEntries(
	this: RecruitingContext,
	source: ListSource,
	itemIndex?: number,
): Promise<INodeListSearchItems[]> {
	const records = await recruitingRequestAllItems.call(this, { path: source.path, itemIndex });
	return records.flatMap((record) => source.entries(record));
}
