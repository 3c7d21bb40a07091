/**
 * One Base URL rule, one table, run against both places that apply it:
 *
 * - the transport: `recruitingRequest` in a context whose HTTP helper records the URL it is asked
 *   to send instead of sending it (a refusal throws before that);
 * - the credential test's `baseURL` expression, evaluated as n8n evaluates it when it tests a
 *   credential (RoutingNode → `workflow.expression.getParameterValue` with `$credentials`). A part
 *   of an expression that throws evaluates to nothing, so a refused Base URL leaves the test
 *   request without a host and n8n sends nothing (test/e2e checks that against a real n8n).
 */
import { Workflow, type ICredentialDataDecryptedObject, type INodeTypes } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { recruitingRequest, startRun, type RecruitingContext } from '../../nodes/shared/transport';
import { testNode } from '../harness/testNode';

const COMPANY = 'cmp_demo';
const NOT_WEB_URL = { refused: /must be an absolute URL starting with https:\/\// };
const PLAIN_HTTP = { refused: /uses plain http:\/\/ to .*unencrypted/ };
const OTHER_COMPANY = {
	refused: /^The credential's Base URL ends in \/v1\.0\/cmp_other, but its Company ID is cmp_demo: set Base URL to https:\/\/api\.hirehive\.com and Company ID to the company you mean/,
};
const API_PATH = { refused: /goes past the service's root into the API's paths: set Base URL to https:\/\/api\.hirehive\.com \(/ };
type Expected = string | { refused: RegExp };

/** Base URL, Allow Unencrypted HTTP, what the rule makes of it: the URL requests are built on, or a refusal. */
const TABLE: Array<[string, boolean, Expected]> = [
	['https://api.hirehive.com', false, 'https://api.hirehive.com'],
	['  https://api.hirehive.com/  ', false, 'https://api.hirehive.com'],
	['https://api.hirehive.com//', false, 'https://api.hirehive.com'],
	['https://api.example.com/base///', false, 'https://api.example.com/base'],
	['HTTPS://API.EXAMPLE.COM', false, 'HTTPS://API.EXAMPLE.COM'],
	['https://user:secret@api.example.com:8443/x', false, 'https://user:secret@api.example.com:8443/x'],
	['http://127.0.0.1:5730', false, 'http://127.0.0.1:5730'],
	['http://localhost:5730/', false, 'http://localhost:5730'],
	['HTTP://LOCALHOST', false, 'HTTP://LOCALHOST'],
	['http://[::1]:5730', false, 'http://[::1]:5730'],
	['http://127.1.2.3/api', false, 'http://127.1.2.3/api'],
	['http://localhost/@evil.example', false, 'http://localhost/@evil.example'],
	// The host follows the user info: this one is this machine, the next two are not.
	['http://proxy@localhost:5730', false, 'http://proxy@localhost:5730'],
	['http://localhost@evil.example', false, PLAIN_HTTP],
	['http://localhost:5730@evil.example', false, PLAIN_HTTP],
	['http://0.0.0.0:5730', false, PLAIN_HTTP],
	['http://0.0.0.0:5730', true, 'http://0.0.0.0:5730'],
	['http://api.example.com/', false, PLAIN_HTTP],
	['http://api.example.com/', true, 'http://api.example.com'],
	['http://localhost.example.com', false, PLAIN_HTTP],
	['http://api.evil.localhost', false, PLAIN_HTTP],
	['http://127.0.0.1.nip.io', false, PLAIN_HTTP],
	// Only the spelled-out forms are this machine (an expression cannot normalise an address).
	['http://127.1', false, PLAIN_HTTP],
	['ftp://api.example.com', false, NOT_WEB_URL],
	['ftp://api.example.com', true, NOT_WEB_URL],
	['file:///etc/passwd', true, NOT_WEB_URL],
	['javascript:alert(1)', true, NOT_WEB_URL],
	['api.hirehive.com', true, NOT_WEB_URL],
	['', false, NOT_WEB_URL],
	['/', true, NOT_WEB_URL],
	['https://', false, NOT_WEB_URL],
	['https:///api.example.com', false, NOT_WEB_URL],
	['https://api. example.com', false, NOT_WEB_URL],
	// Pasted with the API's path (issue 33): cut back to the root when the company is the Company ID's.
	['https://api.hirehive.com/v1.0/cmp_demo', false, 'https://api.hirehive.com'],
	['https://api.hirehive.com/v1.0/cmp_demo/', false, 'https://api.hirehive.com'],
	['https://api.hirehive.com/V1.0', false, 'https://api.hirehive.com'],
	['http://127.0.0.1:5730/v1.0/cmp_demo', false, 'http://127.0.0.1:5730'],
	['https://proxy.example.com/hirehive/v1.0/cmp_demo', false, 'https://proxy.example.com/hirehive'],
	['https://api.example.com/v1.01', false, 'https://api.example.com/v1.01'],
	['https://api.hirehive.com/v1.0/cmp_other', false, OTHER_COMPANY],
	['https://api.hirehive.com/v1.0/cmp_demo/tags', false, API_PATH],
	['http://api.example.com/v1.0/cmp_demo', false, PLAIN_HTTP],
];

const credentialsOf = (baseUrl: string, allowInsecureHttp: boolean): ICredentialDataDecryptedObject => ({
	baseUrl,
	companyId: COMPANY,
	accessToken: 'token',
	allowInsecureHttp,
});

const NODE = testNode({ name: 'Temp-Node', type: 'n8n-nodes-base.noOp' });

type Outcome = string | { refused: string };

/** Where the transport would send GET /tags, minus the API path: the Base URL it built on. */
async function transport(credentials: ICredentialDataDecryptedObject): Promise<Outcome> {
	const sent: string[] = [];
	const context = {
		getNode: () => NODE,
		getCredentials: async () => credentials,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: { url: string }) => {
				sent.push(options.url);
				return { statusCode: 200, headers: {}, body: { items: [] } };
			},
		},
	} as unknown as RecruitingContext;
	startRun(context, {});
	try {
		await recruitingRequest.call(context, { method: 'GET', path: '/tags' });
	} catch (error) {
		expect(sent).toEqual([]);
		return { refused: (error as Error).message };
	}
	expect(sent).toHaveLength(1);
	return withoutSuffix(sent[0], `/v1.0/${COMPANY}/tags`);
}

