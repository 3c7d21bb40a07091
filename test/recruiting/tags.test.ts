/**
 * Tags by name and Remove Tag, through n8n's engine against the sandbox: the exact requests, that
 * every other tag is kept exactly, and that a name nobody has is refused before anything is written.
 */
import type { INodeParameters } from 'n8n-workflow';
import type { Candidate, Tag } from '../../sandbox';
import { apiPath, errorOf, jsonOf, useRecruitingFixture } from './fixture';

const SEED = { applications: 2, jobs: 1, candidates: 2, tags: 3 };
const TAGS: Tag[] = [
	{ id: 'tag_hired', name: 'Hired', color: '#00aa00', type: 'candidate', status: 'active' },
	{ id: 'tag_vip', name: 'VIP', color: '#ff0000', type: 'candidate', status: 'active' },
	{ id: 'tag_dup_1', name: 'Twice', color: '#000000', type: 'candidate', status: 'active' },
	{ id: 'tag_dup_2', name: 'twice ', color: '#000000', type: 'candidate', status: 'active' },
];
const CANDIDATE: Partial<Candidate> & { id: string } = {
	id: 'can_ada',
	first_name: 'Ada',
	last_name: 'Lovelace',
	full_name: 'Ada Lovelace',
	email: 'ada@example.com',
	tags: [
		{ id: 'tag_old', name: 'Old' },
		{ id: 'tag_vip', name: 'VIP' },
		{ id: 'tag_keep', name: 'Keep me' },
	],
};

const fx = useRecruitingFixture(SEED, (sandbox) => {
	for (const tag of TAGS) sandbox.put('tags', tag);
	sandbox.put('candidates', CANDIDATE as Candidate);
	sandbox.clearRequests();
});

const writes = () => fx.sandbox.requests.filter((r) => r.method !== 'GET').map(({ method, path, body }) => ({ method, path, body }));
const run = async (operation: string, parameters: INodeParameters) =>
	await fx.run({ resource: 'candidate', operation, candidateId: 'can_ada', ...parameters });
const byName = (value: string) => ({ __rl: true, mode: 'name', value });
const candidate = () => fx.sandbox.get('candidates', 'can_ada') as Candidate;

