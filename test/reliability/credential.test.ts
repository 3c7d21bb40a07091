/**
 * Where the credential may go: the Base URL's default is the hosted service over https, plain
 * http is refused before any request unless it stays on this machine or the credential opts in,
 * and no error text carries a webhook's signing key.
 */
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { isLoopbackHost, redactSecrets } from '../../nodes/shared/transport';
import { startRecruitingFixture, type RecruitingFixture } from '../recruiting/fixture';
import type { Webhook } from '../../sandbox';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture({ applications: 3, jobs: 1, candidates: 3 });
});
afterAll(async () => await fx.close());
beforeEach(() => {
	fx.sandbox.setFaults([]);
	fx.sandbox.clearRequests();
});

const listTags = { resource: 'tag', operation: 'getMany', returnAll: true };
const port = () => new URL(fx.sandbox.url).port;

test('the Base URL defaults to the hosted service over https, and says where the company ID and token come from', () => {
	const properties = new RecruitingApi().properties;
	const field = (name: string) => properties.find((p) => p.name === name)!;
	expect(field('baseUrl').default).toBe('https://api.hirehive.com');
	expect(field('companyId').description).toMatch(/API settings/);
	expect(field('accessToken').description).toMatch(/API settings/);
	expect(field('allowInsecureHttp').default).toBe(false);
});

test('plain http:// to a host other than this machine is refused before any request', async () => {
	// 0.0.0.0 reaches the local sandbox, but is not a loopback name: it stands for "another host".
	const result = await fx.run(listTags, { credentials: { baseUrl: `http://0.0.0.0:${port()}` } });
	expect(result.error?.message).toMatch(/plain http:\/\/ to 0\.0\.0\.0.*unencrypted/);
	expect((result.error as { description?: string }).description).toMatch(/Allow Unencrypted HTTP/);
	expect(fx.sandbox.requests).toEqual([]);
});

test('with "Allow Unencrypted HTTP" on, the same Base URL works', async () => {
	const result = await fx.run(listTags, {
		credentials: { baseUrl: `http://0.0.0.0:${port()}`, allowInsecureHttp: true } as never,
	});
	expect(result.error).toBeUndefined();
	expect(fx.sandbox.requests.length).toBeGreaterThan(0);
});

test.each(['127.0.0.1', 'localhost'])('plain http:// to %s (this machine) needs no opt-in', async (host) => {
	const result = await fx.run(listTags, { credentials: { baseUrl: `http://${host}:${port()}/` } });
	expect(result.error).toBeUndefined();
});

test('a Base URL that is not an absolute http(s) URL is refused, naming the field', async () => {
	for (const baseUrl of ['api.hirehive.com', 'ftp://api.hirehive.com', '', 'https://']) {
		const result = await fx.run(listTags, { credentials: { baseUrl } });
		expect(result.error?.message).toMatch(/Base URL must be an absolute URL/);
	}
	expect(fx.sandbox.requests).toEqual([]);
});

test('loopback names', () => {
	expect(['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '[::1]'].map(isLoopbackHost)).toEqual([
		true, true, true, true, true,
	]);
	// `*.localhost` is resolved by the system resolver (DNS), so it is not trusted as this machine.
	expect(
		['0.0.0.0', '127.0.0.1.nip.io', 'localhost.example.com', 'api.evil.localhost', '10.0.0.1', '128.0.0.1'].map(isLoopbackHost),
	).toEqual([false, false, false, false, false, false]);
});