const nodeTypes = {
	getByName: () => ({ description: { properties: [] } }),
	getByNameAndVersion: () => ({ description: { properties: [] } }),
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/** The credential test's baseURL as n8n resolves it, minus the API path; a refusal leaves no host. */
function credentialTest(credentials: ICredentialDataDecryptedObject): Outcome {
	const workflow = new Workflow({ nodes: [NODE], connections: {}, active: false, nodeTypes });
	const { baseURL } = new RecruitingApi().test.request;
	let resolved: unknown;
	try {
		resolved = workflow.expression.getParameterValue(baseURL!, null, 0, 0, NODE.name, [], 'internal', {
			$credentials: credentials,
			$version: NODE.typeVersion,
		} as never);
	} catch (error) {
		return { refused: (error as Error).message };
	}
	const base = withoutSuffix(String(resolved), `/v1.0/${COMPANY}`);
	return base === '' ? { refused: 'the test request has no host: nothing is sent' } : base;
}

function withoutSuffix(url: string, suffix: string): string {
	expect(url.endsWith(suffix)).toBe(true);
	return url.slice(0, -suffix.length);
}

function expectOutcome(outcome: Outcome, expected: Expected, reason: boolean) {
	if (typeof expected === 'string') expect(outcome).toBe(expected);
	else if (reason) expect(outcome).toEqual({ refused: expect.stringMatching(expected.refused) });
	else expect(outcome).toEqual({ refused: expect.any(String) });
}

describe.each(TABLE)('Base URL %j, Allow Unencrypted HTTP %s', (baseUrl, allowInsecureHttp, expected) => {
	const credentials = credentialsOf(baseUrl, allowInsecureHttp);

	test('the transport', async () => {
		expectOutcome(await transport(credentials), expected, true);
	});

	test('the credential test', () => {
		// n8n does not pass on why the expression refused: only that it did.
		expectOutcome(credentialTest(credentials), expected, false);
	});
});

test('the generated expression is one n8n expression: no {{ or }} inside it', () => {
	const { baseURL } = new RecruitingApi().test.request;
	const inner = String(baseURL).slice('={{'.length, String(baseURL).indexOf('}}/v1.0/'));
	expect(inner).not.toMatch(/\{\{|\}\}/);
});

test('linear on long input: a megabyte of slashes, of host, of port digits', async () => {
	const MB = 1_000_000;
	for (const baseUrl of ['https://a' + '/'.repeat(MB), 'http://' + 'a'.repeat(MB) + ' ', 'http://a' + ':1'.repeat(MB / 2), '/'.repeat(MB) + 'x']) {
		const started = performance.now();
		await transport(credentialsOf(baseUrl, false));
		credentialTest(credentialsOf(baseUrl, false));
		expect(performance.now() - started).toBeLessThan(2_000);
	}
});
