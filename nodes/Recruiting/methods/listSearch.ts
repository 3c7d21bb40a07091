import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { resourcePath } from '../../shared/transport';
import { search, text } from './search';

/** The pickers' list sources; how a search walks them is in search.ts. */

function candidateName(candidate: IDataObject): string {
	const full = text(candidate.full_name) || `${text(candidate.first_name)} ${text(candidate.last_name)}`.trim();
	return full || text(candidate.email) || text(candidate.id);
}

const APPLICATIONS = resourcePath('applications');

export async function searchTags(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search.call(
		this,
		{ path: resourcePath('tags'), entries: (tag) => [{ name: text(tag.name) || text(tag.id), value: text(tag.id) }] },
		filter,
		paginationToken,
	);
}

export async function searchEmailTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search.call(
		this,
		{
			path: resourcePath('emailtemplates'),
			entries: (template) => [
				{
					name: text(template.name) || text(template.id),
					value: text(template.id),
					description: text(template.subject) || undefined,
				},
			],
		},
		filter,
		paginationToken,
	);
}

export async function searchApplications(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search.call(
		this,
		{
			path: APPLICATIONS,
			entries: (application) => {
				const candidate = (application.candidate ?? {}) as IDataObject;
				const job = (application.job ?? {}) as IDataObject;
				return [
					{
						name: `${candidateName(candidate) || text(application.id)} — ${text(job.title) || 'unknown job'}`,
						value: text(application.id),
						description: text(candidate.email) || undefined,
					},
				];
			},
		},
		filter,
		paginationToken,
	);
}

/** Candidates who applied to anything, each once: name, with the e-mail to tell namesakes apart. */
export async function searchCandidates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search.call(
		this,
		{
			path: APPLICATIONS,
			distinct: true,
			entries: (application) => {
				const candidate = (application.candidate ?? {}) as IDataObject;
				const id = text(candidate.id);
				if (id === '') return [];
				return [{ name: candidateName(candidate), value: id, description: text(candidate.email) || undefined }];
			},
		},
		filter,
		paginationToken,
	);
}

/** Jobs that have applications, each once, by title. */
export async function searchJobs(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await search.call(
		this,
		{
			path: APPLICATIONS,
			distinct: true,
			entries: (application) => {
				const job = (application.job ?? {}) as IDataObject;
				const id = text(job.id);
				return id === '' ? [] : [{ name: text(job.title) || id, value: id }];
			},
		},
		filter,
		paginationToken,
	);
}
