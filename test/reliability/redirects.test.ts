/**
 * No credential leaves its origin: the service (here the sandbox, told to answer with a 3xx)
 * points a request at a second, real HTTP listener on another origin. For every kind of request
 * the package makes (an operation, Return All paging, a write, a picker, the trigger's activation
 * and deactivation, and its signing-key fetch on a delivery) the redirect is not followed: the
 * second listener receives nothing at all, and the user gets an error naming the status and the
 * Location.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'http';
import type { AddressInfo } from 'net';
import { Webhook as Signer } from 'standardwebhooks';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { startSandbox, type Sandbox, type Webhook } from '../../sandbox';
import { hookHarness, loadOptionsHarness, runNode, StaticDataStore, webhookServer, type WebhookServer } from '../harness';
import { restartableTrigger } from '../trigger/process';

const REDIRECTS = [301, 302, 303, 307, 308];
const WEBHOOK = 'wh_demo';

/** The other origin: records whatever reaches it and answers like a plausible API would. */
interface Thief {
	url: string;
	received: { method: string; url: string; headers: IncomingHttpHeaders }[];
	close(): Promise<void>;
}

async function startThief(): Promise<Thief> {
	const received: Thief['received'] = [];
	const server: Server = createServer((req, res) => {
		received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ data: { id: 'stolen', signing_key: 'whsec_' + Buffer.from('attacker').toString('base64'), endpoint: 'x', subscribed_events: [] }, items: [], meta: {} }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	// `localhost` and another port: a different origin from the sandbox's 127.0.0.1.
	const url = `http://localhost:${(server.address() as AddressInfo).port}`;
	return { url, received, close: async () => await new Promise<void>((resolve) => server.close(() => resolve())) };
}

let sandbox: Sandbox;
let thief: Thief;
let servers: WebhookServer[] = [];
/** The n8n process running the trigger (each test starts a fresh one). */
const n8n = restartableTrigger();

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: { applications: 150, jobs: 3, candidates: 5 } });
	thief = await startThief();
});
afterAll(async () => {
	await sandbox.close();
	await thief.close();
});
beforeEach(() => {
	sandbox.setFaults([]);
	sandbox.clearRequests();
	thief.received.length = 0;
	n8n.restart();
});
afterEach(async () => {
	await sandbox.settleDeliveries();
	await Promise.all(servers.map(async (server) => await server.close()));
	servers = [];
});

const credentials = () => ({
	recruitingApi: { baseUrl: sandbox.url, companyId: sandbox.companyId, accessToken: sandbox.token },
});

function redirect(status: number, path: string, method?: string, times = -1) {
	const location = `${thief.url}/v1.0/${sandbox.companyId}${path}?from=${status}`;
	sandbox.setFaults([{ kind: 'redirect', status, path, location, times, ...(method && { method }) }]);
	return location;
}

function expectRedirectError(error: Error | undefined, status: number, location: string) {
	expect(error).toBeDefined();
	const text = `${error!.message}\n${(error as { description?: string }).description ?? ''}`;
	expect(text).toContain(`HTTP ${status}`);
	expect(text).toContain(location);
	expect(text).not.toContain(sandbox.token);
}

async function runAction(parameters: Record<string, unknown>) {
	return await runNode({
		nodeTypes: { recruiting: new Recruiting() },
		node: { type: 'recruiting', parameters: parameters as never },
		credentials: credentials(),
		credentialTypes: [new RecruitingApi()],
	});
}

describe.each(REDIRECTS)('HTTP %i from the service', (status) => {
	test('an operation (Job → Get) is not redirected; the error names status and Location', async () => {
		const location = redirect(status, '/jobs/');
		const result = await runAction({ resource: 'job', operation: 'get', jobId: 'job_any' });
		expectRedirectError(result.error, status, location);
		expect(thief.received).toEqual([]);
	});

	test('a Return All list is not redirected', async () => {
		const location = redirect(status, '/applications');
		const result = await runAction({ resource: 'application', operation: 'getMany', returnAll: true });
		expectRedirectError(result.error, status, location);
		expect(thief.received).toEqual([]);
	});

	test('a write (Job → Delete) is not redirected', async () => {
		const location = redirect(status, '/jobs/', 'DELETE');
		const result = await runAction({ resource: 'job', operation: 'delete', jobId: 'job_any' });
		expectRedirectError(result.error, status, location);
		expect(thief.received).toEqual([]);
	});

	test('a picker (From list) is not redirected', async () => {
		const location = redirect(status, '/tags');
		const picker = loadOptionsHarness(new Recruiting(), { resource: 'candidate', operation: 'addTag' }, {
			credentials: credentials(),
			credentialTypes: [new RecruitingApi()],
		});
		const error = await picker.search('searchTags').then(
			() => undefined,
			(e: Error) => e,
		);
		expectRedirectError(error, status, location);
		expect(thief.received).toEqual([]);
	});
});

describe('the trigger', () => {
	const parameters = { webhookId: WEBHOOK, events: ['candidate.updated'], options: {} };

	async function trigger() {
		const store = new StaticDataStore();
		const options = { credentials: credentials(), credentialTypes: [new RecruitingApi()], staticData: store };
		const server = await webhookServer(n8n.node, parameters, options);
		servers.push(server);
		const hooks = hookHarness(n8n.node, parameters, { ...options, webhookBaseUrl: server.webhookBaseUrl });
		return { server, hooks };
	}

	test.each(['GET', 'PUT'])('activation: a redirected %s fails activation and reaches no other origin', async (method) => {
		const before = structuredClone(sandbox.get('webhooks', WEBHOOK));
		const { hooks } = await trigger();
		const location = redirect(302, `/webhooks/${WEBHOOK}`, method);
		const error = await hooks.activate().then(
			() => undefined,
			(e: Error) => e,
		);
		expectRedirectError(error, 302, location);
		expect(thief.received).toEqual([]);
		expect(sandbox.get('webhooks', WEBHOOK)).toEqual(before);
	});

	test('deactivation: a redirected read leaves the webhook as it is and reaches no other origin', async () => {
		const { hooks } = await trigger();
		await hooks.activate();
		const location = redirect(307, `/webhooks/${WEBHOOK}`);
		const error = await hooks.deactivate().then(
			() => undefined,
			(e: Error) => e,
		);
		expectRedirectError(error, 307, location);
		expect(thief.received).toEqual([]);
	});

	test('signing-key fetch on a delivery: no key from another origin, 503, nothing started', async () => {
		const { server, hooks } = await trigger();
		await hooks.activate();
		n8n.restart(); // a process that never ran the activation (queue mode, restart)
		const location = redirect(302, `/webhooks/${WEBHOOK}`, 'GET');
		const key = (sandbox.get('webhooks', WEBHOOK) as Webhook).signing_key;
		const body = JSON.stringify({ id: 'evt_1', type: 'candidate.updated', timestamp: new Date().toISOString(), data: { object: { id: 'can_1' } } });
		const at = new Date();
		const response = await fetch(server.url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'webhook-id': 'msg_redirect',
				'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
				'webhook-signature': new Signer(key).sign('msg_redirect', at, body),
			},
			body,
		});
		expect(response.status).toBe(503);
		expect(server.calls.every((call) => !call.workflowData)).toBe(true);
		expect(thief.received).toEqual([]);
		expect(sandbox.faultHits()).toEqual([1]);
		expect(location).toContain(thief.url);
	});
});
