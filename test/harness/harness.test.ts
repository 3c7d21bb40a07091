/**
 * Proves the harness with throwaway node types (not our nodes): n8n's engine runs them against
 * a local HTTP service, with our credential shape and its generic bearer `authenticate`.
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { NodeApiError, NodeConnectionTypes, NodeOperationError, VersionedNodeType } from 'n8n-workflow';
import type {
	IAuthenticateGeneric,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';

import { hookHarness, loadInFreshProcess, RestartableProcess, runNode, StaticDataStore, webhookServer } from './index';

// ---------------------------------------------------------------- a local service double

interface Hook {
	id: string;
	url: string;
	events: string[];
	secret: string;
}

interface Service {
	baseUrl: string;
	requests: Array<{ method: string; url: string; authorization?: string }>;
	hooks: Map<string, Hook>;
	close(): Promise<void>;
}

const TOKEN = 'tok-123';
const COMPANY = 'cmp_demo';

async function startService(): Promise<Service> {
	const requests: Service['requests'] = [];
	const hooks = new Map<string, Hook>();
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			requests.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
			const send = (status: number, body?: unknown, type = 'application/json') => {
				res.writeHead(status, body === undefined ? {} : { 'content-type': type });
				res.end(body === undefined ? undefined : JSON.stringify(body));
			};
			const problem = (status: number, title: string, detail: string) =>
				send(status, { type: 'about:blank', title, status, detail }, 'application/problem+json');
			if (req.headers.authorization !== `Bearer ${TOKEN}`) return problem(401, 'Unauthorized', 'Bad token');
			const prefix = `/v1.0/${COMPANY}`;
			const path = req.url!.startsWith(prefix) ? req.url!.slice(prefix.length) : '';
			const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as IDataObject) : {};
			let m: RegExpMatchArray | null;
			if ((m = path.match(/^\/candidates\/([^/]+)$/)) && req.method === 'GET') {
				if (m[1] === 'missing') return problem(404, 'Not Found', `No candidate ${m[1]}`);
				if (m[1] === 'invalid') return problem(422, 'Unprocessable Entity', 'Candidate id is malformed');
				return send(200, { id: m[1], name: `Candidate ${m[1]}` });
			}
			if (path === '/hooks' && req.method === 'POST') {
				const hook: Hook = {
					id: randomUUID(),
					url: String(body.url),
					events: body.events as string[],
					secret: randomUUID(),
				};
				hooks.set(hook.id, hook);
				return send(201, { id: hook.id, url: hook.url, events: hook.events, secret: hook.secret });
			}
			if ((m = path.match(/^\/hooks\/([^/]+)(\/secret)?$/))) {
				const hook = hooks.get(m[1]);
				if (!hook) return problem(404, 'Not Found', 'No such hook');
				if (m[2] && req.method === 'GET') return send(200, { secret: hook.secret });
				if (req.method === 'GET') return send(200, { id: hook.id, url: hook.url, events: hook.events });
				if (req.method === 'DELETE') {
					hooks.delete(hook.id);
					return send(204);
				}
			}
			return problem(404, 'Not Found', `No route ${req.method} ${req.url}`);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		requests,
		hooks,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

// ---------------------------------------------------------------- throwaway types

/** Shaped like our credential: baseUrl, companyId, accessToken; generic bearer header. */
class TestRecruitingApi implements ICredentialType {
	name = 'recruitingApi';

	displayName = 'Recruiting API (test)';

	properties: INodeProperties[] = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		{ displayName: 'Company ID', name: 'companyId', type: 'string', default: '' },
		{ displayName: 'Access Token', name: 'accessToken', type: 'string', typeOptions: { password: true }, default: '' },
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
	};
}

async function apiRequest(
	this: IExecuteFunctions | IHookFunctions | IWebhookFunctions,
	method: 'GET' | 'POST' | 'DELETE',
	path: string,
	body?: IDataObject,
): Promise<IDataObject> {
	const { baseUrl, companyId } = await this.getCredentials<{ baseUrl: string; companyId: string }>('recruitingApi');
	return (await this.helpers.httpRequestWithAuthentication.call(this, 'recruitingApi', {
		method,
		url: `${baseUrl}/v1.0/${companyId}${path}`,
		body,
		json: true,
	})) as IDataObject;
}

