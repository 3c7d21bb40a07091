/**
 * The Recruiting node as an AI agent's tool (issue #20): its `recruitingTool` variant through n8n's
 * engine against the sandbox. Output shapes, one page at a time with a note on what is left, and
 * errors returned as text a model can act on. What the agent and an MCP client receive in real n8n
 * is checked in test/n8n/e2e (agentChecks.js).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import type { Application, Candidate } from '../../sandbox';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { simplifyForTool, type ToolShape } from '../../nodes/Recruiting/actions/simplify';
import { apiPath, errorOf, jsonOf, listDirect, toolVariant, useRecruitingFixture } from './fixture';

/** The fields of a tool shape, in order: what it makes of an empty record. */
const toolShapeFields = (shape: ToolShape): string[] => Object.keys(simplifyForTool({}, shape));

const SEED = { applications: 45, jobs: 3, candidates: 45, tags: 4 };
const fx = useRecruitingFixture(SEED);

const asTool = async (resource: string, operation: string, parameters: INodeParameters = {}) =>
	await fx.run({ resource, operation, ...parameters }, { asTool: true, typeVersion: 1.1 });

const requests = () => fx.sandbox.requests.map(({ method, path, query }) => ({ method, path, query }));

/** The seeded applications' IDs in list order, read before each test. */
let ALL_APPLICATIONS: string[] = [];
beforeEach(async () => {
	ALL_APPLICATIONS = (await listDirect(fx.sandbox, ['applications'])).map((application) => String(application.id));
});

function firstCandidate(): Candidate {
	const application = fx.sandbox.get('applications', ALL_APPLICATIONS[0]) as Application;
	return fx.sandbox.get('candidates', application.candidate.id) as Candidate;
}

