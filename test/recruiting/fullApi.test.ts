/**
 * The operations on endpoints of the service's full API, against a service that implements only
 * the 18 endpoints of the spec (the sandbox with `specOnly`), which answers them 404: the error says
 * the operation needs an endpoint of the full API. Against the full sandbox the same 404 for an ID
 * that does not exist names the ID. The two are told apart by one probe, sent only after a 404.
 */
import type { INodeParameters } from 'n8n-workflow';
import { SEED_USERS } from '../../sandbox';
import { seededRecords } from '../reliability/seeded';
import { apiPath, errorOf, jsonOf, startRecruitingFixture, type RecruitingFixture } from './fixture';

const SEED = { applications: 5, jobs: 2, candidates: 5 };
const application = seededRecords<{ id: string; candidate: { id: string } }>('cmp_demo', 'applications', SEED)[0];
const candidateId = application.candidate.id;
const otherCandidate = seededRecords<{ id: string }>('cmp_demo', 'candidates', SEED)[3].id;
const formRecord = seededRecords<{ id: string; questions: Array<{ id: string }> }>('cmp_demo', 'applicationForms', SEED)[0];
const form = formRecord.id;
const locator = (value: string) => ({ __rl: true, mode: 'id', value });

let specOnly: RecruitingFixture;
let full: RecruitingFixture;
beforeAll(async () => {
	[specOnly, full] = await Promise.all([startRecruitingFixture(SEED, { specOnly: true }), startRecruitingFixture(SEED)]);
});
afterAll(async () => await Promise.all([specOnly.close(), full.close()]));
beforeEach(() => {
	specOnly.sandbox.reset(SEED);
	full.sandbox.reset(SEED);
});

/** Each operation of the full API, with valid parameters, and the endpoint its error names. */
const OPERATIONS: Array<[string, INodeParameters, string]> = [
	['user getMany', { resource: 'user', operation: 'getMany', returnAll: true }, 'GET /users'],
	['user get', { resource: 'user', operation: 'get', userId: SEED_USERS[0].id }, 'GET /users/{id}'],
	[
		'candidateNote create',
		{ resource: 'candidateNote', operation: 'create', candidateId: locator(candidateId), text: 'Screened.' },
		'POST /candidates/{candidate_id}/notes',
	],
	[
		'application get',
		{ resource: 'application', operation: 'get', applicationId: locator(application.id), candidateId: locator(candidateId) },
		'GET /candidates/{candidate_id}/applications/{application_id}',
	],
	[
		'application updateSource',
		{
			resource: 'application',
			operation: 'updateSource',
			applicationId: locator(application.id),
			candidateId: locator(candidateId),
			updateFields: { origin: 'referred' },
		},
		'PUT /candidates/{candidate_id}/applications/{application_id}/source',
	],
	['feedback getMany', { resource: 'feedback', operation: 'getMany', limit: 5 }, 'GET /feedback'],
	[
		'feedback complete',
		{ resource: 'feedback', operation: 'complete', applicationId: locator(application.id), formId: form, answers: { answer: [{ questionId: formRecord.questions[0].id, text: 'Yes.' }] } },
		'POST /feedback',
	],
];

describe('a service with only the 18 endpoints of the spec', () => {
	test.each(OPERATIONS)('%s: the error says the operation needs an endpoint of the full API', async (_, parameters, endpoint) => {
		const result = await specOnly.run(parameters);
		const error = errorOf(result);
		expect(error.message).toBe(
			`This operation uses ${endpoint}, an endpoint of the service's full API, which the service at the credential's Base URL does not offer (it answered 404)`,
		);
		expect(error.description).toMatch(/documented in the service's public API reference beyond the 18-endpoint specification/);
		expect(error.message).not.toMatch(/was not found/);
		expect(error.httpCode).toBe('404');
		expect(error.itemIndex).toBe(0);
	});

	test.each(OPERATIONS)('%s: the same operation against the full API succeeds', async (_, parameters) => {
		const result = await full.run(parameters);
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThan(0);
	});

	test('the probe after the 404 is one request to an endpoint of the spec (here the candidate)', async () => {
		await specOnly.run(OPERATIONS[2][1]);
		expect(specOnly.sandbox.requests.map((r) => [r.method, r.path, r.status])).toEqual([
			['POST', apiPath(specOnly.sandbox, 'candidates', candidateId, 'notes'), 404],
			['GET', apiPath(specOnly.sandbox, 'candidates', candidateId), 200],
		]);
	});

	test('as an AI agent\'s tool the model is told the service does not offer it, and the run goes on', async () => {
		const result = await specOnly.run(OPERATIONS[0][1], { asTool: true, typeVersion: 1.1 });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{
				error:
					"This operation uses GET /users, an endpoint of the service's full API, which the service at the credential's Base URL does not offer (it answered 404). This service does not offer the operation: tell the user; calling it again will not help.",
			},
		]);
	});

	test('a candidate that does not exist is still "not found" there: the probe finds it missing', async () => {
		const error = errorOf(await specOnly.run({ ...OPERATIONS[2][1], candidateId: locator('can_nobody') }));
		expect(error.message).toBe('The candidate "can_nobody" was not found');
	});
});

describe('the full API: a 404 about an ID names the ID', () => {
	test.each([
		['user get', { resource: 'user', operation: 'get', userId: 'usr_nobody' }, 'The user "usr_nobody" was not found'],
		[
			'candidateNote create, unknown candidate',
			{ resource: 'candidateNote', operation: 'create', candidateId: locator('can_nobody'), text: 'x' },
			'The candidate "can_nobody" was not found',
		],
		[
			'application get, unknown application',
			{ resource: 'application', operation: 'get', applicationId: locator('app_nobody'), candidateId: locator(candidateId) },
			`The application "app_nobody" of candidate "${candidateId}" was not found`,
		],
		[
			'application get, another candidate\'s application',
			{ resource: 'application', operation: 'get', applicationId: locator(application.id), candidateId: locator(otherCandidate) },
			`The application "${application.id}" of candidate "${otherCandidate}" was not found`,
		],
		[
			'application updateSource, unknown candidate',
			{
				resource: 'application',
				operation: 'updateSource',
				applicationId: locator(application.id),
				candidateId: locator('can_nobody'),
				updateFields: { origin: 'added' },
			},
			`The application "${application.id}" of candidate "can_nobody" was not found`,
		],
	] as Array<[string, INodeParameters, string]>)('%s', async (_, parameters, message) => {
		const error = errorOf(await full.run(parameters));
		expect(error.message).toBe(message);
		expect(error.httpCode).toBe('404');
	});

	test('a 404 of POST /feedback while the feedback list answers is about the application or form', async () => {
		full.sandbox.setFaults([{ kind: 'status', status: 404, method: 'POST', path: '/feedback' }]);
		const error = errorOf(await full.run(OPERATIONS[6][1]));
		expect(error.message).toBe(`The application "${application.id}" or form "${form}" was not found`);
		expect(full.sandbox.requests.map((r) => [r.method, r.query, r.status])).toEqual([
			['POST', {}, 404],
			['GET', { page: '1', page_size: '1' }, 200],
		]);
	});

	test('a 404 of a list (it names no ID) is the missing endpoint, without a probe', async () => {
		full.sandbox.setFaults([{ kind: 'status', status: 404, method: 'GET', path: '/users' }]);
		const error = errorOf(await full.run(OPERATIONS[0][1]));
		expect(error.message).toMatch(/^This operation uses GET \/users, an endpoint of the service's full API/);
		expect(full.sandbox.requests).toHaveLength(1);
	});
});