const candidateDescription = (version: number | number[]): INodeTypeDescription => ({
	displayName: 'Candidate Probe',
	name: 'candidateProbe',
	group: ['transform'],
	version,
	description: 'Gets a candidate per item',
	defaults: { name: 'Candidate Probe' },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [{ name: 'recruitingApi', required: true }],
	properties: [
		{ displayName: 'Candidate ID', name: 'candidateId', type: 'string', default: '' },
		{ displayName: 'Wrap Errors', name: 'wrapErrors', type: 'boolean', default: false },
	],
});

/** Airtable-style: one try/catch per item, continueOnFail handled by the node. */
class CandidateProbe implements INodeType {
	description = candidateDescription([1, 2]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			try {
				const id = this.getNodeParameter('candidateId', i) as string;
				const candidate = await apiRequest.call(this, 'GET', `/candidates/${id}`);
				out.push(...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(candidate), { itemData: { item: i } }));
			} catch (error) {
				const wrapped = this.getNodeParameter('wrapErrors', i) as boolean;
				const err =
					wrapped && error instanceof NodeApiError
						? new NodeApiError(this.getNode(), error.cause as unknown as JsonObject, {
								itemIndex: i,
								message: `Candidate lookup failed: ${error.httpCode}`,
								description: 'The service said no',
								httpCode: error.httpCode ?? undefined,
							})
						: error;
				if (this.continueOnFail()) {
					out.push({ json: { error: (err as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw err;
			}
		}
		return [out];
	}
}

class CandidateProbeV1 extends CandidateProbe {
	description = candidateDescription(1);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((item, i) => ({ json: { ...item.json, v: 1 }, pairedItem: { item: i } }))];
	}
}

class VersionedProbe extends VersionedNodeType {
	constructor() {
		const base: INodeTypeBaseDescription = {
			displayName: 'Candidate Probe',
			name: 'candidateProbe',
			group: ['transform'],
			description: 'Versioned',
			defaultVersion: 2,
		};
		super({ 1: new CandidateProbeV1(), 2: new CandidateProbe() }, base);
	}
}

/** Throws without catching anything itself: n8n's engine handles continueOnFail. */
class Thrower implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Thrower',
		name: 'thrower',
		group: ['transform'],
		version: 1,
		description: 'Throws',
		defaults: { name: 'Thrower' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		throw new NodeOperationError(this.getNode(), 'Boom', { itemIndex: 0, description: 'on purpose' });
	}
}

/**
 * A tiny trigger shaped like the Cal lifecycle: static data keeps only the hook id; the signing
 * secret lives in "process memory" (`memory`), refetched with the credential when missing.
 */
function makeTrigger(memory: Map<string, string>) {
	return class TinyTrigger implements INodeType {
		description: INodeTypeDescription = {
			displayName: 'Tiny Trigger',
			name: 'tinyTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Receives hooks',
			defaults: { name: 'Tiny Trigger' },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: 'recruitingApi', required: true }],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
			properties: [
				{ displayName: 'Events', name: 'events', type: 'multiOptions', options: [
					{ name: 'Created', value: 'candidate.created' },
					{ name: 'Hired', value: 'candidate.hired' },
				], default: [] },
			],
		};

		webhookMethods = {
			default: {
				async checkExists(this: IHookFunctions): Promise<boolean> {
					const data = this.getWorkflowStaticData('node');
					if (!data.hookId) return false;
					try {
						const hook = await apiRequest.call(this, 'GET', `/hooks/${data.hookId as string}`);
						return hook.url === this.getNodeWebhookUrl('default');
					} catch (error) {
						if ((error as NodeApiError).httpCode === '404') {
							delete data.hookId;
							return false;
						}
						throw error;
					}
				},
				async create(this: IHookFunctions): Promise<boolean> {
					const hook = await apiRequest.call(this, 'POST', '/hooks', {
						url: this.getNodeWebhookUrl('default')!,
						events: this.getNodeParameter('events') as string[],
					});
					this.getWorkflowStaticData('node').hookId = hook.id;
					memory.set(hook.id as string, hook.secret as string);
					return true;
				},
				async delete(this: IHookFunctions): Promise<boolean> {
					const data = this.getWorkflowStaticData('node');
					if (!data.hookId) return true;
					try {
						await apiRequest.call(this, 'DELETE', `/hooks/${data.hookId as string}`);
					} catch (error) {
						if ((error as NodeApiError).httpCode !== '404') return false;
					}
					memory.delete(data.hookId as string);
					delete data.hookId;
					return true;
				},
			},
		};

		async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
			const req = this.getRequestObject();
			const hookId = this.getWorkflowStaticData('node').hookId as string | undefined;
			if (req.headers['x-boom']) throw new Error('exploded');
			let secret = hookId ? memory.get(hookId) : undefined;
			if (hookId && secret === undefined) {
				secret = (await apiRequest.call(this, 'GET', `/hooks/${hookId}/secret`)).secret as string;
				memory.set(hookId, secret);
			}
			const expected = secret ? createHmac('sha256', secret).update(req.rawBody).digest('hex') : '';
			if (!secret || req.headers['x-signature'] !== expected) {
				this.getResponseObject().status(401).json({ message: 'Invalid signature' });
				return { noWebhookResponse: true };
			}
			const body = this.getBodyData();
			return { workflowData: [[{ json: { ...body, rawLength: req.rawBody.length } }]] };
		}
	};
}

