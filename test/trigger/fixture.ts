/**
 * The Recruiting Trigger's test set-up, shared by the suites that drive it through n8n-core's hook
 * and webhook contexts against the sandbox: `const fx = useTriggerFixture()` registers the Jest
 * hooks (one sandbox per file, reset before each test) and returns the helpers. Each test runs the
 * trigger in a freshly started n8n process (test/trigger/process.ts): its own module memory.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { startSandbox, type Sandbox, type Webhook } from '../../sandbox';
import { hookHarness, StaticDataStore, webhookServer, type HookHarness, type WebhookServer } from '../harness';
import { restartableTrigger, triggerInNewProcess } from './process';

export const WEBHOOK = 'wh_demo';
export const SELECTED = ['candidate.updated', 'job.created', 'application.created'];
const SEED = { applications: 5, jobs: 2, candidates: 5 };

export interface Setup {
	server: WebhookServer;
	hooks: HookHarness;
	store: StaticDataStore;
	/** Another hook harness on the same "database row", e.g. with other parameters. */
	hooksWith(params: INodeParameters, store?: StaticDataStore): HookHarness;
}

export function lastCall(server: WebhookServer) {
	return server.calls[server.calls.length - 1];
}

/** The items the last call started the workflow with; undefined when it started nothing. */
export function items(server: WebhookServer): INodeExecutionData[] | undefined {
	return lastCall(server).workflowData?.[0];
}

export function useTriggerFixture() {
	let sandbox: Sandbox;
	let servers: WebhookServer[] = [];
	/** The credential's base URL when not the sandbox's (a proxy in front of it). */
	let baseUrl: string | undefined;
	/** The n8n process running the trigger behind this test's URLs and static data. */
	const n8n = restartableTrigger();

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: SEED });
	});
	afterAll(async () => {
		await sandbox.close();
	});
	beforeEach(() => {
		sandbox.reset(SEED);
		// Every test starts as a freshly started n8n process: no signing key, no delivery ids in memory.
		n8n.restart();
		// A token of its own per test: a 429's pause or pace (kept per credential) must not carry into the next test.
		sandbox.rotateToken();
		baseUrl = undefined;
	});
	afterEach(async () => {
		await sandbox.settleDeliveries();
		await Promise.all(servers.map(async (server) => await server.close()));
		servers = [];
	});

	const credentials = () => ({
		recruitingApi: { baseUrl: baseUrl ?? sandbox.url, companyId: sandbox.companyId, accessToken: sandbox.token },
	});
	const parameters = (overrides: INodeParameters = {}): INodeParameters => ({
		webhookId: WEBHOOK,
		events: SELECTED,
		options: {},
		...overrides,
	});
	const remote = (id = WEBHOOK) => sandbox.get('webhooks', id) as Webhook;
	function webhookRequests() {
		return sandbox.requests
			.filter((r) => r.segments.includes('webhooks'))
			.map((r) => ({ method: r.method, id: r.segments[r.segments.length - 1], body: r.body as IDataObject | undefined }));
	}
	/** The dashboard state of a webhook: what deactivation must put back. */
	const dashboardState = (id = WEBHOOK) => {
		const { endpoint, subscribed_events, name, description } = remote(id);
		return { endpoint, subscribed_events, name, description };
	};
	/** A hook harness of the trigger with its own static data, at `webhookBaseUrl`. */
	const harnessAt = (webhookBaseUrl: string, store: StaticDataStore, params = parameters(), extra: { webhookId?: string; workflowId?: string } = {}) =>
		hookHarness(n8n.node, params, {
			credentials: credentials(),
			credentialTypes: [new RecruitingApi()],
			staticData: store,
			webhookBaseUrl,
			...extra,
		});

	return {
		get sandbox() {
			return sandbox;
		},
		/**
		 * The trigger of the n8n process running now, for harnesses the test makes itself: pass the
		 * function, so they follow a `restart()` like the fixture's own.
		 */
		trigger: n8n.node,
		/**
		 * n8n restarted, or the next delivery reaches a queue-mode webhook process that never ran the
		 * activation: every server and hook harness of this test, made before or after, runs from now
		 * on in a freshly started process (nothing in memory; URLs and static data stay).
		 */
		restart() {
			n8n.restart();
		},
		/** The trigger in another process alongside this one (a queue-mode webhook process, a second n8n instance). */
		triggerInOtherProcess: triggerInNewProcess,
		useCredentialBaseUrl(url: string) {
			baseUrl = url;
		},
		/** A webhook server made by the test itself, closed after it like the fixture's own. */
		closeAfterTest(server: WebhookServer) {
			servers.push(server);
		},
		credentials,
		parameters,
		remote,
		dashboardState,
		/** The sandbox's requests to /webhooks: method, webhook id and body. */
		webhookRequests,
		/** A webhook server (n8n's production endpoint) and a hook harness sharing one static-data row. */
		async setup(params: INodeParameters = parameters(), store = new StaticDataStore()): Promise<Setup> {
			const options = { credentials: credentials(), credentialTypes: [new RecruitingApi()], staticData: store };
			const server = await webhookServer(n8n.node, params, options);
			servers.push(server);
			const hooksWith = (p: INodeParameters, s = store) =>
				hookHarness(n8n.node, p, { ...options, credentials: credentials(), staticData: s, webhookBaseUrl: server.webhookBaseUrl });
			return { server, hooks: hooksWith(params), store, hooksWith };
		},
		/** The editor's test listen: its own copy of static data, the test URL, activation "manual". */
		testListen(server: WebhookServer, store: StaticDataStore, params = parameters(), base?: string): HookHarness {
			return harnessAt(base ?? server.webhookBaseUrl.replace(/\/webhook$/, '/webhook-test'), store, params);
		},
		/** The same trigger in a second workflow of the same n8n: its own node webhook id and static data. */
		otherWorkflow(webhookBaseUrl: string): HookHarness {
			return harnessAt(webhookBaseUrl, new StaticDataStore(), parameters(), {
				webhookId: '0f0e0d0c-0b0a-4908-8706-050403020100',
				workflowId: 'second-workflow',
			});
		},
		harnessAt,
	};
}