describe('no signing key in an error text', () => {
	test('Webhook → Get answered with malformed JSON: the excerpt in the error is redacted', async () => {
		// Short fields first and a long tail, so the key sits whole inside the 200-character excerpt.
		const id = 'wh_demo';
		const webhook = fx.sandbox.get('webhooks', id) as Webhook;
		fx.sandbox.put('webhooks', { ...webhook, name: 'n', endpoint: 'https://a.invalid', description: 'd', subscribed_events: Array(40).fill('job.created') });
		const key = webhook.signing_key;
		fx.sandbox.setFaults([{ kind: 'malformed_json', path: '/webhooks/', times: -1 }]);
		const result = await fx.run({ resource: 'webhook', operation: 'get', webhookId: id });
		expect(result.error?.message).toMatch(/malformed JSON/);
		const error = result.error as { errorResponse?: unknown; context?: unknown; description?: unknown };
		// errorResponse is what n8n keeps of the answer (not enumerable in JSON.stringify(error)).
		const everything = JSON.stringify({ error, errorResponse: error.errorResponse, context: error.context, items: result.items });
		expect(everything).toContain('[redacted]');
		// Not even a part of it.
		expect(everything).not.toContain(key.slice('whsec_'.length, 'whsec_'.length + 8));
	});

	test('redactSecrets hides signing_key values and whsec_ secrets, also cut off mid-value', () => {
		expect(redactSecrets('{"data":{"id":"wh_1","signing_key":"whsec_QUJDREVGR0g=","x":1}}')).toBe(
			'{"data":{"id":"wh_1","signing_key":"[redacted]","x":1}}',
		);
		expect(redactSecrets('{"signing_key": "c2VjcmV0c2Vj')).toBe('{"signing_key": "[redacted]"');
		expect(redactSecrets('token whsec_QUJDREVG and more')).toBe('token whsec_[redacted] and more');
		expect(redactSecrets('{"name":"no secret here"}')).toBe('{"name":"no secret here"}');
	});

	// Secrets are hidden by their form or their name; paths and IDs, however long, stay readable
	// (a rule that hid every token-like run of 32 characters once showed `No resource at /v1.[redacted]`).
	const LONG_ID = `can_${'0123456789abcdefABCDEF'.repeat(3)}`;
	const BARE_KEY = 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=';
	test.each([
		['a path', 'No resource at /v1.0/cmp_demo/candidates/can_missing_999', 'No resource at /v1.0/cmp_demo/candidates/can_missing_999'],
		['a long ID', `The candidate "${LONG_ID}" was not found`, `The candidate "${LONG_ID}" was not found`],
		['a long path with a long ID', `GET /v1.0/cmp_demo/applications/app_${'x'.repeat(60)}/notes`, `GET /v1.0/cmp_demo/applications/app_${'x'.repeat(60)}/notes`],
		['a base64 word that is no secret', `attachment ${BARE_KEY}`, `attachment ${BARE_KEY}`],
		['words about tokens', 'The access token is missing or invalid.', 'The access token is missing or invalid.'],
		['a signing key in JSON', `{"signing_key":"${BARE_KEY}","id":"wh_1"}`, '{"signing_key":"[redacted]","id":"wh_1"}'],
		['a signing key in escaped JSON', `{\\"signing_key\\":\\"${BARE_KEY}\\"}`, '{\\"signing_key\\":\\"[redacted]\\"}'],
		['a signing key in prose', `webhook exists with signing_key ${BARE_KEY}`, 'webhook exists with signing_key [redacted]'],
		['a whsec_ secret', `rotated to whsec_${BARE_KEY} at noon`, 'rotated to whsec_[redacted] at noon'],
		['a bearer value', 'Authorization: Bearer SeNtInEl-AcCeSs-ToKeN-4f1c9e2b7d refused', 'Authorization: Bearer [redacted] refused'],
		['a basic value', 'sent Basic dXNlcjpwYXNzd29yZA== to the proxy', 'sent Basic [redacted] to the proxy'],
		['a token in a query', `GET /x?access_token=${'t'.repeat(40)}&page=2`, 'GET /x?access_token=[redacted]&page=2'],
		['a client secret in JSON', `{"client_secret": "${'s'.repeat(12)}"}`, '{"client_secret": "[redacted]"}'],
	])('redactSecrets, %s', (_case, text, expected) => {
		expect(redactSecrets(text)).toBe(expected);
	});
});

describe('no signing key in a problem document shown to the user', () => {
	const KEY = 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=';
	const BARE = 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=';
	const answers: Array<[string, number, unknown]> = [
		['a 409 whose detail quotes the key', 409, { title: `Conflict on ${KEY}`, detail: `webhook exists with signing_key ${KEY}` }],
		['a 422 whose field errors quote it', 422, { title: 'Invalid', errors: { signing_key: [`${BARE} is already used`] } }],
		['a 500 that echoes the resource', 500, { data: { id: 'wh_1', signing_key: BARE } }],
	];
	let server: import('http').Server;
	let url = '';
	let next: [number, unknown] = [500, {}];
	beforeAll(async () => {
		const http = await import('http');
		server = http.createServer((req, res) => {
			req.resume();
			res.writeHead(next[0], { 'content-type': 'application/problem+json' });
			res.end(JSON.stringify(next[1]));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as import('net').AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

	test.each(answers)('%s', async (_name, status, body) => {
		next = [status, body];
		const result = await fx.run({ resource: 'webhook', operation: 'get', webhookId: 'wh_1' }, { credentials: { baseUrl: url } });
		expect(result.error).toBeDefined();
		const error = result.error as { errorResponse?: unknown; description?: unknown; message: string };
		const everything = JSON.stringify({ message: error.message, description: error.description, errorResponse: error.errorResponse });
		expect(everything).not.toContain(BARE);
		expect(everything).not.toContain(BARE.slice(0, 12));
	});
});