// ---------------------------------------------------------------- tests

let service: Service;
const credentials = () => ({ recruitingApi: { baseUrl: service.baseUrl, companyId: COMPANY, accessToken: TOKEN } });
const credentialTypes = [new TestRecruitingApi()];

beforeAll(async () => {
	service = await startService();
});
afterAll(async () => {
	await service.close();
});
beforeEach(() => {
	service.requests.length = 0;
	service.hooks.clear();
});

describe('runNode', () => {
	test('runs a programmatic node through WorkflowExecute with the bearer header from the credential', async () => {
		const result = await runNode({
			nodeTypes: { candidateProbe: new CandidateProbe() },
			node: { type: 'candidateProbe', parameters: { candidateId: '={{ $json.id }}' } },
			input: [{ id: 'c1' }, { id: 'c2' }],
			credentials: credentials(),
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: { id: 'c1', name: 'Candidate c1' }, pairedItem: { item: 0 } },
			{ json: { id: 'c2', name: 'Candidate c2' }, pairedItem: { item: 1 } },
		]);
		expect(service.requests).toEqual([
			{ method: 'GET', url: `/v1.0/${COMPANY}/candidates/c1`, authorization: `Bearer ${TOKEN}` },
			{ method: 'GET', url: `/v1.0/${COMPANY}/candidates/c2`, authorization: `Bearer ${TOKEN}` },
		]);
		expect(result.executionOrder).toEqual(['Start', 'Candidate Probe']);
		expect(result.workflow.nodes['Candidate Probe'].type).toBe('n8n-nodes-recruiting.candidateProbe');
	});

	test('a wrong token reaches the service and comes back as NodeApiError 401', async () => {
		const result = await runNode({
			nodeTypes: { candidateProbe: new CandidateProbe() },
			node: { type: 'candidateProbe', parameters: { candidateId: 'c1' } },
			credentials: { recruitingApi: { ...credentials().recruitingApi, accessToken: 'nope' } },
			credentialTypes,
		});
		expect(service.requests[0].authorization).toBe('Bearer nope');
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect((result.error as NodeApiError).httpCode).toBe('401');
	});

	test('a NodeApiError thrown by n8n-core surfaces in `error` with httpCode and the service body', async () => {
		const result = await runNode({
			nodeTypes: { candidateProbe: new CandidateProbe() },
			node: { type: 'candidateProbe', parameters: { candidateId: 'invalid' } },
			credentials: credentials(),
			credentialTypes,
		});
		expect(result.items).toEqual([]);
		expect(result.errorNode).toBe('Candidate Probe');
		const error = result.error as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('422');
		expect(error.message).toBe('Your request is invalid or could not be processed by the service');
		expect(error.description).toBe('Request failed with status code 422');
		expect(error.context.data).toEqual({ type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'Candidate id is malformed' });
		expect(result.status).toBe('error');
		// What n8n itself stored: a plain copy with the same fields.
		expect(result.recordedError).toMatchObject({ name: 'NodeApiError', httpCode: '422', message: error.message });
	});

	test("the node's own NodeApiError keeps message, description and itemIndex", async () => {
		const result = await runNode({
			nodeTypes: { candidateProbe: new CandidateProbe() },
			node: { type: 'candidateProbe', parameters: { candidateId: '={{ $json.id }}', wrapErrors: true } },
			input: [{ id: 'c1' }, { id: 'missing' }],
			credentials: credentials(),
			credentialTypes,
		});
		const error = result.error as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Candidate lookup failed: 404');
		expect(error.description).toBe('The service said no');
		expect(error.context.itemIndex).toBe(1);
		expect(error.httpCode).toBe('404');
	});

	test('onError continueRegularOutput: the node writes an error item paired to its input', async () => {
		const result = await runNode({
			nodeTypes: { candidateProbe: new CandidateProbe() },
			node: {
				type: 'candidateProbe',
				parameters: { candidateId: '={{ $json.id }}' },
				onError: 'continueRegularOutput',
			},
			input: [{ id: 'missing' }, { id: 'c2' }],
			credentials: credentials(),
			credentialTypes,
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0]).toEqual({
			json: { error: 'The resource you are requesting could not be found' },
			pairedItem: { item: 0 },
		});
		expect(result.items[1]).toEqual({ json: { id: 'c2', name: 'Candidate c2' }, pairedItem: { item: 1 } });

		// "Continue (using error output)": n8n's engine routes the node's error items to output 1.
		const routed = await runNode({
			nodeTypes: { candidateProbe: new CandidateProbe() },
			node: { type: 'candidateProbe', parameters: { candidateId: '={{ $json.id }}' }, onError: 'continueErrorOutput' },
			input: [{ id: 'missing' }, { id: 'c2' }],
			credentials: credentials(),
			credentialTypes,
		});
		expect(routed.outputs[0]).toEqual([{ json: { id: 'c2', name: 'Candidate c2' }, pairedItem: { item: 1 } }]);
		expect(routed.outputs[1]).toMatchObject([{ json: { error: expect.stringMatching(/could not be found/) }, pairedItem: { item: 0 } }]);
	});

	test("when the node throws, n8n's engine applies onError (Continue passes the input on)", async () => {
		const result = await runNode({
			nodeTypes: { thrower: new Thrower() },
			node: { type: 'thrower', onError: 'continueRegularOutput' },
			input: [{ a: 1 }],
		});
		// "Continue": n8n passes the input items on. Its engine keeps the last node's error as the
		// execution's, so a run whose *last* node continued still ends 'error', as in n8n itself.
		expect(result.items).toMatchObject([{ json: { a: 1 }, pairedItem: { item: 0 } }]);
		expect(result.error).toBeInstanceOf(NodeOperationError); // shown on the node, as in n8n's UI
		const stopped = await runNode({ nodeTypes: { thrower: new Thrower() }, node: { type: 'thrower' } });
		expect(stopped.status).toBe('error');
		expect(stopped.error).toBeInstanceOf(NodeOperationError);
		expect(stopped.error).toMatchObject({ message: 'Boom', description: 'on purpose', context: { itemIndex: 0 } });
	});

	test('versioned node types resolve through NodeHelpers.getVersionedNodeType; chains run in order', async () => {
		const v1 = await runNode({
			nodeTypes: { candidateProbe: new VersionedProbe() },
			node: { type: 'candidateProbe', typeVersion: 1 },
			input: [{ x: 1 }],
		});
		expect(v1.items).toEqual([{ json: { x: 1, v: 1 }, pairedItem: { item: 0 } }]);
		const chain = await runNode({
			nodeTypes: { candidateProbe: new VersionedProbe() },
			chain: [
				{ type: 'candidateProbe', typeVersion: 1 },
				{ type: 'candidateProbe', parameters: { candidateId: '={{ $json.x }}' } },
			],
			input: [{ x: 7 }],
			credentials: credentials(),
			credentialTypes,
		});
		expect(chain.nodeNames).toEqual(['Start', 'Candidate Probe', 'Candidate Probe1']);
		expect(chain.workflow.nodes['Candidate Probe1'].typeVersion).toBe(2);
		expect(chain.items).toEqual([{ json: { id: '7', name: 'Candidate 7' }, pairedItem: { item: 0 } }]);
	});

	test('loadInFreshProcess gives a module its own memory but the same n8n-workflow', async () => {
		const load = () => require('./fixtures/memoryNode') as typeof import('./fixtures/memoryNode');
		const first = load().MemoryNode;
		const run = async (type: INodeType) =>
			(await runNode({ nodeTypes: { memory: type }, node: { type: 'memory' } })).items[0].json.counter;
		expect(await run(new first())).toBe(1);
		expect(await run(new first())).toBe(2);
		const other = loadInFreshProcess(load).MemoryNode;
		expect(other).not.toBe(first);
		expect(await run(new other())).toBe(1);
		expect(loadInFreshProcess(() => require('n8n-workflow') as unknown)).toBe(require('n8n-workflow'));
	});
});

