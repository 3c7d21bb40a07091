/**
 * One source per list: the Tag picker, the Tags dropdown and a tag given by name offer and find
 * the same tags; e-mail templates likewise. A record the service lists without an ID is offered
 * nowhere and found by no name, since an empty ID can never be written. And one rule for a tag
 * name: a name two of a candidate's tags share is refused by Remove Tag, as by Add Tag.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import type { Candidate } from '../../sandbox';
import { loadOptionsHarness, runNode } from '../harness';
import { errorOf, useRecruitingFixture } from './fixture';

describe('records listed without an ID', () => {
	const LISTS: Record<string, IDataObject[]> = {
		tags: [
			{ id: 'tag_beta', name: 'Beta' },
			{ name: 'Ghost' },
			{ id: '', name: 'Blank' },
			{ id: '   ', name: 'Spaces' },
			{ id: null, name: 'Null' },
			{ id: 'tag_alpha', name: 'Alpha' },
		],
		emailtemplates: [
			{ id: 'et_welcome', name: 'Welcome', subject: 'Hello' },
			{ name: 'Draft', subject: 'Never saved' },
			{ id: '', name: 'Blank', subject: 'Empty ID' },
		],
	};
	let server: Server;
	let url = '';
	const writes: string[] = [];

	beforeAll(async () => {
		server = createServer(async (req, res) => {
			let body = '';
			for await (const chunk of req) body += String(chunk);
			const path = new URL(req.url ?? '/', 'http://x').pathname;
			if (req.method !== 'GET') {
				writes.push(`${req.method} ${path} ${body}`);
				res.writeHead(204).end();
				return;
			}
			const items = LISTS[path.split('/').pop() ?? ''] ?? [];
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ items, meta: { has_next_page: false, total_items: items.length, total_pages: 1 } }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
	beforeEach(() => {
		writes.length = 0;
	});

	const credentials = () => ({ recruitingApi: { baseUrl: url, companyId: 'cmp', accessToken: 't' } });
	const editor = () =>
		loadOptionsHarness(new Recruiting(), { resource: 'candidate', operation: 'addTag' }, { credentials: credentials(), credentialTypes: [new RecruitingApi()] });
	const addTagByName = async (name: string) =>
		await runNode({
			nodeTypes: { recruiting: new Recruiting() },
			node: { type: 'recruiting', parameters: { resource: 'candidate', operation: 'addTag', candidateId: 'can_1', tagId: { __rl: true, mode: 'name', value: name } } },
			credentials: credentials(),
			credentialTypes: [new RecruitingApi()],
		});
	const valuesOf = (entries: Array<{ value: unknown }>) => entries.map((entry) => entry.value);

	test('tags: the picker and the dropdown offer only the tags with an ID, the same ones', async () => {
		const picked = (await editor().search('searchTags')).results;
		const dropdown = await editor().options('getTags');
		expect(picked).toEqual([
			{ name: 'Beta', value: 'tag_beta' },
			{ name: 'Alpha', value: 'tag_alpha' },
		]);
		// The dropdown sorts by name; the picker keeps the service's order. The Tags rows' dropdown
		// starts with its own default, "no tag picked: by the name below" (value ''), not a tag.
		expect(dropdown).toEqual([
			{ name: 'By Name (Below)', value: '' },
			{ name: 'Alpha', value: 'tag_alpha' },
			{ name: 'Beta', value: 'tag_beta' },
		]);
	});

	test('tags: by name, what the lists offer is found and nothing else is', async () => {
		const tags = (await editor().options('getTags')).filter((entry) => entry.value !== '');
		expect(valuesOf(tags)).toEqual(['tag_alpha', 'tag_beta']);
		for (const { name, value } of tags) {
			writes.length = 0;
			const result = await addTagByName(name.toUpperCase());
			expect(result.error).toBeUndefined();
			expect(writes).toEqual([`POST /v1.0/cmp/candidates/can_1/tags ${JSON.stringify({ id: value })}`]);
		}
		for (const name of ['Ghost', 'Blank', 'Spaces', 'Null']) {
			writes.length = 0;
			expect(errorOf(await addTagByName(name)).message).toMatch(`no tag is named "${name}"`);
			expect(writes).toEqual([]);
		}
	});

	test('e-mail templates: the picker and the dropdown offer the same templates, with their subject, none without an ID', async () => {
		const picked = (await editor().search('searchEmailTemplates')).results;
		const dropdown = await editor().options('getEmailTemplates');
		expect(picked).toEqual([{ name: 'Welcome', value: 'et_welcome', description: 'Hello' }]);
		expect(dropdown).toEqual(picked);
		expect(valuesOf(picked)).not.toContain('');
	});
});

describe('Remove Tag: a name is looked up by the one rule', () => {
	const CANDIDATE = {
		id: 'can_twice',
		first_name: 'Ada',
		last_name: 'Lovelace',
		email: 'ada@example.com',
		tags: [
			{ id: 'tag_a', name: 'Shared' },
			{ id: 'tag_keep', name: 'Keep' },
			{ id: 'tag_b', name: ' shared' },
		],
	};
	const fx = useRecruitingFixture({ applications: 1, jobs: 1, candidates: 1 }, (sandbox) => {
		sandbox.put('candidates', CANDIDATE as unknown as Candidate);
		sandbox.clearRequests();
	});
	const writes = () => fx.sandbox.requests.filter((r) => r.method !== 'GET');
	const removeTag = async (value: string) =>
		await fx.run({ resource: 'candidate', operation: 'removeTag', candidateId: 'can_twice', tagId: { __rl: true, mode: 'id', value } });

	test('a name two of the candidate\'s tags share is refused, nothing written (it used to take both off)', async () => {
		const result = await removeTag('SHARED');
		expect(errorOf(result).message).toBe('Invalid "Tag": 2 tags are named "SHARED": pick one from the list or give its ID');
		expect(writes()).toEqual([]);
		expect((fx.sandbox.get('candidates', 'can_twice') as Candidate).tags).toEqual(CANDIDATE.tags);
	});

	test('a name one of their tags has takes that one off', async () => {
		const result = await removeTag(' keep ');
		expect(result.error).toBeUndefined();
		expect((fx.sandbox.get('candidates', 'can_twice') as Candidate).tags).toEqual([CANDIDATE.tags[0], CANDIDATE.tags[2]]);
	});
});
