import type { INodeParameters } from 'n8n-workflow';
import type { Candidate, Tag } from '../../sandbox';
import { apiPath, errorOf, expr, jsonOf, useRecruitingFixture } from './fixture';

const SEED = { applications: 2, jobs: 1, candidates: 2, tags: 2 };
const WEIRD_ID = 'a/b?c#d%e+f&ü';

const CANDIDATE: Candidate = {
	id: 'can_ada',
	first_name: 'Ada',
	last_name: 'Lovelace',
	full_name: 'Ada Lovelace',
	email: 'ada@example.com',
	phone_number: '+44 20 0000 0000',
	title: 'Analyst',
	company: 'Analytical Engines',
	location: { address: '12 St James Square, London', country: { name: 'United Kingdom', code: 'GB' } },
	image_url: 'https://example.com/ada.png',
	rating: 3,
	tags: [{ id: 'tag_old', name: 'Old' }],
	application_ids: ['app_ada'],
	social_profiles: [{ type: 'github', uri: 'https://github.com/ada' }],
};
const TAG: Tag = { id: 'tag_vip', name: 'VIP', color: '#ff0000', type: 'candidate', status: 'active' };

const fx = useRecruitingFixture(SEED, (sandbox) => {
	sandbox.put('candidates', CANDIDATE);
	sandbox.put('tags', TAG);
});

const summary = () => fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
const run = async (operation: string, parameters: INodeParameters) =>
	await fx.run({ resource: 'candidate', operation, ...parameters });

/** The node failed with `message` and sent nothing. */
async function expectRejected(operation: string, parameters: INodeParameters, message: string | RegExp) {
	const error = errorOf(await run(operation, parameters));
	expect(error.message).toMatch(message);
	expect(error.itemIndex).toBe(0);
	expect(fx.sandbox.requests).toHaveLength(0);
}

describe('candidate get', () => {
	test('GET /candidates/{candidateId} outputs the candidate as one item', async () => {
		const result = await run('get', { candidateId: 'can_ada' });
		expect(result.error).toBeUndefined();
		expect(summary()).toEqual([
			{ method: 'GET', path: apiPath(fx.sandbox, 'candidates', 'can_ada'), query: {}, body: undefined },
		]);
		expect(jsonOf(result)).toEqual([CANDIDATE]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('an ID with reserved characters reaches exactly one path segment', async () => {
		fx.sandbox.put('candidates', { ...CANDIDATE, id: WEIRD_ID });
		const result = await run('get', { candidateId: WEIRD_ID });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].path).toBe(apiPath(fx.sandbox, 'candidates', WEIRD_ID));
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'candidates', WEIRD_ID]);
		expect(jsonOf(result)[0].id).toBe(WEIRD_ID);
	});

	test('one request and one paired item per input item', async () => {
		const many = await fx.run(
			{ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}' },
			{ input: [{ id: 'can_ada' }, { id: WEIRD_ID }], continueOnFail: true },
		);
		expect(many.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(many.items[0].json.id).toBe('can_ada');
		expect(many.items[1].json.error).toBe(`The candidate "${WEIRD_ID}" was not found`);
	});

	test('an unknown candidate is a 404 that names the id', async () => {
		const error = errorOf(await run('get', { candidateId: 'can_missing' }));
		expect(error.message).toBe('The candidate "can_missing" was not found');
		expect(error.httpCode).toBe('404');
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([404]);
	});

	test.each(['', '.', '..'])('candidate ID %j is rejected before any request', async (candidateId) => {
		await expectRejected('get', { candidateId: expr(candidateId) }, /^Invalid "Candidate": /);
	});

	test('a 400 problem document surfaces its title and detail', async () => {
		fx.sandbox.setFaults([{ kind: 'status', status: 400, method: 'GET', path: '/candidates/' }]);
		const error = errorOf(await run('get', { candidateId: 'can_ada' }));
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe('Bad Request (HTTP 400)');
		expect(error.description).toContain('Injected fault');
	});
});