describe('hookHarness', () => {
	const params = { events: ['candidate.created'] };

	test('activate → deactivate → activate, with static data kept the way n8n stores it', async () => {
		const memory = new Map<string, string>();
		const Trigger = makeTrigger(memory);
		const hooks = hookHarness(new Trigger(), params, {
			credentials: credentials(),
			credentialTypes,
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookId: 'wh-1',
		});
		expect(hooks.webhookUrl).toBe('http://127.0.0.1:5678/webhook/wh-1/webhook');

		expect(await hooks.activate()).toEqual({ existed: false, created: true });
		const [hook] = [...service.hooks.values()];
		expect(hook).toMatchObject({ url: hooks.webhookUrl, events: ['candidate.created'] });
		expect(hooks.staticData).toEqual({ hookId: hook.id });
		expect(service.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);

		expect(await hooks.activate()).toEqual({ existed: true });
		expect(service.hooks.size).toBe(1);

		expect(await hooks.deactivate()).toBe(true);
		expect(service.hooks.size).toBe(0);
		expect(hooks.staticData).toEqual({});

		expect(await hooks.activate()).toEqual({ existed: false, created: true });
		expect(service.hooks.size).toBe(1);
		expect(hooks.calls.map((c) => `${c.method}:${c.result}`)).toEqual([
			'checkExists:false', 'create:true', 'checkExists:true', 'delete:true', 'checkExists:false', 'create:true',
		]);
	});

	test('a restart (fresh harness, saved static data) and a process with no memory', async () => {
		const memory = new Map<string, string>();
		const first = hookHarness(new (makeTrigger(memory))(), params, { credentials: credentials(), credentialTypes });
		await first.activate();
		const saved = first.staticData;

		const restarted = hookHarness(new (makeTrigger(memory))(), params, { credentials: credentials(), credentialTypes, staticData: saved });
		expect(await restarted.checkExists()).toBe(true);

		// Another process: none of the first one's memory, only the stored static data.
		const otherMemory = new Map<string, string>();
		const other = hookHarness(new (makeTrigger(otherMemory))(), params, { credentials: credentials(), credentialTypes, staticData: saved });
		expect(await other.deactivate()).toBe(true);
		expect(service.hooks.size).toBe(0);
		expect(other.staticData).toEqual({});
		// …and the first harness's "database row" is a different one: it still has the id.
		expect(first.staticData).toEqual(saved);
	});

	test('a failed create is not saved, and n8n runs delete on the stored data', async () => {
		const hooks = hookHarness(new (makeTrigger(new Map()))(), params, {
			credentials: { recruitingApi: { ...credentials().recruitingApi, accessToken: 'nope' } },
			credentialTypes,
		});
		await expect(hooks.activate()).rejects.toBeInstanceOf(NodeApiError);
		expect(hooks.calls.map((c) => c.method)).toEqual(['checkExists', 'create', 'delete']);
		expect(hooks.calls[1].error).toBeInstanceOf(NodeApiError);
		expect(hooks.staticData).toEqual({});
	});
});

