import type { INodeParameters } from 'n8n-workflow';
import type { Webhook } from '../../sandbox';
import { apiPath, errorOf, expr, jsonOf, startRecruitingFixture, type RecruitingFixture } from './fixture';

const SEED = { applications: 1, jobs: 1, candidates: 1, tags: 1 };
const WEIRD_ID = 'a/b?c#d%e+f&ü';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture(SEED);
});
afterAll(async () => await fx.close());
beforeEach(() => fx.sandbox.reset(SEED));

const summary = () => fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
const run = async (operation: string, parameters: INodeParameters) =>
	await fx.run({ resource: 'webhook', operation, ...parameters });
const stored = (id = 'wh_demo') => fx.sandbox.get('webhooks', id) as Webhook;

async function expectRejected(operation: string, parameters: INodeParameters, message: string | RegExp) {
	const error = errorOf(await run(operation, parameters));
	expect(error.message).toMatch(message);
	expect(error.itemIndex).toBe(0);
	expect(fx.sandbox.requests).toHaveLength(0);
}

describe('webhook get', () => {
	test('GET /webhooks/{webhookId} outputs the webhook as one item', async () => {
		const result = await run('get', { webhookId: 'wh_demo' });
		expect(result.error).toBeUndefined();
		expect(summary()).toEqual([{ method: 'GET', path: apiPath(fx.sandbox, 'webhooks', 'wh_demo'), query: {}, body: undefined }]);
		const { signing_key: signingKey, ...withoutKey } = stored();
		expect(signingKey).toMatch(/^whsec_/);
		expect(jsonOf(result)).toEqual([withoutKey]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('the signing key is output only when Include Signing Key is on', async () => {
		const result = await run('get', { webhookId: 'wh_demo', options: { includeSigningKey: true } });
		expect(jsonOf(result)).toEqual([stored()]);
	});

	test('an ID with reserved characters reaches exactly one path segment', async () => {
		fx.sandbox.put('webhooks', { ...stored(), id: WEIRD_ID });
		const result = await run('get', { webhookId: WEIRD_ID });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].path).toBe(apiPath(fx.sandbox, 'webhooks', WEIRD_ID));
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'webhooks', WEIRD_ID]);
		expect(jsonOf(result)[0].id).toBe(WEIRD_ID);
	});

	test.each(['', '.', '..'])('webhook ID %j is rejected before any request', async (webhookId) => {
		await expectRejected('get', { webhookId: expr(webhookId) }, /^Invalid "Webhook ID": /);
	});

	test('an unknown webhook is a 404 that names the id', async () => {
		const error = errorOf(await run('get', { webhookId: 'wh_missing' }));
		expect(error.message).toBe('The webhook "wh_missing" was not found');
		expect(error.httpCode).toBe('404');
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([404]);
	});

	test('a 400 problem document surfaces its title and detail', async () => {
		fx.sandbox.setFaults([{ kind: 'status', status: 400, method: 'GET', path: '/webhooks/' }]);
		const error = errorOf(await run('get', { webhookId: 'wh_demo' }));
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe('Bad Request (HTTP 400)');
		expect(error.description).toBe('Injected fault: the sandbox was told to fail this request.');
	});
});

describe('webhook update', () => {
	test('PUT /webhooks/{webhookId} with every field; outputs the webhook, and a later get agrees', async () => {
		const before = stored();
		const result = await run('update', {
			webhookId: 'wh_demo',
			updateFields: {
				endpoint: 'https://n8n.example.com/webhook/abc',
				name: 'n8n',
				events: ['candidate.tag.added', 'interview.cancelled'],
				description: 'Points at n8n',
			},
		});
		expect(result.error).toBeUndefined();
		const body = {
			endpoint: 'https://n8n.example.com/webhook/abc',
			name: 'n8n',
			description: 'Points at n8n',
			events: ['candidate.tag.added', 'interview.cancelled'],
		};
		expect(summary()).toEqual([{ method: 'PUT', path: apiPath(fx.sandbox, 'webhooks', 'wh_demo'), query: {}, body }]);
		const { signing_key: _key, ...beforeWithoutKey } = before;
		const expected = {
			...beforeWithoutKey,
			endpoint: body.endpoint,
			name: 'n8n',
			description: 'Points at n8n',
			subscribed_events: body.events,
			version: before.version + 1,
		};
		expect(jsonOf(result)).toEqual([expected]);
		fx.sandbox.clearRequests();
		expect(jsonOf(await run('get', { webhookId: 'wh_demo' }))).toEqual([expected]);
	});

	test('only the fields added are sent', async () => {
		const result = await run('update', { webhookId: 'wh_demo', updateFields: { name: 'Renamed' } });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].body).toEqual({ name: 'Renamed' });
		expect(stored()).toMatchObject({ name: 'Renamed', endpoint: 'https://hooks.example.invalid/recruiting' });
	});

	test('an ID with reserved characters reaches exactly one path segment', async () => {
		fx.sandbox.put('webhooks', { ...stored(), id: WEIRD_ID });
		const result = await run('update', { webhookId: WEIRD_ID, updateFields: { description: 'odd' } });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'webhooks', WEIRD_ID]);
		expect(stored(WEIRD_ID).description).toBe('odd');
	});

	test.each([
		['no fields at all', {}, 'Invalid "Update Fields": add at least one field to update'],
		['a relative endpoint', { endpoint: '/webhook/abc' }, /^Invalid "Endpoint": /],
		['an endpoint that is not http(s)', { endpoint: 'ftp://example.com/hook' }, /^Invalid "Endpoint": /],
		['an endpoint with spaces only', { endpoint: '   ' }, /^Invalid "Endpoint": /],
		['an empty event list', { events: [] }, 'Invalid "Events": select at least one event'],
	])('%s is rejected before any request', async (_, updateFields, message) => {
		await expectRejected('update', { webhookId: 'wh_demo', updateFields }, message);
	});

	test('an empty webhook ID is rejected before any request', async () => {
		await expectRejected('update', { webhookId: expr(''), updateFields: { name: 'x' } }, 'Invalid "Webhook ID": a value is required');
	});

	test('an unknown webhook is a 404 that names the id', async () => {
		const error = errorOf(await run('update', { webhookId: 'wh_missing', updateFields: { name: 'x' } }));
		expect(error.message).toBe('The webhook "wh_missing" was not found');
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([404]);
	});

	test('an event the node does not know is passed on; the service rejects it with a field error', async () => {
		const error = errorOf(
			await run('update', { webhookId: 'wh_demo', updateFields: { events: expr(['job.created', 'job.archived']) } }),
		);
		expect(fx.sandbox.requests[0].body).toEqual({ events: ['job.created', 'job.archived'] });
		expect(error.message).toBe('One or more validation errors occurred. (HTTP 400)');
		expect(error.description).toContain('The request is invalid; see errors for each field.');
		expect(error.description).toMatch(/^events\[1\]: 'events\[1\]' must be one of: /m);
		expect(stored().subscribed_events).not.toContain('job.archived');
	});
});
