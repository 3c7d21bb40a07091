import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { recruitingRequest, resourcePath, type PageEnvelope } from '../../shared/transport';

type ListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/**
 * A picker over one of the service's list endpoints, one page at a time: n8n asks for the next
 * page with the token we return. Filtering is by name, on the page received.
 */
function pickerOf(
	path: string,
	toResult: (item: IDataObject) => { name: string; value: string; url?: string },
): ListSearch {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const page = Number(paginationToken ?? 1) || 1;
		const envelope = (await recruitingRequest.call(this, {
			method: 'GET',
			path,
			qs: { page, page_size: 100 },
		})) as PageEnvelope | undefined;
		const needle = filter?.trim().toLowerCase();
		const results = (envelope?.items ?? [])
			.map(toResult)
			.filter((result) => !needle || result.name.toLowerCase().includes(needle));
		return {
			results,
			paginationToken: envelope?.meta?.has_next_page ? String(page + 1) : undefined,
		};
	};
}

export const searchTags = pickerOf(resourcePath('tags'), (tag) => ({
	name: String(tag.name ?? tag.id),
	value: String(tag.id),
}));

export const searchApplications = pickerOf(resourcePath('applications'), (application) => {
	const candidate = (application.candidate ?? {}) as IDataObject;
	const job = (application.job ?? {}) as IDataObject;
	const who = String(candidate.full_name ?? `${candidate.first_name ?? ''} ${candidate.last_name ?? ''}`).trim();
	return {
		name: `${who || application.id} — ${job.title ?? 'unknown job'}`,
		value: String(application.id),
	};
});