describe('webhookServer', () => {
	const params = { events: ['candidate.hired'] };

	async function setUp(memory = new Map<string, string>()) {
		const store = new StaticDataStore();
		const Trigger = makeTrigger(memory);
		const server = await webhookServer(new Trigger(), params, { credentials: credentials(), credentialTypes, staticData: store });
		const hooks = hookHarness(new Trigger(), params, {
			credentials: credentials(),
			credentialTypes,
			staticData: store,
			webhookBaseUrl: server.webhookBaseUrl,
		});
		await hooks.activate();
		const [hook] = [...service.hooks.values()];
		return { server, hooks, hook, store };
	}

	const post = async (url: string, raw: string, headers: Record<string, string> = {}) => {
		const response = await fetch(url, { method: 'POST', body: raw, headers: { 'content-type': 'application/json', ...headers } });
		return { status: response.status, text: await response.text() };
	};

	test('a signed POST: raw body intact, parsed body, 200 "Workflow was started", workflowData', async () => {
		const { server, hook } = await setUp();
		try {
			expect(hook.url).toBe(server.url);
			const raw = '{ "event": "candidate.hired",\n  "name": "Zoë" }';
			const signature = createHmac('sha256', hook.secret).update(raw).digest('hex');
			const response = await post(server.url, raw, { 'x-signature': signature });
			expect(response).toEqual({ status: 200, text: '{"message":"Workflow was started"}' });
			const [call] = server.calls;
			expect(call.respondedBy).toBe('n8n');
			expect(call.request.rawBody!.toString('utf8')).toBe(raw);
			expect(call.request.body).toEqual({ event: 'candidate.hired', name: 'Zoë' });
			expect(call.workflowData).toEqual([[{ json: { event: 'candidate.hired', name: 'Zoë', rawLength: Buffer.byteLength(raw) } }]]);
		} finally {
			await server.close();
		}
	});

	test('a bad signature: the node answers 401 itself and no execution starts', async () => {
		const { server } = await setUp();
		try {
			const response = await post(server.url, '{"event":"x"}', { 'x-signature': 'forged' });
			expect(response).toEqual({ status: 401, text: '{"message":"Invalid signature"}' });
			expect(server.calls[0]).toMatchObject({ respondedBy: 'node', response: { status: 401, json: { message: 'Invalid signature' } } });
			expect(server.calls[0].workflowData).toBeUndefined();
		} finally {
			await server.close();
		}
	});

	test("another process without the key in memory refetches it with the credential", async () => {
		const { server, hook, store } = await setUp();
		await server.close();
		const fresh = await webhookServer(new (makeTrigger(new Map()))(), params, { credentials: credentials(), credentialTypes, staticData: store });
		try {
			expect(fresh.url).not.toBe(server.url);
			const raw = '{"event":"candidate.hired"}';
			const signature = createHmac('sha256', hook.secret).update(raw).digest('hex');
			service.requests.length = 0;
			expect((await post(fresh.url, raw, { 'x-signature': signature })).status).toBe(200);
			expect(service.requests).toEqual([
				{ method: 'GET', url: `/v1.0/${COMPANY}/hooks/${hook.id}/secret`, authorization: `Bearer ${TOKEN}` },
			]);
		} finally {
			await fresh.close();
		}
	});

	test('a node type given as a function (RestartableProcess): after restart() the same server and URL run the new process', async () => {
		const n8n = new RestartableProcess(() => new (makeTrigger(new Map()))());
		const store = new StaticDataStore();
		const server = await webhookServer(n8n.node, params, { credentials: credentials(), credentialTypes, staticData: store });
		try {
			await hookHarness(n8n.node, params, { credentials: credentials(), credentialTypes, staticData: store, webhookBaseUrl: server.webhookBaseUrl }).activate();
			const [hook] = [...service.hooks.values()];
			const raw = '{"event":"candidate.hired"}';
			const signature = createHmac('sha256', hook.secret).update(raw).digest('hex');
			service.requests.length = 0;
			// The process that ran the activation has the secret in memory.
			expect((await post(server.url, raw, { 'x-signature': signature })).status).toBe(200);
			expect(service.requests).toEqual([]);
			n8n.restart();
			expect((await post(server.url, raw, { 'x-signature': signature })).status).toBe(200);
			expect(service.requests).toEqual([
				{ method: 'GET', url: `/v1.0/${COMPANY}/hooks/${hook.id}/secret`, authorization: `Bearer ${TOKEN}` },
			]);
			expect(server.calls.map((call) => call.workflowData?.[0][0].json.event)).toEqual(['candidate.hired', 'candidate.hired']);
		} finally {
			await server.close();
		}
	});

	test('n8n-side answers: webhook() throwing → 500, bad JSON → 422, unknown path → 404', async () => {
		const { server } = await setUp();
		try {
			const boom = await post(server.url, '{}', { 'x-boom': '1' });
			expect(boom.status).toBe(500);
			expect(JSON.parse(boom.text)).toEqual({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			expect(server.calls[0].error?.message).toBe('exploded');

			const bad = await post(server.url, '{"a":');
			expect(bad.status).toBe(422);
			expect(JSON.parse(bad.text)).toMatchObject({ code: 422, message: 'Failed to parse request body' });

			const missing = await post(`${server.webhookBaseUrl}/nope`, '{}');
			expect(missing.status).toBe(404);
		} finally {
			await server.close();
		}
	});
});