describe('Output', () => {
	test('Simplified (the default) gives the flat candidate of Simplify', async () => {
		const candidate = firstCandidate();
		const result = await asTool('candidate', 'get', { candidateId: candidate.id });
		expect(result.error).toBeUndefined();
		const [item] = jsonOf(result);
		expect(item).toEqual(
			expect.objectContaining({ id: candidate.id, full_name: candidate.full_name, email: candidate.email }),
		);
		expect(item.location).toBeUndefined();
		expect(JSON.stringify(item).length).toBeLessThan(JSON.stringify(candidate).length);
	});

	test('Simplified has at most 10 fields per record, id first (n8n caps Simplify at ten)', async () => {
		const shapes: ToolShape[] = ['application', 'candidate', 'job', 'note', 'tag', 'emailTemplate', 'userCategory', 'user', 'source', 'webhook', 'feedback', 'interview'];
		for (const shape of shapes) {
			const fields = toolShapeFields(shape);
			expect({ shape, count: fields.length <= 10 }).toEqual({ shape, count: true });
			if (shape !== 'source') expect({ shape, first: fields[0] }).toEqual({ shape, first: 'id' });
		}
		const result = await asTool('application', 'getMany', { pageSize: 5 });
		const records = jsonOf(result).filter((item) => item.id);
		expect(records).toHaveLength(5);
		for (const record of records) expect(Object.keys(record)).toEqual(toolShapeFields('application'));
	});

	test('Raw gives the record as the service returns it', async () => {
		const candidate = firstCandidate();
		const result = await asTool('candidate', 'get', { candidateId: candidate.id, output: 'raw' });
		expect(jsonOf(result)).toEqual([candidate]);
	});

	test('Selected Fields keeps the ID and the named fields, dotted paths included', async () => {
		const result = await asTool('application', 'getMany', {
			pageSize: 2,
			output: 'selected',
			fields: 'applied_at, candidate.email,job.title, no_such_field',
		});
		const first = fx.sandbox.get('applications', ALL_APPLICATIONS[0]) as Application;
		expect(jsonOf(result)[0]).toEqual({
			id: first.id,
			applied_at: first.applied_at,
			'candidate.email': first.candidate.email,
			'job.title': first.job.title,
		});
	});

	test('Selected Fields reads only the record\'s own fields: __proto__ or constructor name nothing', async () => {
		const result = await asTool('tag', 'getMany', { pageSize: 1, output: 'selected', fields: '__proto__,constructor,name.length,toString' });
		const [item] = jsonOf(result);
		expect(Object.keys(item)).toEqual(['id']);
		expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
	});

	test('Selected Fields with no field named is a text for the model, and nothing is sent', async () => {
		const result = await asTool('candidate', 'get', { candidateId: 'can_x', output: 'selected', fields: ' , id' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ error: expect.stringMatching(/^Invalid "Fields": name at least one field/) }]);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('a webhook never shows its signing key as Simplified', async () => {
		const result = await asTool('webhook', 'get', { webhookId: 'wh_demo' });
		const [item] = jsonOf(result);
		expect(item.id).toBe('wh_demo');
		expect(Object.keys(item).sort()).toEqual(['description', 'endpoint', 'id', 'name', 'status', 'subscribed_events']);
	});

	test('every simplified shape is flat: no nested objects except answer lists', async () => {
		const results: IDataObject[][] = [
			jsonOf(await asTool('tag', 'getMany')),
			jsonOf(await asTool('emailTemplate', 'getMany')),
			jsonOf(await asTool('userCategory', 'getMany')),
		];
		for (const items of results) {
			expect(items.length).toBeGreaterThan(0);
			for (const item of items) {
				for (const value of Object.values(item)) expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(false);
			}
		}
	});
});

describe('lists sized for a model', () => {
	test('20 by default, in one request, with a last item saying what is left', async () => {
		const result = await asTool('application', 'getMany');
		expect(result.error).toBeUndefined();
		expect(requests()).toEqual([
			{ method: 'GET', path: apiPath(fx.sandbox, 'applications'), query: { page: '1', page_size: '20' } },
		]);
		const items = jsonOf(result);
		expect(items).toHaveLength(21);
		expect(items.slice(0, 20).map((item) => item.id)).toEqual(ALL_APPLICATIONS.slice(0, 20));
		expect(items[20]).toEqual({
			note: 'applications 1–20 of 45. More: page 2.',
			page: 1,
			next_page: 2,
			total_items: 45,
		});
	});

	test('the page the model asks for; the last page has no note', async () => {
		const second = jsonOf(await asTool('application', 'getMany', { page: 2 }));
		expect(second.slice(0, 20).map((item) => item.id)).toEqual(ALL_APPLICATIONS.slice(20, 40));
		expect(second[20]).toMatchObject({ page: 2, next_page: 3, total_items: 45 });
		const third = jsonOf(await asTool('application', 'getMany', { page: 3 }));
		expect(third.map((item) => item.id)).toEqual(ALL_APPLICATIONS.slice(40));
		const records = [...second, ...third].filter((item) => item.id !== undefined);
		expect(new Set(records.map((item) => item.id)).size).toBe(25);
	});

	test('an empty list says so instead of returning nothing', async () => {
		const result = await asTool('application', 'getMany', { filters: { jobId: { __rl: true, mode: 'id', value: 'job_none' } } });
		expect(jsonOf(result)).toEqual([{ note: 'No applications found.', total_items: 0 }]);
	});

	test('more than 100 per page is refused before any request', async () => {
		const result = await asTool('application', 'getMany', { pageSize: 500 });
		expect(jsonOf(result)).toEqual([{ error: expect.stringMatching(/^Invalid "Results per Page": must be a whole number from 1 to 100 \(it is 500\)/) }]);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('Return All, when the workflow author sets it, returns everything and no note', async () => {
		const result = await asTool('application', 'getMany', { returnAll: true, output: 'selected', fields: 'applied_at' });
		expect(jsonOf(result).map((item) => item.id)).toEqual(ALL_APPLICATIONS);
	});

	test('the editor shows a tool Results per Page (20) and Page instead of Limit (50)', () => {
		const tool = toolVariant(new Recruiting()).description;
		const values = NodeHelpers.getNodeParameters(tool.properties, { resource: 'application', operation: 'getMany' }, true, false, { typeVersion: 1.1 } as never, tool);
		expect(values).toMatchObject({ returnAll: false, pageSize: 20, page: 1, output: 'simplified' });
		expect(values).not.toHaveProperty('limit');
		expect(values).not.toHaveProperty('simplify');
		const plain = new Recruiting().description;
		const plainValues = NodeHelpers.getNodeParameters(plain.properties, { resource: 'application', operation: 'getMany' }, true, false, { typeVersion: 1.1 } as never, plain);
		expect(plainValues).toMatchObject({ returnAll: false, limit: 50, simplify: true });
		for (const name of ['pageSize', 'page', 'output', 'fields']) expect(plainValues).not.toHaveProperty(name);
	});
});

describe('errors a model can act on', () => {
	test('a candidate that does not exist: the text names it and says where IDs come from; the run succeeds', async () => {
		const result = await asTool('candidate', 'get', { candidateId: 'can_missing' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{
				error:
					'The candidate "can_missing" was not found. Candidate IDs start with can_: take one from candidate_id in the results of Application → Get Many (get many applications, filtered by job or stage), or ask the user.',
			},
		]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('a value refused before any request names the field', async () => {
		const result = await asTool('job', 'create', { title: 'x'.repeat(101) });
		expect(jsonOf(result)).toEqual([
			{ error: 'Invalid "Title": must be 1 to 100 characters long (it is 101). Correct that value and call this tool again.' },
		]);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('a write the service refuses (400 with field errors) lists every field error', async () => {
		const result = await asTool('interview', 'create', {
			applicationId: { __rl: true, mode: 'id', value: 'app_missing' },
			type: 'phone',
			start: '2030-03-04T10:00:00Z',
			end: '2030-03-04T11:00:00Z',
		});
		expect(result.error).toBeUndefined();
		const [item] = jsonOf(result);
		expect(String(item.error)).toMatch(/HTTP 400/);
		expect(String(item.error)).toMatch(/application_id/);
		expect(String(item.error)).toMatch(/do not retry unchanged\.$/);
		expect(fx.sandbox.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
	});

	test('a rate limit past the run\'s Max Wait: the model gets how long the service asked to wait, as text (issue 25, item 6)', async () => {
		fx.sandbox.setFaults([{ kind: 'rate_limit', retryAfter: 90, path: '/candidates', times: 1 }]);
		const result = await fx.run(
			{ resource: 'candidate', operation: 'get', candidateId: firstCandidate().id, requestOptions: { maxRateLimitWait: 10 } },
			{ asTool: true, typeVersion: 1.1 },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{
				error:
					'The recruiting service is rate limiting requests and asked to wait 1 min 30 s before the next one. Do not call this tool again before then; tell the user if the answer cannot wait.',
			},
		]);
		expect(fx.sandbox.requests).toHaveLength(1);
	});

	test('a wrong token still fails the run: the model cannot fix the credential', async () => {
		const result = await fx.run(
			{ resource: 'candidate', operation: 'get', candidateId: 'can_x' },
			{ asTool: true, typeVersion: 1.1, credentials: { accessToken: 'wrong' } },
		);
		expect(errorOf(result).message).toMatch(/Authorization failed/);
	});

	// What a model cannot fix fails the run as outside tool mode (the Error Trigger sees it), not
	// "correct that value and call this tool again".
	test.each([
		['a refused Base URL (plain http:// to another machine)', { credentials: { baseUrl: 'http://recruiting.example.com' } }, {}, /plain http:\/\//],
		['a Base URL that is no web URL', { credentials: { baseUrl: 'ftp://recruiting.example.com' } }, {}, /Base URL must be an absolute URL/],
		['an empty Company ID', { credentials: { companyId: '' } }, {}, /Company ID is empty or invalid/],
		['an invalid Request Options → Timeout', {}, { requestOptions: { timeout: -5 } }, /Invalid "Timeout"/],
		['an invalid Request Options → Pages in Flight', {}, { returnAll: true, requestOptions: { pagesInFlight: 99 } }, /Invalid "Pages in Flight"/],
	] as const)('%s fails the run, as outside tool mode', async (_, options, parameters, message) => {
		const operation = 'returnAll' in parameters ? { resource: 'application', operation: 'getMany' } : { resource: 'candidate', operation: 'get', candidateId: 'can_x' };
		const result = await fx.run({ ...operation, ...parameters }, { asTool: true, typeVersion: 1.1, ...options });
		expect(result.items).toEqual([]);
		expect(errorOf(result).message).toMatch(message);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('a refused value the model gave stays text for it, in the same run where the credential is fine', async () => {
		const result = await asTool('candidate', 'get', { candidateId: 'a b' });
		expect(result.error).toBeUndefined();
		expect(String(jsonOf(result)[0].error)).toMatch(/^Invalid "Candidate": .* Correct that value and call this tool again\.$/);
		const page = await asTool('application', 'getMany', { returnAll: false, pageSize: 500 });
		expect(page.error).toBeUndefined();
		expect(String(jsonOf(page)[0].error)).toMatch(/^Invalid "Results per Page".*call this tool again\.$/);
	});

	test('outside tool mode the same not-found fails the node as before', async () => {
		const result = await fx.run({ resource: 'candidate', operation: 'get', candidateId: 'can_missing' }, { typeVersion: 1.1 });
		expect(errorOf(result).message).toBe('The candidate "can_missing" was not found');
	});
});
