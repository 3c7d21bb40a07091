/**
 * n8n 2.x builds the production webhook URL from WEBHOOK_URL and the test URL from the editor's
 * base URL: the two can have different hosts. Every order of test listen and production must
 * still be recognised (a test listen refused beside production, production taking over from a
 * test listen), and nothing may leave the webhook on
 * an n8n URL or lose the dashboard's endpoint. Also: a service that stores the endpoint spelled
 * differently (host case, default port) still gets the original back.
 */
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { startSandbox, type Sandbox, type Webhook } from '../../sandbox';
import { hookHarness, StaticDataStore, webhookServer } from '../harness';
import { restartableTrigger } from './process';

const P = { webhookId: 'wh_demo', events: ['candidate.updated'], options: {} };
let sandbox: Sandbox;
/** The n8n process running the trigger (each test starts a fresh one). */
const n8n = restartableTrigger();

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: { applications: 5, jobs: 2, candidates: 5 } });
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.reset({ applications: 5, jobs: 2, candidates: 5 });
	n8n.restart();
});

const creds = () => ({ recruitingApi: { baseUrl: sandbox.url, companyId: sandbox.companyId, accessToken: sandbox.token } });
const endpoint = () => (sandbox.get('webhooks', 'wh_demo') as Webhook).endpoint;
const harness = (store: StaticDataStore, webhookBaseUrl: string) =>
	hookHarness(n8n.node, P, { credentials: creds(), credentialTypes: [new RecruitingApi()], staticData: store, webhookBaseUrl });

let servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
	await Promise.all(servers.map(async (server) => await server.close()));
	servers = [];
});

async function splitHosts() {
	const store = new StaticDataStore();
	const server = await webhookServer(n8n.node, P, { credentials: creds(), credentialTypes: [new RecruitingApi()], staticData: store });
	servers.push(server);
	const productionBase = server.webhookBaseUrl; // http://127.0.0.1:<port>/webhook
	const testBase = productionBase.replace('127.0.0.1', 'localhost').replace(/\/webhook$/, '/webhook-test');
	return { server, production: harness(store, productionBase), test: () => harness(new StaticDataStore(), testBase) };
}

test('production active, then a test listen on the editor host: refused, production keeps the webhook, all restored at the end', async () => {
	const original = endpoint();
	const { server, production, test } = await splitHosts();
	await production.activate();
	const listen = test();
	await expect(listen.activate('manual')).rejects.toThrow('this workflow is published (active in n8n 1.x) and receives its events');
	expect(endpoint()).toBe(server.url);
	await listen.deactivate();
	expect(endpoint()).toBe(server.url);
	await production.deactivate();
	expect(endpoint()).toBe(original);
});

test('a test listen on the editor host, then production: production takes over, the end of the listen leaves it, all restored', async () => {
	const original = endpoint();
	const { server, production, test } = await splitHosts();
	const listen = test();
	await listen.activate('manual');
	expect(endpoint()).toContain('/webhook-test/');
	await production.activate();
	expect(endpoint()).toBe(server.url);
	await listen.deactivate();
	expect(endpoint()).toBe(server.url);
	await production.deactivate();
	expect(endpoint()).toBe(original);
});

test('the service stores our URL spelled differently (host case, default port): deactivation still restores the original', async () => {
	const original = endpoint();
	const h = harness(new StaticDataStore(), 'https://N8N.Example.com:443/webhook');
	await h.activate();
	sandbox.put('webhooks', { ...(sandbox.get('webhooks', 'wh_demo') as Webhook), endpoint: new URL(endpoint()).href });
	expect(await h.checkExists()).toBe(true);
	await h.deactivate();
	expect(endpoint()).toBe(original);
	expect(h.staticData).toEqual({});
});
