/**
 * Tiny local HTTP servers for what the sandbox cannot be: something else at the Base URL (a proxy,
 * n8n's own editor), or a service that disagrees with itself between two page reads or about its
 * clock. Real HTTP, so the nodes still go through n8n's HTTP helper.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject } from 'n8n-workflow';

async function listen(server: Server): Promise<{ url: string; close(): Promise<void> }> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export interface FixedAnswer {
	status: number;
	contentType: string;
	body: string;
}

/** A server answering every request with `answer` (change it between tests). */
export async function startFixedAnswerServer(first: FixedAnswer) {
	const served = { answer: first };
	const server = createServer((req, res) => {
		req.resume();
		res.writeHead(served.answer.status, { 'content-type': served.answer.contentType });
		res.end(served.answer.body);
	});
	return Object.assign(served, await listen(server));
}

export interface FakeList {
	items: IDataObject[];
	/** newestFirst: sorted by `field` descending (as `sort=-field` asks); oldestFirst: ascending; asStored: as the array holds them (a service that ignores the sort). */
	order: 'newestFirst' | 'oldestFirst' | 'asStored';
	field: string;
	/** The length its pages say (a capped or stale count) for the real one, where they differ. */
	totalItems?: (length: number) => number;
}

export interface FakeListService {
	url: string;
	/** path below the company (`/applications`, `/jobs/job_1/notes`) → its entries; others answer 404. */
	lists: Map<string, FakeList>;
	/** Called before a page is answered: to change a list between two pages of one read. */
	beforePage?: (path: string, page: number) => void;
	/** How far the Date header is ahead of the real clock. */
	dateAheadMs: number;
	/** Answers without a Date header (a proxy or cache that drops it) while set. */
	dateless?: boolean;
	/** path?query of every request, in order. */
	requests: string[];
	close(): Promise<void>;
}

/** The service's paged lists (company `co_fake`), served from arrays. */
export async function startFakeListService(into: object = {}): Promise<FakeListService> {
	const fake = Object.assign(into, { lists: new Map<string, FakeList>(), dateAheadMs: 0, requests: [] as string[] }) as FakeListService;
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://fake');
		const path = url.pathname.replace(/^\/v1\.0\/co_fake/, '');
		const page = Number(url.searchParams.get('page') ?? 1);
		const size = Number(url.searchParams.get('page_size') ?? 30);
		fake.requests.push(`${path}?${url.searchParams}`);
		fake.beforePage?.(path, page);
		if (fake.dateless) res.sendDate = false;
		else res.setHeader('Date', new Date(Date.now() + fake.dateAheadMs).toUTCString());
		const list = fake.lists.get(path);
		if (!list) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ status: 404, title: 'Not Found', detail: `${path} not found` }));
			return;
		}
		const t = (e: IDataObject) => Date.parse(String(e[list.field]));
		const sorted = list.order === 'asStored' ? [...list.items] : [...list.items].sort((a, b) => (list.order === 'newestFirst' ? t(b) - t(a) : t(a) - t(b)));
		const totalPages = Math.ceil(sorted.length / size);
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				meta: { page, page_size: size, total_items: list.totalItems?.(sorted.length) ?? sorted.length, total_pages: totalPages, has_next_page: page < totalPages },
				items: sorted.slice((page - 1) * size, page * size),
			}),
		);
	});
	return Object.assign(fake, await listen(server));
}

/** One fake list service for a test file, emptied before each test (lists, Date offset, hook, requests). */
export function useFakeListService(): FakeListService {
	const fake = {} as FakeListService;
	beforeAll(async () => {
		await startFakeListService(fake);
	});
	afterAll(async () => {
		await fake.close();
	});
	beforeEach(() => {
		fake.lists.clear();
		fake.dateAheadMs = 0;
		fake.dateless = false;
		fake.beforePage = undefined;
		fake.requests.length = 0;
	});
	return fake;
}
