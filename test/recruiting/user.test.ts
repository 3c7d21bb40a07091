/**
 * User → Get Many and Get (GET /users, /users/{id}: the service's full API), and the user pickers:
 * *From list* (searchUsers: `First Last <e-mail>`, matched on name and e-mail ignoring case and
 * accents as the candidate picker matches) and the dropdown of lists (getUsers).
 */
import type { User } from '../../sandbox';
import { SEED_USERS } from '../../sandbox';
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { loadOptionsHarness, type LoadOptionsHarness } from '../harness';
import { apiPath, describeListContract, errorOf, jsonOf, listDirect, useRecruitingFixture } from './fixture';

const fx = useRecruitingFixture({ applications: 3, jobs: 2, candidates: 3 });

describeListContract(() => fx, { resource: 'user', segments: ['users'], size: SEED_USERS.length });

const user = (i: number, first_name: string, last_name: string, email: string): User => ({
	id: `usr_extra${String(i).padStart(3, '0')}`,
	first_name,
	last_name,
	email,
	assigned_job_ids: [],
	type: 'user',
	category: { id: '', name: '' },
	permissions: [],
	reviewer_statuses: [],
	linked_user_candidates: [],
});

describe('user get', () => {
	test('GET /users/{id}, picked from the list: the user as the service shows it', async () => {
		const [expected] = await listDirect(fx.sandbox, ['users']);
		const result = await fx.run({
			resource: 'user',
			operation: 'get',
			userId: { __rl: true, mode: 'list', value: String(expected.id), cachedResultName: 'Maeve Brennan <maeve@acme-recruiting.example>' },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([expected]);
		expect(fx.sandbox.requests.map(({ method, path, query }) => ({ method, path, query }))).toEqual([
			{ method: 'GET', path: apiPath(fx.sandbox, 'users', String(expected.id)), query: {} },
		]);
	});

	test('an unknown user is a 404 naming it (the user list answers, so the endpoint is there)', async () => {
		const error = errorOf(await fx.run({ resource: 'user', operation: 'get', userId: 'usr_nobody' }));
		expect(error.message).toBe('The user "usr_nobody" was not found');
		expect(error.httpCode).toBe('404');
		expect(fx.sandbox.requests.map((r) => [r.path, r.query, r.status])).toEqual([
			[apiPath(fx.sandbox, 'users', 'usr_nobody'), {}, 404],
			[apiPath(fx.sandbox, 'users'), { page: '1', page_size: '1' }, 200],
		]);
	});

	test('as a tool: the small flat user shape, no permission lists', async () => {
		const result = await fx.run({ resource: 'user', operation: 'get', userId: SEED_USERS[4].id }, { asTool: true, typeVersion: 1.1 });
		expect(jsonOf(result)).toEqual([
			{
				id: SEED_USERS[4].id,
				first_name: 'Aisha',
				last_name: 'Okafor',
				email: SEED_USERS[4].email,
				type: 'reviewer',
				category: expect.any(String),
			},
		]);
	});
});

describe('user pickers', () => {
	let picker: LoadOptionsHarness;
	beforeEach(() => {
		picker = loadOptionsHarness(new Recruiting(), { resource: 'job', operation: 'create' }, {
			credentials: { recruitingApi: fx.credentials },
			credentialTypes: [new RecruitingApi()],
		});
	});

	test('From list: every user as `First Last <e-mail>`, the e-mail as description, in the service\'s order', async () => {
		const { results, paginationToken } = await picker.search('searchUsers');
		expect(paginationToken).toBeUndefined();
		expect(results).toEqual(
			SEED_USERS.map((u) => ({ name: `${u.first_name} ${u.last_name} <${u.email}>`, value: u.id, description: u.email })),
		);
	});

	test.each([
		['a first name, in capitals', 'PRIYA', ['Priya Natarajan']],
		['a name without its accents', 'tomas o briain', ['Tomás Ó Briain']],
		['an accented spelling of a plain name', 'Jönas', ['Jonas Lindqvist']],
		['part of an e-mail address', 'okafor@', []],
		['the start of an e-mail address', 'aisha@acme', ['Aisha Okafor']],
		['a last name', 'lindqvist', ['Jonas Lindqvist']],
		['a whole ID', SEED_USERS[1].id.toUpperCase(), ['Tomás Ó Briain']],
		['an ID prefix', 'usr_', []],
	])('a search for %s', async (_, filter, names) => {
		const { results } = await picker.search('searchUsers', filter);
		expect(results.map((r) => r.name.replace(/ <.*$/, ''))).toEqual(names);
	});

	test('a search goes on through every page of the list, and scrolling shows each user once', async () => {
		for (let i = 0; i < 230; i++) fx.sandbox.put('users', user(i, i % 2 ? 'Zoë' : 'Zoe', `Tester${i}`, `zoe.tester${i}@acme-recruiting.example`));
		const scroll = async (filter?: string) => {
			fx.sandbox.clearRequests();
			const values: string[] = [];
			const names: string[] = [];
			let token: string | undefined;
			do {
				const page = await picker.search('searchUsers', filter, token);
				values.push(...page.results.map((r) => String(r.value)));
				names.push(...page.results.map((r) => r.name));
				token = page.paginationToken;
			} while (token !== undefined);
			return { values, names, pages: fx.sandbox.requests.map((r) => r.query.page) };
		};
		const zoe = await scroll('zoe');
		expect(zoe.values).toHaveLength(230);
		expect(zoe.names.every((name) => /^Zo[eë] Tester\d+ <zoe\.tester\d+@acme-recruiting\.example>$/.test(name))).toBe(true);
		expect(zoe.pages).toEqual(['1', '2', '3']);
		const all = await scroll();
		expect(all.values).toHaveLength(235);
		expect(new Set(all.values).size).toBe(235);
	});

	test('the users dropdown of lists (attendees, mentions, a job\'s team): every user by label, sorted', async () => {
		const options = await picker.options('getUsers');
		expect(options).toEqual(
			SEED_USERS.map((u) => ({ name: `${u.first_name} ${u.last_name} <${u.email}>`, value: u.id })).sort((a, b) =>
				a.name.localeCompare(b.name),
			),
		);
	});
});
