import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { scalarText } from './text';
import { inRun, MAX_PAGE_SIZE, READ_WINDOW, recruitingRequest, resourcePath, URGENT_RUN, walkInOrder, type PageEnvelope } from './transport';

/**
 * The "From list" pickers. The service has no search parameter, so a search walks a list
 * endpoint page by page (the read window in flight, walker.ts) and matches the text on each entry, until it has
 * a screenful of matches or has read a bounded number of pages; n8n asks for more with the
 * pagination token when the user scrolls. Candidates and jobs have no list of their own: they are
 * read off the applications, each shown once.
 */

/** Matches after which a search call stops: more than the dropdown shows at once. */
export const SCREENFUL = 30;
/** Pages one call may read at most (10,000 applications), so a search never runs unbounded. */
export const MAX_PAGES_PER_CALL = 100;
/** Values a pagination token remembers, so scrolling does not show a candidate or job again. */
const MAX_REMEMBERED = 2000;

interface SearchState {
	/** The next page to read. */
	page: number;
	/** Values already shown (derived lists only). */
	seen: string[];
}

function readToken(token: string | undefined): SearchState {
	if (!token) return { page: 1, seen: [] };
	try {
		const state = JSON.parse(token) as Partial<SearchState>;
		const page = Number(state.page);
		return {
			page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
			seen: Array.isArray(state.seen) ? state.seen.filter((v): v is string => typeof v === 'string') : [],
		};
	} catch {
		return { page: 1, seen: [] };
	}
}

/** Lower case without accents, so "garcia" finds "García" (and NFC/NFD spellings match). */
export function fold(value: string): string {
	return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * "Contains" on the folded name and description (an e-mail, a subject); the ID only when given
 * whole, since every ID shares its prefix (`can_`) and would match any short text.
 */
function matches(entry: INodeListSearchItems, needle: string): boolean {
	if (needle === '') return true;
	if (fold(String(entry.value)) === needle) return true;
	return [entry.name, entry.description ?? ''].some((text) => fold(text).includes(needle));
}

export interface ListSource {
	path: string;
	/** The entries one record gives (none, one, or several). */
	entries: (item: IDataObject) => INodeListSearchItems[];
	/** Show each value once across the whole search (lists derived from applications). */
	distinct?: boolean;
}

export async function search(
	this: ILoadOptionsFunctions,
	source: ListSource,
	filter: string | undefined,
	paginationToken: string | undefined,
): Promise<INodeListSearchResult> {
	const needle = fold((filter ?? '').trim());
	const state = readToken(paginationToken);
	const seen = new Set(state.seen);
	const results: INodeListSearchItems[] = [];
	const firstPage = state.page;
	let page = firstPage;
	let lastPage: number | undefined;

	const fetchPage = async (n: number) =>
		(await recruitingRequest.call(this, {
			method: 'GET',
			path: source.path,
			qs: { page: n, page_size: MAX_PAGE_SIZE },
		})) as PageEnvelope | undefined;

	const take = (envelope: PageEnvelope | undefined): boolean => {
		const items: unknown[] = Array.isArray(envelope?.items) ? envelope.items : [];
		for (const item of items) {
			// A broken entry is skipped: a picker shows what it can rather than fail on one record.
			if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
			for (const entry of source.entries(item as IDataObject)) {
				const value = String(entry.value);
				if (source.distinct) {
					if (seen.has(value)) continue;
					seen.add(value);
				}
				if (matches(entry, needle)) results.push(entry);
			}
		}
		const meta = envelope?.meta;
		if (typeof meta?.total_pages === 'number') lastPage = meta.total_pages;
		return meta?.has_next_page === true;
	};

	let more = take(await fetchPage(page));
	page++;
	const bound = firstPage + MAX_PAGES_PER_CALL - 1;
	if (more && results.length < SCREENFUL && page <= bound) {
		// Several pages at once once the total is known (never past it nor this call's bound); an
		// early stop or a failure leaves no request running after the call.
		const known = lastPage !== undefined && lastPage >= page;
		await walkInOrder({
			first: page,
			last: known ? Math.min(lastPage as number, bound) : bound,
			window: known ? READ_WINDOW : 1,
			start: fetchPage,
			accept: (_, envelope) => {
				more = take(envelope);
				page++;
				return !more || results.length >= SCREENFUL;
			},
		});
	}

	const remembered = source.distinct ? [...seen].slice(-MAX_REMEMBERED) : [];
	return {
		results,
		paginationToken: more ? JSON.stringify({ page, seen: remembered }) : undefined,
	};
}

/**
 * A record as a list entry: its ID as the value, shown under its name (under its ID when it has
 * none). A record without an ID gives no entry. What is chosen from a list, or found by name, is
 * sent as an ID, and an empty one can never be written (the node refuses it before sending), so
 * offering such a record, or choosing it by name, could only end in an error.
 */
export function listEntry(id: unknown, name: unknown, description?: unknown): INodeListSearchItems[] {
	const value = (scalarText(id) ?? '').trim();
	if (value === '') return [];
	const entry: INodeListSearchItems = { name: scalarText(name) || value, value };
	const detail = scalarText(description);
	if (detail) entry.description = detail;
	return [entry];
}

export const part = (value: unknown): IDataObject => (typeof value === 'object' && value !== null ? (value as IDataObject) : {});

/** A picker method on a list source: someone is looking at the editor, so an urgent run of its own. */
export function picker(source: ListSource) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		return await inRun(this, URGENT_RUN, async () => await search.call(this, source, filter, paginationToken));
	};
}

/** Jobs that have applications, each once, by title. */
export const searchJobs = picker({
	path: resourcePath('applications'),
	distinct: true,
	entries: (application) => {
		const job = part(application.job);
		return listEntry(job.id, job.title);
	},
});