describe('candidate update', () => {
	const everyField = {
		firstName: 'Augusta Ada',
		lastName: 'King',
		email: 'ada.king@example.com',
		phoneNumber: '+44 20 1111 1111',
		title: 'Countess',
		company: 'Babbage & Co',
		location: { location: { address: 'Ockham Park', countryName: 'England', countryCode: 'GB-ENG' } },
		imageUrl: 'https://example.com/king.png',
		tags: { tag: [{ id: 'tag_vip', name: 'VIP' }, { id: 'tag_math' }] },
		rating: 5,
		socialProfiles: { profile: [{ uri: 'https://www.linkedin.com/in/ada' }, { uri: 'https://github.com/ada' }] },
	};

	test('PUT /candidates/{candidateId} with every field in the API shape; outputs the updated candidate', async () => {
		const result = await run('update', { candidateId: 'can_ada', updateFields: everyField });
		expect(result.error).toBeUndefined();
		const body = {
			first_name: 'Augusta Ada',
			last_name: 'King',
			phone_number: '+44 20 1111 1111',
			title: 'Countess',
			company: 'Babbage & Co',
			email: 'ada.king@example.com',
			image_url: 'https://example.com/king.png',
			rating: 5,
			location: { address: 'Ockham Park', country: { name: 'England', code: 'GB-ENG' } },
			tags: [{ id: 'tag_vip', name: 'VIP' }, { id: 'tag_math' }],
			social_profiles: [{ uri: 'https://www.linkedin.com/in/ada' }, { uri: 'https://github.com/ada' }],
		};
		expect(summary()).toEqual([{ method: 'PUT', path: apiPath(fx.sandbox, 'candidates', 'can_ada'), query: {}, body }]);
		const [candidate] = jsonOf(result);
		expect(result.items).toHaveLength(1);
		expect(candidate).toMatchObject({
			id: 'can_ada',
			full_name: 'Augusta Ada King',
			rating: 5,
			social_profiles: [
				{ type: 'linked_in', uri: 'https://www.linkedin.com/in/ada' },
				{ type: 'github', uri: 'https://github.com/ada' },
			],
		});
	});

	test('the update round-trips: a later get returns the changed candidate', async () => {
		await run('update', { candidateId: 'can_ada', updateFields: { lastName: 'Byron', rating: 4 } });
		expect(fx.sandbox.requests[0].body).toEqual({ last_name: 'Byron', rating: 4 });
		fx.sandbox.clearRequests();
		const [candidate] = jsonOf(await run('get', { candidateId: 'can_ada' }));
		expect(candidate).toMatchObject({ first_name: 'Ada', last_name: 'Byron', full_name: 'Ada Byron', rating: 4 });
		expect(candidate.email).toBe(CANDIDATE.email);
	});

	test('an ID with reserved characters reaches exactly one path segment', async () => {
		fx.sandbox.put('candidates', { ...CANDIDATE, id: WEIRD_ID });
		const result = await run('update', { candidateId: WEIRD_ID, updateFields: { title: 'Poet' } });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'candidates', WEIRD_ID]);
		expect((fx.sandbox.get('candidates', WEIRD_ID) as Candidate).title).toBe('Poet');
	});

	test.each([
		['no fields at all', {}, 'Invalid "Update Fields": add at least one field to update'],
		['a rating of 0', { rating: 0 }, 'Invalid "Rating": must be a whole number from 1 to 5'],
		['a rating of 6', { rating: 6 }, 'Invalid "Rating": must be a whole number from 1 to 5'],
		['a rating of 2.5', { rating: 2.5 }, 'Invalid "Rating": must be a whole number from 1 to 5'],
		['an email without a domain', { email: 'ada@' }, 'Invalid "Email": "ada@" is not a valid email address'],
		['an email with spaces', { email: 'ada @example.com' }, /^Invalid "Email": /],
		['a relative image URL', { imageUrl: 'example.com/a.png' }, /^Invalid "Image URL": /],
		['an ftp image URL', { imageUrl: 'ftp://example.com/a.png' }, /^Invalid "Image URL": /],
		['a social profile that is no URL', { socialProfiles: { profile: [{ uri: 'ada' }] } }, /^Invalid "Social Profiles": /],
		['a tag with neither ID nor name', { tags: { tag: [{ id: '', name: '' }] } }, 'Invalid "Tags": each tag needs an ID or a name'],
	])('%s is rejected before any request', async (_, updateFields, message) => {
		await expectRejected('update', { candidateId: 'can_ada', updateFields }, message);
	});

	test('an empty candidate ID is rejected before any request', async () => {
		await expectRejected('update', { candidateId: expr(''), updateFields: { title: 'x' } }, 'Invalid "Candidate": a value is required');
	});

	test('an unknown candidate is a 404 that names the id', async () => {
		const error = errorOf(await run('update', { candidateId: 'can_missing', updateFields: { title: 'x' } }));
		expect(error.message).toBe('The candidate "can_missing" was not found');
		expect(fx.sandbox.requests).toHaveLength(1);
	});

	test('a tag given by a name nobody has is refused before anything is written', async () => {
		const error = errorOf(await run('update', { candidateId: 'can_ada', updateFields: { tags: { tag: [{ name: 'New' }] } } }));
		expect(error.message).toBe('Invalid "Tags": no tag is named "New": pick it from the list or create it in the service first');
		expect(fx.sandbox.requests.map((r) => r.method)).toEqual(['GET']); // the tag list, nothing else
		expect((fx.sandbox.get('candidates', 'can_ada') as Candidate).tags).toEqual(CANDIDATE.tags);
	});

	test('a tag given by name is sent as the tag it names, { id, name }', async () => {
		const result = await run('update', { candidateId: 'can_ada', updateFields: { tags: { tag: [{ name: ' vip ' }] } } });
		expect(result.error).toBeUndefined();
		const put = fx.sandbox.requests.find((r) => r.method === 'PUT')!;
		expect(put.body).toEqual({ tags: [{ id: 'tag_vip', name: 'VIP' }] });
	});
});

