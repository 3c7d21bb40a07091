/**
 * Application → Get and Update Source (the service's full API): one application under its
 * candidate's path. The candidate is given, or found from the application in the application list
 * (one extra request while it is among the first 100 the service lists, one more per further 100).
 */
import type { Application } from '../../sandbox';
import { SEED_USERS } from '../../sandbox';
import { apiPath, errorOf, jsonOf, listDirect, useRecruitingFixture } from './fixture';

const fx = useRecruitingFixture({ applications: 150, jobs: 3 });
const picked = (value: string) => ({ __rl: true, mode: 'list', value, cachedResultName: 'Someone — a job' });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const requests = () => fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));

let listed: Application[] = [];
beforeEach(async () => {
	listed = (await listDirect(fx.sandbox, ['applications'])) as unknown as Application[];
});

describe('application get', () => {
	test('with its candidate given: one request, the application as the list shows it', async () => {
		const app = listed[7];
		const result = await fx.run({ resource: 'application', operation: 'get', applicationId: picked(app.id), candidateId: byId(app.candidate.id) });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([app]);
		expect(requests()).toEqual([
			{ method: 'GET', path: apiPath(fx.sandbox, 'candidates', app.candidate.id, 'applications', app.id), query: {}, body: undefined },
		]);
	});

	test('picked from the list alone: the candidate is found with one extra request when it is among the first 100', async () => {
		const app = listed[99];
		const result = await fx.run({ resource: 'application', operation: 'get', applicationId: picked(app.id) });
		expect(jsonOf(result)).toEqual([app]);
		expect(requests()).toEqual([
			{ method: 'GET', path: apiPath(fx.sandbox, 'applications'), query: { page: '1', page_size: '100' }, body: undefined },
			{ method: 'GET', path: apiPath(fx.sandbox, 'candidates', app.candidate.id, 'applications', app.id), query: {}, body: undefined },
		]);
	});

	test('further down the list, one more request per 100 applications', async () => {
		const app = listed[120];
		const result = await fx.run({ resource: 'application', operation: 'get', applicationId: byId(app.id), candidateId: byId('') });
		expect(jsonOf(result)).toEqual([app]);
		expect(requests().map((r) => r.query)).toEqual([{ page: '1', page_size: '100' }, { page: '2', page_size: '100' }, {}]);
	});

	test('many items without their candidate: one walk of the list serves them all (issue 25, item 10)', async () => {
		// Before, each item walked the list from page 1 on its own: 40 items here made 40 + 20 list requests.
		const apps = Array.from({ length: 40 }, (_, i) => listed[(i * 37) % listed.length]);
		const result = await fx.run(
			{ resource: 'application', operation: 'get', applicationId: byId('={{ $json.id }}') },
			{ input: apps.map((app) => ({ id: app.id })) },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((a) => a.id)).toEqual(apps.map((app) => app.id));
		const listPages = fx.sandbox.requests.filter((r) => r.path === apiPath(fx.sandbox, 'applications'));
		// 150 applications: two pages, each read once.
		expect(listPages.map((r) => r.query.page).sort()).toEqual(['1', '2']);
		expect(fx.sandbox.requests).toHaveLength(2 + apps.length);
	});

	test('items that wait on one list read refused past Max Wait: each error says how far the run got, once (review R12)', async () => {
		fx.sandbox.setRateLimit({ rate: 0.001, burst: 1 });
		const apps = listed.slice(110, 120); // all on page 2
		const result = await fx.run(
			{ resource: 'application', operation: 'get', applicationId: byId('={{ $json.id }}'), requestOptions: { maxRateLimitWait: 0, concurrency: 10 } },
			{ input: apps.map((app) => ({ id: app.id })), continueOnFail: true },
		);
		fx.sandbox.setRateLimit(undefined);
		const descriptions = jsonOf(result).map((item) => String(item.description));
		expect(descriptions).toHaveLength(10);
		for (const description of descriptions) expect(description.match(/items were done before this one/g)).toHaveLength(1);
	});

	test('an application the list does not hold: a 404 naming it, after the whole (bounded) list', async () => {
		const error = errorOf(await fx.run({ resource: 'application', operation: 'get', applicationId: byId('app_nobody') }));
		expect(error.message).toBe('The application "app_nobody" was not found');
		expect(error.description).toMatch(/Give its Candidate ID as well/);
		expect(requests().map((r) => r.query.page)).toEqual(['1', '2']);
	});

	test('Simplify (node version 1.1, on by default): the flat application of Get Many', async () => {
		const app = listed[3];
		const get = await fx.run(
			{ resource: 'application', operation: 'get', applicationId: byId(app.id), candidateId: byId(app.candidate.id) },
			{ typeVersion: 1.1 },
		);
		const many = await fx.run({ resource: 'application', operation: 'getMany', limit: 4 }, { typeVersion: 1.1 });
		expect(jsonOf(get)).toEqual([jsonOf(many)[3]]);
	});

	test('an empty application ID is refused before any request', async () => {
		const error = errorOf(await fx.run({ resource: 'application', operation: 'get', applicationId: byId(' ') }));
		expect(error.message).toBe('Invalid "Application": a value is required');
		expect(requests()).toEqual([]);
	});
});