describe('Remove Tag', () => {
	test('reads the candidate and writes back every other tag exactly, in order', async () => {
		const result = await run('removeTag', { tagId: 'tag_vip' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ success: true }]);
		expect(fx.sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET ${apiPath(fx.sandbox, 'candidates', 'can_ada')}`,
			`PUT ${apiPath(fx.sandbox, 'candidates', 'can_ada')}`,
		]);
		expect(writes()[0].body).toEqual({ tags: [{ id: 'tag_old', name: 'Old' }, { id: 'tag_keep', name: 'Keep me' }] });
		expect(candidate().tags).toEqual([{ id: 'tag_old', name: 'Old' }, { id: 'tag_keep', name: 'Keep me' }]);
	});

	test('a tag the candidate does not have is a success and writes nothing', async () => {
		const result = await run('removeTag', { tagId: 'tag_hired' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ success: true }]);
		expect(writes()).toEqual([]);
		expect(candidate().tags).toEqual(CANDIDATE.tags);
	});

	test('by name (any case, spaces around)', async () => {
		const result = await run('removeTag', { tagId: byName('  vip ') });
		expect(result.error).toBeUndefined();
		expect(candidate().tags!.map((t) => t.id)).toEqual(['tag_old', 'tag_keep']);
	});

	test('the last tag: writes an empty list', async () => {
		fx.sandbox.put('candidates', { ...CANDIDATE, tags: [{ id: 'tag_vip', name: 'VIP' }] } as Candidate);
		await run('removeTag', { tagId: { __rl: true, mode: 'list', value: 'tag_vip' } });
		expect(writes()[0].body).toEqual({ tags: [] });
		expect(candidate().tags).toEqual([]);
	});

	test('an unknown candidate: the error names it, nothing written', async () => {
		const result = await fx.run({ resource: 'candidate', operation: 'removeTag', candidateId: 'can_nobody', tagId: 'tag_vip' });
		expect(errorOf(result).message).toMatch(/candidate "can_nobody" was not found/);
		expect(writes()).toEqual([]);
	});
});

describe('tags by name', () => {
	test('Add Tag by name posts the tag ID it found', async () => {
		const result = await run('addTag', { tagId: byName('hired') });
		expect(result.error).toBeUndefined();
		expect(writes()).toEqual([
			{ method: 'POST', path: apiPath(fx.sandbox, 'candidates', 'can_ada', 'tags'), body: { id: 'tag_hired' } },
		]);
	});

	test.each(['addTag', 'removeTag'])('%s: an unknown name is refused before any write', async (operation) => {
		const result = await run(operation, { tagId: byName('Nobody has this tag') });
		expect(errorOf(result).message).toBe(
			'Invalid "Tag": no tag is named "Nobody has this tag": pick it from the list or create it in the service first',
		);
		expect(writes()).toEqual([]);
	});

	test('a name two tags share is refused, naming how many', async () => {
		const result = await run('addTag', { tagId: byName('TWICE') });
		expect(errorOf(result).message).toMatch(/2 tags are named "TWICE"/);
		expect(writes()).toEqual([]);
	});

	test('an empty name is refused before any request', async () => {
		const result = await run('addTag', { tagId: byName('  ') });
		expect(errorOf(result).message).toMatch(/Invalid "Tag": a tag name is required/);
		expect(fx.sandbox.requests).toEqual([]);
	});
});

describe('what a hostile review found', () => {
	test('Remove Tag given a name (or a near-miss) where an ID is asked for: the candidate\'s tag by that name goes', async () => {
		for (const given of ['VIP', ' vip ']) {
			fx.sandbox.put('candidates', CANDIDATE as Candidate);
			fx.sandbox.clearRequests();
			const result = await run('removeTag', { tagId: { __rl: true, mode: 'id', value: given } });
			expect(result.error).toBeUndefined();
			expect(candidate().tags!.map((t) => t.id)).toEqual(['tag_old', 'tag_keep']);
		}
	});

	// Issue 27, point 12: a write's tag is { id, name } (recruiting-api.md); the service drops any
	// other field without a word, so the sandbox records one as a violation and fx.run fails on it.
	test('Remove Tag writes back each other tag as exactly { id, name }, whatever else the GET returned', async () => {
		const full = (id: string, name: string) => ({ id, name, color: '#123456', type: 'candidate', status: 'active', created_at: '2030-01-01T00:00:00Z' });
		fx.sandbox.put('candidates', { ...CANDIDATE, tags: [full('tag_old', 'Old'), full('tag_vip', 'VIP'), full('tag_keep', 'Keep me')] } as never);
		fx.sandbox.clearRequests();
		const result = await run('removeTag', { tagId: 'tag_vip' });
		expect(result.error).toBeUndefined();
		expect(writes()).toEqual([
			{ method: 'PUT', path: apiPath(fx.sandbox, 'candidates', 'can_ada'), body: { tags: [{ id: 'tag_old', name: 'Old' }, { id: 'tag_keep', name: 'Keep me' }] } },
		]);
	});

	test('the sandbox records a tag field beyond { id, name } in a write as a violation, and fx.run fails on it', async () => {
		const response = await fetch(`${fx.sandbox.url}${apiPath(fx.sandbox, 'candidates', 'can_ada')}`, {
			method: 'PUT',
			headers: { authorization: `Bearer ${fx.sandbox.token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ tags: [{ id: 'tag_keep', name: 'Keep me', color: '#000' }] }),
		});
		// The service answers as if nothing were wrong, and drops the field.
		expect(response.status).toBe(200);
		expect(candidate().tags).toEqual([{ id: 'tag_keep', name: 'Keep me' }]);
		expect(fx.sandbox.violations).toEqual([
			{ method: 'PUT', path: apiPath(fx.sandbox, 'candidates', 'can_ada'), problem: 'tags[0].color: a tag in a write is { id, name }' },
		]);
		await expect(run('get', {})).rejects.toThrow(/broke the API contract[^]*tags\[0\]\.color/);
		expect(fx.sandbox.violations).toEqual([]);
	});

	test('Remove Tag does not crash on entries that are not tags (null), and does not write them back', async () => {
		fx.sandbox.put('candidates', { ...CANDIDATE, tags: [null, { id: 'tag_vip', name: 'VIP' }, { id: 'tag_keep', name: 'Keep me' }] } as never);
		const result = await run('removeTag', { tagId: 'tag_vip' });
		expect(result.error).toBeUndefined();
		expect(writes()[0].body).toEqual({ tags: [{ id: 'tag_keep', name: 'Keep me' }] });
	});

	test('names compare in one Unicode form: a tag stored decomposed (NFD) is found by its composed name', async () => {
		fx.sandbox.put('tags', { id: 'tag_cafe', name: 'Café'.normalize('NFD'), color: '#000', type: 'candidate', status: 'active' } as Tag);
		const result = await run('addTag', { tagId: byName('Café'.normalize('NFC')) });
		expect(result.error).toBeUndefined();
		expect(writes()[0].body).toEqual({ id: 'tag_cafe' });
	});

	test('a tag the service lists without an ID is never chosen by name (it could not be sent)', async () => {
		const http = await import('http');
		const posts: string[] = [];
		const server = http.createServer((req, res) => {
			if (req.method !== 'GET') posts.push(`${req.method} ${req.url}`);
			req.resume();
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ items: [{ name: 'Ghost' }], meta: { has_next_page: false, total_items: 1 } }));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(server.address() as import('net').AddressInfo).port}`;
			const result = await fx.run({ resource: 'candidate', operation: 'addTag', candidateId: 'can_ada', tagId: byName('Ghost') }, { credentials: { baseUrl } });
			expect(errorOf(result).message).toMatch(/no tag is named "Ghost"/);
			expect(posts).toEqual([]);
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	test('an ID of only spaces in a Tags list is refused, not sent', async () => {
		const result = await fx.run({ resource: 'job', operation: 'create', title: 'Dev', additionalFields: { tags: { tag: [{ id: '   ' }] } } });
		expect(errorOf(result).message).toBe('Invalid "Tags": each tag needs an ID or a name');
		expect(writes()).toEqual([]);
	});
});
