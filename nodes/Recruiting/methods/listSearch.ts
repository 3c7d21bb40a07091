import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { resourcePath } from '../../shared/transport';
import { search, text, userLabel, type ListSource } from './search';

/** The pickers' list sources; how a search walks them is in search.ts. */

function picker(source: ListSource) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		return await search.call(this, source, filter, paginationToken);
	};
}

function candidateName(candidate: IDataObject): string {
	const full = text(candidate.full_name) || `${text(candidate.first_name)} ${text(candidate.last_name)}`.trim();
	return full || text(candidate.email) || text(candidate.id);
}

const APPLICATIONS = resourcePath('applications');
const part = (value: unknown): IDataObject => (typeof value === 'object' && value !== null ? (value as IDataObject) : {});

export const searchTags = picker({
	path: resourcePath('tags'),
	entries: (tag) => [{ name: text(tag.name) || text(tag.id), value: text(tag.id) }],
});

export const searchEmailTemplates = picker({
	path: resourcePath('emailtemplates'),
	entries: (template) => [
		{ name: text(template.name) || text(template.id), value: text(template.id), description: text(template.subject) || undefined },
	],
});

export const searchApplications = picker({
	path: APPLICATIONS,
	entries: (application) => {
		const candidate = part(application.candidate);
		return [
			{
				name: `${candidateName(candidate) || text(application.id)} — ${text(part(application.job).title) || 'unknown job'}`,
				value: text(application.id),
				description: text(candidate.email) || undefined,
			},
		];
	},
});

/** Candidates who applied to anything, each once: name, with the e-mail to tell namesakes apart. */
export const searchCandidates = picker({
	path: APPLICATIONS,
	distinct: true,
	entries: (application) => {
		const candidate = part(application.candidate);
		const id = text(candidate.id);
		const email = text(candidate.email);
		// n8n's list shows only the name: the e-mail in it tells namesakes apart.
		const name = email && candidateName(candidate) !== email ? `${candidateName(candidate)} <${email}>` : candidateName(candidate);
		return id === '' ? [] : [{ name, value: id, description: email || undefined }];
	},
});

/** The company's users (GET /users, the service's full API), as `First Last <e-mail>`. */
export const searchUsers = picker({
	path: resourcePath('users'),
	entries: (user) => {
		const id = text(user.id);
		return id === '' ? [] : [{ name: userLabel(user), value: id, description: text(user.email) || undefined }];
	},
});

/** Jobs that have applications, each once, by title. */
export const searchJobs = picker({
	path: APPLICATIONS,
	distinct: true,
	entries: (application) => {
		const job = part(application.job);
		const id = text(job.id);
		return id === '' ? [] : [{ name: text(job.title) || id, value: id }];
	},
});
