/**
 * The "From list" pickers through n8n-core's LoadOptionsContext against the sandbox: what each
 * lists, that a search finds by name anywhere in a long list within the bound, and that scrolling
 * (n8n's pagination token) shows every candidate and job exactly once.
 */
import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { loadOptionsHarness, type LoadOptionsHarness } from '../harness';
import { listDirect } from './fixture';

let sandbox: Sandbox;
let picker: LoadOptionsHarness;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: { applications: 250, jobs: 12, candidates: 180 } });
	picker = loadOptionsHarness(new Recruiting(), { resource: 'candidate', operation: 'get' }, {
		credentials: { recruitingApi: { baseUrl: sandbox.url, companyId: sandbox.companyId, accessToken: sandbox.token } },
		credentialTypes: [new RecruitingApi()],
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.clearRequests());

/** Every result of a search, scrolling through n8n's pagination token until there is none. */
async function scrollAll(method: string, filter?: string) {
	const values: string[] = [];
	const calls: INodeListSearchResult[] = [];
	let token: string | undefined;
	do {
		const result = await picker.search(method, filter, token);
		calls.push(result);
		values.push(...result.results.map((r) => String(r.value)));
		token = result.paginationToken;
	} while (token !== undefined && calls.length < 1000);
	return { values, calls };
}

const candidateOf = (application: IDataObject) => application.candidate as IDataObject;
const jobOf = (application: IDataObject) => application.job as IDataObject;

test('tags: every tag by name, filtered case-insensitively', async () => {
	const tags = await listDirect(sandbox, ['tags']);
	const { values } = await scrollAll('searchTags');
	expect(values).toEqual(tags.map((t) => String(t.id)));
	const one = tags[3];
	const found = await picker.search('searchTags', String(one.name).toUpperCase());
	expect(found.results.map((r) => r.value)).toContain(String(one.id));
	expect(found.results.every((r) => r.name.toLowerCase().includes(String(one.name).toLowerCase()))).toBe(true);
});

test('email templates: by name, with the subject as description', async () => {
	const templates = await listDirect(sandbox, ['emailtemplates']);
	const result = await picker.search('searchEmailTemplates');
	expect(result.results.map((r) => r.value)).toEqual(templates.map((t) => String(t.id)));
	expect(result.results[0].description).toBe(templates[0].subject);
});

test('candidates: each candidate who applied, exactly once, across every scroll', async () => {
	const applications = await listDirect(sandbox, ['applications']);
	const expected = [...new Set(applications.map((a) => String(candidateOf(a).id)))];
	const { values, calls } = await scrollAll('searchCandidates');
	expect(new Set(values).size).toBe(values.length);
	expect(values.sort()).toEqual(expected.sort());
	expect(calls.length).toBeGreaterThan(1); // it did scroll
});

test('jobs: each job with applications, exactly once, by title', async () => {
	const applications = await listDirect(sandbox, ['applications']);
	const expected = new Map(applications.map((a) => [String(jobOf(a).id), String(jobOf(a).title)]));
	const { values } = await scrollAll('searchJobs');
	expect(values.sort()).toEqual([...expected.keys()].sort());
	const [id, title] = [...expected][0];
	const found = await picker.search('searchJobs', title.slice(0, 6).toLowerCase());
	expect(found.results.map((r) => r.value)).toContain(id);
});

test('applications: candidate name and e-mail, and job title; a search by e-mail finds it too', async () => {
	const [application] = await listDirect(sandbox, ['applications'], { page_size: '1' });
	const candidate = candidateOf(application);
	const result = await picker.search('searchApplications', String(candidate.email));
	const hit = result.results.find((r) => r.value === application.id);
	// The e-mail tells two candidates of the same name apart.
	expect(hit?.name).toBe(`${String(candidate.full_name)} <${String(candidate.email)}> — ${String(jobOf(application).title)}`);
});

test('an unknown name: no results, no endless scrolling', async () => {
	const { values, calls } = await scrollAll('searchCandidates', 'zz-nobody-has-this-name-zz');
	expect(values).toEqual([]);
	expect(calls).toHaveLength(1); // 3 pages of 250 applications: one call reads them all
});

describe('a name among 20,000 applications', () => {
	beforeAll(() => sandbox.reset({ applications: 20000, jobs: 40 }));
	afterAll(() => sandbox.reset({ applications: 250, jobs: 12, candidates: 180 }));

	test('the last application\'s candidate is found by e-mail within the bound; a common name fills screens', async () => {
		const lastPage = await listDirect(sandbox, ['applications'], {});
		const target = candidateOf(lastPage[lastPage.length - 1]);
		sandbox.clearRequests();
		const started = performance.now();
		let token: string | undefined;
		let calls = 0;
		let found = false;
		do {
			const result = await picker.search('searchCandidates', String(target.email), token);
			calls++;
			found = result.results.some((r) => r.value === target.id);
			token = result.paginationToken;
		} while (!found && token !== undefined);
		const ms = performance.now() - started;
		const requests = sandbox.requests.length;
		console.log(`picker: "${target.email}" among 20,000 applications: ${calls} call(s), ${requests} requests, ${ms.toFixed(0)} ms`);
		expect(found).toBe(true);
		// 200 pages of 100, at most 100 per call: two calls, every page read once.
		expect(calls).toBeLessThanOrEqual(2);
		expect(requests).toBe(200);

		// A name shared by many seeded candidates: each call stops at a screenful of them.
		const byName = await picker.search('searchCandidates', String(target.first_name));
		expect(byName.results.length).toBeGreaterThanOrEqual(30);
		expect(byName.paginationToken).toBeDefined();
	});
});

test('a search matches names and e-mails, and an ID only when given whole (every ID shares its prefix)', async () => {
	const [application] = await listDirect(sandbox, ['applications'], { page_size: '1' });
	const candidate = candidateOf(application);
	const byPrefix = await picker.search('searchCandidates', 'can_');
	expect(byPrefix.results).toEqual([]);
	const byId = await picker.search('searchCandidates', String(candidate.id).toUpperCase());
	expect(byId.results.map((r) => r.value)).toEqual([candidate.id]);
});

test('dropdowns inside lists (Tags of Job Create / Candidate Update, the auto responder): every record, by name', async () => {
	const tags = await listDirect(sandbox, ['tags']);
	// The Tags rows' dropdown starts with "no tag picked": its value, '', is the rows' default, so
	// the editor does not flag a row whose tag is given by name.
	const [byNameBelow, ...options] = await picker.options('getTags');
	expect(byNameBelow).toEqual({ name: 'By Name (Below)', value: '' });
	expect(options.map((o) => o.value).sort()).toEqual(tags.map((t) => String(t.id)).sort());
	expect(options.map((o) => o.name)).toEqual([...options.map((o) => o.name)].sort((a, b) => a.localeCompare(b)));
	const templates = await listDirect(sandbox, ['emailtemplates']);
	expect((await picker.options('getEmailTemplates')).map((o) => o.value).sort()).toEqual(templates.map((t) => String(t.id)).sort());
});