describe('application updateSource', () => {
	test('PUT …/source with the fields given (the candidate found from the application); outputs the source, the service keeps it', async () => {
		const app = listed[10];
		const user = SEED_USERS[3];
		const result = await fx.run({
			resource: 'application',
			operation: 'updateSource',
			applicationId: picked(app.id),
			updateFields: {
				origin: 'referred',
				source: ' Employee referral ',
				user: picked(user.id),
				contact: { contact: { name: 'Dana Referrer' } },
			},
		});
		expect(result.error).toBeUndefined();
		const body = { origin: 'referred', source: 'Employee referral', user: { id: user.id }, contact: { name: 'Dana Referrer' } };
		expect(requests()).toEqual([
			{ method: 'GET', path: apiPath(fx.sandbox, 'applications'), query: { page: '1', page_size: '100' }, body: undefined },
			{ method: 'PUT', path: apiPath(fx.sandbox, 'candidates', app.candidate.id, 'applications', app.id, 'source'), query: {}, body },
		]);
		const source = {
			...app.source,
			origin: 'referred',
			source: 'Employee referral',
			user: { id: user.id, name: `${user.first_name} ${user.last_name}` },
			contact: { ...app.source.contact, name: 'Dana Referrer' },
		};
		expect(jsonOf(result)).toEqual([source]);
		expect((fx.sandbox.get('applications', app.id) as Application).source).toEqual(source);
	});

	test('as a tool: the small flat source', async () => {
		const app = listed[11];
		const result = await fx.run(
			{ resource: 'application', operation: 'updateSource', applicationId: byId(app.id), candidateId: byId(app.candidate.id), updateFields: { origin: 'applied' } },
			{ asTool: true, typeVersion: 1.1 },
		);
		expect(jsonOf(result)).toEqual([
			{
				origin: 'applied',
				source: app.source.source,
				contact_name: app.source.contact.name,
				user_id: app.source.user.id,
				user_name: app.source.user.name,
				recruiter_name: app.source.recruiter.name,
			},
		]);
	});

	test.each([
		['nothing to update', { updateFields: {} }, 'Invalid "Update Fields": add at least one field to update'],
		['an origin the service does not know', { updateFields: { origin: 'linkedin' } }, /^Invalid "Origin": must be one of added, applied, /],
	])('%s is refused before any request (no lookup either)', async (_, parameters, message) => {
		const error = errorOf(await fx.run({ resource: 'application', operation: 'updateSource', applicationId: byId(listed[0].id), ...parameters }));
		expect(error.message).toMatch(message);
		expect(requests()).toEqual([]);
	});

	test('an unknown user is the service\'s 400, with its field error', async () => {
		const app = listed[12];
		const error = errorOf(
			await fx.run({
				resource: 'application',
				operation: 'updateSource',
				applicationId: byId(app.id),
				candidateId: byId(app.candidate.id),
				updateFields: { user: byId('usr_ghost') },
			}),
		);
		expect(error.httpCode).toBe('400');
		expect(error.description).toMatch(/user\.id: User 'usr_ghost' was not found\./);
	});
});
