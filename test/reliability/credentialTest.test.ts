/**
 * The credential test beside a real n8n (issue 33): a Base URL pasted with the API's path
 * (`…/v1.0/<company>`, as the sandbox once printed it) passes; something that is not the service
 * (an HTML page such as n8n's editor, a 404 without a problem document such as n8n 2.x's task
 * broker on 127.0.0.1:5679) fails saying so and what the Base URL must be, not a bare "Not Found"
 * or a pass. The request is the credential's own (`test.request`, its baseURL expression resolved
 * as n8n resolves it), sent over real HTTP; its `rules` are applied as n8n's CredentialsTester
 * applies them (a failing status against `responseCode` rules, a 2xx body against
 * `responseSuccessBody` rules, then n8n's own status text).
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { Workflow, type ICredentialDataDecryptedObject, type INodeTypes } from 'n8n-workflow';
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { startSandbox, type Sandbox } from '../../sandbox';
import { testNode } from '../harness/testNode';

const NODE = testNode({ name: 'Temp-Node', type: 'n8n-nodes-base.noOp' });
const nodeTypes = {
	getByName: () => ({ description: { properties: [] } }),
	getByNameAndVersion: () => ({ description: { properties: [] } }),
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

type Verdict = { status: 'OK' | 'Error'; message: string };

const get = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined);

async function credentialTest(credentials: ICredentialDataDecryptedObject): Promise<Verdict> {
	const { request, rules = [] } = new RecruitingApi().test;
	const workflow = new Workflow({ nodes: [NODE], connections: {}, active: false, nodeTypes });
	const baseURL = String(
		workflow.expression.getParameterValue(request.baseURL!, null, 0, 0, NODE.name, [], 'internal', { $credentials: credentials } as never),
	);
	const url = `${baseURL}${request.url}?${new URLSearchParams(request.qs as Record<string, string>)}`;
	const res = await fetch(url, { headers: { authorization: `Bearer ${String(credentials.accessToken)}` }, redirect: 'manual' });
	const text = await res.text();
	if (res.status < 200 || res.status > 299) {
		for (const rule of rules) {
			if (rule.type === 'responseCode' && rule.properties.value === res.status) return { status: 'Error', message: rule.properties.message };
		}
		return { status: 'Error', message: res.statusText || `Received HTTP status code: ${res.status}` };
	}
	let json: unknown = text;
	try {
		json = JSON.parse(text);
	} catch {
		// n8n hands the rules the body as it came.
	}
	for (const rule of rules) {
		if (rule.type === 'responseSuccessBody' && get(json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

let sandbox: Sandbox;
const servers: Server[] = [];
/** A local server answering every request with `status`, `type` and `body`; its origin. */
async function impostor(status: number, type: string, body: string): Promise<string> {
	const server = createServer((_req, res) => {
		res.writeHead(status, { 'content-type': type });
		res.end(body);
	});
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: { applications: 2, jobs: 1, candidates: 2 } });
});
afterAll(async () => {
	await sandbox.close();
	for (const server of servers) server.close();
});

const credentials = (baseUrl: string): ICredentialDataDecryptedObject => ({
	baseUrl,
	companyId: sandbox.companyId,
	accessToken: sandbox.token,
	allowInsecureHttp: false,
});

test('the sandbox\'s origin passes, and so does the origin pasted with /v1.0/<company> (what the sandbox once printed)', async () => {
	expect(await credentialTest(credentials(sandbox.url))).toEqual({ status: 'OK', message: 'Connection successful!' });
	expect(await credentialTest(credentials(`${sandbox.url}/v1.0/${sandbox.companyId}`))).toEqual({ status: 'OK', message: 'Connection successful!' });
});

test('an HTML page (n8n\'s editor answers unknown paths with one) fails as not the service, not as a pass', async () => {
	const origin = await impostor(200, 'text/html', '<!DOCTYPE html><html><head><title>n8n.io - Workflow Automation</title></head></html>');
	const verdict = await credentialTest(credentials(origin));
	expect(verdict.status).toBe('Error');
	expect(verdict.message).toMatch(/without the API's list of tags \(an HTML page, or n8n's own editor\): the Base URL is not the service/);
	expect(verdict.message).toMatch(/https:\/\/api\.hirehive\.com/);
});

test('a 404 without a problem document (n8n 2.x\'s task broker on 127.0.0.1:5679) says what the Base URL must be, not a bare "Not Found"', async () => {
	const origin = await impostor(404, 'text/plain', 'Not Found');
	const verdict = await credentialTest(credentials(origin));
	expect(verdict.status).toBe('Error');
	expect(verdict.message).not.toBe('Not Found');
	expect(verdict.message).toMatch(/answered 404: .*task broker on 127\.0\.0\.1:5679.*without \/v1\.0/);
});

test('a wrong token still fails with the service\'s 401', async () => {
	const verdict = await credentialTest({ ...credentials(sandbox.url), accessToken: 'wrong' });
	expect(verdict.status).toBe('Error');
	expect(verdict.message).not.toMatch(/not the service/);
});
