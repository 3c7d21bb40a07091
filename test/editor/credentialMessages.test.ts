/**
 * What the credential test shows where n8n's own text would hide the cause (issue 43), as far as
 * n8n's declarative credential test allows: it shows a rule's message as written (no part of the
 * answer, no value of the credential), the status text otherwise, and only the error code of a
 * request it could not build.
 * - A wrong token or company: the service answers 401 (its reason in the body); the test says
 *   which two fields to check and where the service's reason shows, not n8n's bare "Unauthorized".
 * - A 404 from something that is not the service: the task broker's port is the default or the
 *   one N8N_RUNNERS_BROKER_PORT sets.
 * - Plain http:// to another machine with Allow Unencrypted HTTP off: nothing is sent, n8n can only
 *   show ERR_INVALID_URL, so the fields' help names the switch and that code.
 * The README says the same (its Credential section).
 */
import { readFileSync } from 'fs';
import path from 'path';
import { Workflow, type INodeTypes } from 'n8n-workflow';

import { RecruitingApi, TEST_RULES } from '../../credentials/RecruitingApi.credentials';
import { startSandbox, type Sandbox } from '../../sandbox';
import { testNode } from '../harness/testNode';

const credential = new RecruitingApi();
const ruleFor = (status: number): string | undefined =>
	TEST_RULES.find((rule) => rule.type === 'responseCode' && rule.properties.value === status)?.properties.message;
const field = (name: string) => credential.properties.find((p) => p.name === name)!;
const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: { applications: 2, jobs: 1, candidates: 2 } });
});
afterAll(async () => {
	await sandbox.close();
});

test('a wrong token or company: the service answers 401 with its reason; the test names both fields and where that reason shows', async () => {
	const tags = (company: string, token: string) =>
		fetch(`${sandbox.url}/v1.0/${company}/tags?page_size=1`, { headers: { authorization: `Bearer ${token}` } });
	for (const answer of [await tags(sandbox.companyId, 'wrong-token'), await tags('cmp_nope', sandbox.token)]) {
		expect(answer.status).toBe(401);
		expect(((await answer.json()) as { detail: string }).detail).toMatch(/access token/i);
	}
	const message = ruleFor(401)!;
	expect(message).toMatch(/^The service refused the Access Token for this Company ID \(HTTP 401\): check both/);
	expect(message).toMatch(/a Recruiting node run with this credential shows it/);
	expect(message).not.toMatch(/not the service/);
	expect(readme).toContain('*The service refused the Access Token for this Company ID (HTTP\n  401)…*');
});

test('a 404 that is not the service names the task broker\'s default port and the variable that changes it', () => {
	expect(ruleFor(404)).toMatch(/task broker on 127\.0\.0\.1:5679, or the port N8N_RUNNERS_BROKER_PORT sets/);
	expect(readme).toMatch(/task broker, on 127\.0\.0\.1:5679 unless\n {2}`N8N_RUNNERS_BROKER_PORT` sets another port/);
});

test('plain http:// to another machine, switch off: the test\'s URL has no host (n8n shows ERR_INVALID_URL); the fields name the switch and that code', () => {
	const node = testNode({ name: 'Temp-Node', type: 'n8n-nodes-base.noOp' });
	const nodeTypes = { getByName: () => ({ description: { properties: [] } }), getByNameAndVersion: () => ({ description: { properties: [] } }), getKnownTypes: () => ({}) };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: nodeTypes as unknown as INodeTypes });
	const testUrl = (allowInsecureHttp: boolean) => {
		const $credentials = { baseUrl: 'http://203.0.113.7:8080', companyId: 'cmp_demo', accessToken: 't', allowInsecureHttp };
		const base = workflow.expression.getParameterValue(credential.test.request.baseURL!, null, 0, 0, node.name, [], 'internal', { $credentials } as never);
		return `${String(base)}${credential.test.request.url}`;
	};
	expect(() => new URL(testUrl(false))).toThrow(expect.objectContaining({ code: 'ERR_INVALID_URL' }));
	expect(new URL(testUrl(true)).host).toBe('203.0.113.7:8080');
	expect(field('baseUrl').description).toMatch(/Plain http:\/\/ to another machine needs Allow Unencrypted HTTP \(below\).*ERR_INVALID_URL/);
	expect(field('allowInsecureHttp').displayName).toBe('Allow Unencrypted HTTP');
	expect(field('allowInsecureHttp').description).toMatch(/ERR_INVALID_URL/);
	expect(readme).toMatch(/plain `http:\/\/` to another machine with \*Allow Unencrypted HTTP\* off\*\*: only\n {2}`ERR_INVALID_URL`/);
});
