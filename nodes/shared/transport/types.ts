import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import type { RequestPolicy } from './policy';

/** The shapes the transport's modules share. */

export type RecruitingContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

export interface RecruitingRequest {
	method: IHttpRequestMethods;
	/** Relative to `/v1.0/{company_id}`; build it with `resourcePath`. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	itemIndex?: number;
	/** What a 404 means, e.g. `job "job_1"`; named in the error. */
	notFound?: string;
	/** A 404 answers `undefined` instead of throwing (the caller treats "gone" as a result). */
	allowNotFound?: boolean;
	policy?: Partial<RequestPolicy>;
}

export type Headers = Record<string, string | string[] | undefined>;

/** What n8n's helper answers with `returnFullResponse`. */
export interface FullResponse {
	statusCode: number;
	headers: Headers;
	body: unknown;
}

/** A header by name, whatever its case; the first of a repeated one. */
export function headerOf(headers: Headers | undefined, name: string): string | undefined {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/** Where a list run as a tool stands: the page returned and what the service says is left. */
export interface ToolListPage {
	page: number;
	pageSize: number;
	/** The plural noun of the records, for the note: `applications`. */
	noun: string;
	totalItems?: number;
	hasNextPage: boolean;
	/** Set when the node filtered the page after fetching it: how many records the page held. */
	fetched?: number;
}
