import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { recruitingRequest, type PageEnvelope } from '../../shared/transport';

/**
 * The "From list" pickers. The service has no search parameter, so a search walks a list
 * endpoint page by page (a few pages in flight) and matches the text on each entry, until it has
 * a screenful of matches or has read a bounded number of pages; n8n asks for more with the
 * pagination token when the user scrolls. Candidates and jobs have no list of their own: they are
 * read off the applications, each shown once.
 */

/** Matches after which a search call stops: more than the dropdown shows at once. */
export const SCREENFUL = 30;
/** Pages one call may read at most (10,000 applications), so a search never runs unbounded. */
export const MAX_PAGES_PER_CALL = 100;
const PAGE_SIZE = 100;
const PAGES_IN_FLIGHT = 4;
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
			qs: { page: n, page_size: PAGE_SIZE },
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
	while (more && results.length < SCREENFUL && page - firstPage < MAX_PAGES_PER_CALL) {
		// Several pages at once once the total is known, never past it nor past this call's bound.
		const end = Math.min(page + PAGES_IN_FLIGHT, firstPage + MAX_PAGES_PER_CALL, (lastPage ?? page) + 1);
		const batch: number[] = [];
		for (let n = page; n < Math.max(end, page + 1); n++) batch.push(n);
		const envelopes = await Promise.all(batch.map(fetchPage));
		for (const envelope of envelopes) {
			more = take(envelope);
			page++;
			if (!more) break;
		}
	}

	const remembered = source.distinct ? [...seen].slice(-MAX_REMEMBERED) : [];
	return {
		results,
		paginationToken: more ? JSON.stringify({ page, seen: remembered }) : undefined,
	};
}

export const text = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** A user as the pickers list them: `First Last <e-mail>`, so namesakes can be told apart. */
export function userLabel(user: IDataObject): string {
	const name = `${text(user.first_name)} ${text(user.last_name)}`.trim();
	const email = text(user.email);
	if (name === '') return email || text(user.id);
	return email ? `${name} <${email}>` : name;
}
