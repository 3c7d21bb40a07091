/**
 * Lists from a service that misbehaves in ways the repeat guard cannot see (items without ids, a
 * next page forever, entries that are not objects): every list, picker and dropdown ends, with a
 * clear error or what it could read, never a loop or a TypeError.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { MAX_PAGES } from '../../nodes/shared/transport';
import { loadOptionsHarness, runNode } from '../harness';

let server: Server;
let url = '';
let answer: (page: number) => unknown = () => ({ items: [], meta: {} });
let requests = 0;

beforeAll(async () => {
	server = createServer((req, res) => {
		requests++;
		const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(answer(page)));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
	requests = 0;
});

const credentials = () => ({ recruitingApi: { baseUrl: url, companyId: 'cmp', accessToken: 't' } });
const picker = () =>
	loadOptionsHarness(new Recruiting(), { resource: 'candidate', operation: 'get' }, { credentials: credentials(), credentialTypes: [new RecruitingApi()] });
const run = async (parameters: Record<string, unknown>, typeVersion?: number) =>
	await runNode({
		nodeTypes: { recruiting: new Recruiting() },
		node: { type: 'recruiting', parameters: parameters as never, ...(typeVersion && { typeVersion }) },
		credentials: credentials(),
		credentialTypes: [new RecruitingApi()],
	});

test(`a next page forever with items without ids: Return All stops after ${MAX_PAGES.toLocaleString('en-US')} pages with a clear error`, async () => {
	answer = () => ({ items: [{ name: 'x' }], meta: { has_next_page: true } });
	const result = await run({ resource: 'tag', operation: 'getMany', returnAll: true, requestOptions: { pagesInFlight: 1 } });
	expect(result.error?.message).toBe('The Recruiting service returned an inconsistent list');
	expect((result.error as { description?: string }).description).toMatch(/more than 10000 pages/);
	expect(requests).toBe(MAX_PAGES);
}, 120_000);

test('the tags dropdown ends the same way (it used to read forever)', async () => {
	answer = () => ({ items: [{ name: 'x' }], meta: { has_next_page: true } });
	await expect(picker().options('getTags')).rejects.toThrow('inconsistent list');
	expect(requests).toBe(MAX_PAGES);
}, 120_000);

test('an entry that is not an object: a clear error on lists, skipped by pickers', async () => {
	answer = () => ({ items: [null, 5, { id: 'app_1', candidate: { id: 'can_1', full_name: 'Ada Lovelace', email: 'ada@x.y' }, job: { id: 'job_1', title: 'Dev' } }], meta: { has_next_page: false } });
	const list = await run({ resource: 'application', operation: 'getMany', returnAll: true });
	expect((list.error as { description?: string }).description).toMatch(/an entry that is not an object/);
	const found = await picker().search('searchCandidates', 'ada');
	expect(found.results.map((r) => r.value)).toEqual(['can_1']);
	answer = () => ({ items: 5, meta: { has_next_page: false } });
	expect((await picker().search('searchJobs')).results).toEqual([]);
});

test('a picker search ignores accents and letter case: "garcia" finds "García", NFC or NFD', async () => {
	answer = () => ({
		items: [
			{ id: 'app_1', candidate: { id: 'can_1', full_name: 'Oskar García', email: 'o@x.y' }, job: { id: 'job_1', title: 'Dev' } },
			{ id: 'app_2', candidate: { id: 'can_2', full_name: 'Ana García'.normalize('NFD'), email: 'a@x.y' }, job: { id: 'job_1', title: 'Dev' } },
		],
		meta: { has_next_page: false },
	});
	const found = await picker().search('searchCandidates', 'GARCIA');
	expect(found.results.map((r) => r.value)).toEqual(['can_1', 'can_2']);
});

test('Delete outputs { deleted: true } from node version 1.1, { success: true } on version 1', async () => {
	answer = () => ({});
	expect((await run({ resource: 'job', operation: 'delete', jobId: 'job_1' }, 1.1)).items.map((i) => i.json)).toEqual([{ deleted: true }]);
	expect((await run({ resource: 'job', operation: 'delete', jobId: 'job_1' }, 1)).items.map((i) => i.json)).toEqual([{ success: true }]);
	expect((await run({ resource: 'applicationForm', operation: 'delete', formId: 'form_1' }, 1.1)).items.map((i) => i.json)).toEqual([{ deleted: true }]);
});