describe('candidate addTag', () => {
	const fromList = (value: string) => ({ __rl: true, mode: 'list', value });
	const byId = (value: string) => ({ __rl: true, mode: 'id', value });

	test('POST /candidates/{candidateId}/tags with { id }; outputs { success: true } and the tag is on the candidate', async () => {
		const result = await run('addTag', { candidateId: 'can_ada', tagId: fromList('tag_vip') });
		expect(result.error).toBeUndefined();
		expect(summary()).toEqual([
			{ method: 'POST', path: apiPath(fx.sandbox, 'candidates', 'can_ada', 'tags'), query: {}, body: { id: 'tag_vip' } },
		]);
		expect(fx.sandbox.requests[0].status).toBe(204);
		expect(jsonOf(result)).toEqual([{ success: true }]);
		expect((fx.sandbox.get('candidates', 'can_ada') as Candidate).tags).toEqual([
			{ id: 'tag_old', name: 'Old' },
			{ id: 'tag_vip', name: 'VIP' },
		]);
		fx.sandbox.clearRequests();
		const [candidate] = jsonOf(await run('get', { candidateId: 'can_ada' }));
		expect(candidate.tags).toContainEqual({ id: 'tag_vip', name: 'VIP' });
	});

	test('an ID with reserved characters reaches exactly one path segment (By ID mode)', async () => {
		fx.sandbox.put('candidates', { ...CANDIDATE, id: WEIRD_ID });
		const result = await run('addTag', { candidateId: WEIRD_ID, tagId: byId('tag_vip') });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'candidates', WEIRD_ID, 'tags']);
		expect((fx.sandbox.get('candidates', WEIRD_ID) as Candidate).tags.map((t) => t.id)).toContain('tag_vip');
	});

	test.each([
		['an empty tag', { candidateId: 'can_ada', tagId: byId(expr('')) }, 'Invalid "Tag": a value is required'],
		['an empty candidate ID', { candidateId: expr(''), tagId: byId('tag_vip') }, 'Invalid "Candidate": a value is required'],
	])('%s is rejected before any request', async (_, parameters, message) => {
		await expectRejected('addTag', parameters, message);
	});

	test('an unknown candidate is a 404 that names the ids', async () => {
		const error = errorOf(await run('addTag', { candidateId: 'can_missing', tagId: byId('tag_vip') }));
		expect(error.message).toBe('The candidate "can_missing" or tag "tag_vip" was not found');
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([404]);
	});

	test('an unknown tag is rejected by the service: title, detail and the field error', async () => {
		const error = errorOf(await run('addTag', { candidateId: 'can_ada', tagId: byId('tag_nope') }));
		expect(error.message).toBe('One or more validation errors occurred. (HTTP 400)');
		expect(error.description).toContain('The request is invalid; see errors for each field.');
		expect(error.description).toContain("id: Tag 'tag_nope' was not found.");
	});
});
