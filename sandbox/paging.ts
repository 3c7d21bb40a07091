/** `page` / `page_size` parsing and the list envelope (meta, absolute links, items). */
import type { FieldErrors } from './problems';
import { addError } from './validation';

export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 100;

export interface Paging {
	page: number;
	pageSize: number;
}

/** What a page fault does to one list answer (see faults.ts). */
/** `ignore_sort`: the list is served in its stored order, as a service that does not know the sort asked for. */
export type PageFault = 'endless_pages' | 'repeat_page' | 'empty_page' | 'ignore_sort';

/** Where the list was asked for: needed to build the links and to look up page faults. */
export interface ListRequest {
	/** Base URL of the server, without /v1.0. */
	baseUrl: string;
	/** Raw (percent-encoded) path of the request. */
	path: string;
	query: Record<string, string>;
	pageFault(page: number): PageFault | undefined;
}

export interface Envelope {
	meta: {
		page_size: number;
		page: number;
		total_items: number;
		total_pages: number;
		has_next_page: boolean;
		has_previous_page: boolean;
	};
	links: { first: string; last: string; next: string | null; previous: string | null };
	items: unknown[];
}

function readInt(query: Record<string, string>, name: string, fallback: number, max: number, errors: FieldErrors): number {
	const raw = query[name];
	if (raw === undefined) return fallback;
	const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (n >= 1 && n <= max) return n;
	const range = max === Infinity ? 'greater than or equal to 1' : `from 1 to ${max}`;
	addError(errors, name, `'${name}' must be an integer ${range}.`);
	return fallback;
}

/** Reads the paging parameters; invalid ones are reported into `errors`. */
export function readPaging(query: Record<string, string>, errors: FieldErrors): Paging {
	return {
		page: readInt(query, 'page', 1, Infinity, errors),
		pageSize: readInt(query, 'page_size', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, errors),
	};
}

export interface PaginateOptions<T> {
	/** Serve the list from its end (the list itself stays as it is: no copy, no sort). */
	descending?: boolean;
	/** Turns a stored record into what the API shows. */
	view?: (item: T) => unknown;
}

/** One page of `list`; costs O(page size), whatever the length of the list. */
export function paginate<T>(list: readonly T[], paging: Paging, request: ListRequest, options: PaginateOptions<T> = {}): Envelope {
	const { page, pageSize } = paging;
	const total = list.length;
	const fault = request.pageFault(page);
	const descending = options.descending === true && fault !== 'ignore_sort';
	const served = fault === 'endless_pages' || fault === 'repeat_page' ? 1 : page;
	const totalPages = Math.ceil(total / pageSize);
	const slice = (p: number): unknown[] => {
		const out: unknown[] = [];
		const end = Math.min(p * pageSize, total);
		for (let i = (p - 1) * pageSize; i < end; i++) {
			const item = list[descending ? total - 1 - i : i];
			out.push(options.view ? options.view(item) : item);
		}
		return out;
	};
	const hasNext = fault === 'endless_pages' || page < totalPages;
	const link = (p: number): string => {
		const params = new URLSearchParams();
		for (const [k, v] of Object.entries(request.query)) if (k !== 'page' && k !== 'page_size') params.append(k, v);
		params.set('page', String(p));
		params.set('page_size', String(pageSize));
		return `${request.baseUrl}${request.path}?${params}`;
	};
	return {
		meta: {
			page_size: pageSize,
			page,
			total_items: total,
			total_pages: totalPages,
			has_next_page: hasNext,
			has_previous_page: page > 1,
		},
		links: {
			first: link(1),
			last: link(Math.max(totalPages, 1)),
			next: hasNext ? link(page + 1) : null,
			previous: page > 1 ? link(page - 1) : null,
		},
		items: fault === 'empty_page' ? [] : slice(served),
	};
}
