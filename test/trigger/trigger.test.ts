/**
 * The Recruiting Trigger through n8n-core's real hook and webhook contexts (test/harness),
 * against the sandbox over HTTP: lifecycle (checkExists / create / delete, static data across
 * restarts) and deliveries signed by the sandbox with the `standardwebhooks` package.
 */
import { randomBytes } from 'crypto';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { Webhook as Signer } from 'standardwebhooks';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { ORIGINAL_SLOT, TEST_SLOT } from '../../nodes/RecruitingTrigger/lifecycle';
import { RecruitingTrigger } from '../../nodes/RecruitingTrigger/RecruitingTrigger.node';
import { clearSeenDeliveries } from '../../nodes/RecruitingTrigger/seenDeliveries';
import { clearSigningKeyCache } from '../../nodes/RecruitingTrigger/signingKeys';
import { readBorrowNote, withBorrowNote } from '../../nodes/RecruitingTrigger/borrowNote';
import type { Sandbox } from '../../sandbox';
import { HarnessCredentialsHelper } from '../harness/credentials';
import {
	hookHarness,
	StaticDataStore,
	webhookServer,
	type HookHarness,
	type WebhookServer,
} from '../harness';
import { SELECTED, useTriggerFixture, WEBHOOK, type Setup } from './fixture';

const fx = useTriggerFixture();
const { credentials, parameters, remote, dashboardState, setup, testListen } = fx;
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = fx.sandbox;
});

/** An activated trigger, with the sandbox's request log cleared. */
async function active(params: INodeParameters = parameters()): Promise<Setup> {
	const s = await setup(params);
	await s.hooks.activate();
	sandbox.clearRequests();
	return s;
}

function webhookRequests() {
	return sandbox.requests
		.filter((r) => r.segments.includes('webhooks'))
		.map((r) => ({ method: r.method, id: r.segments[r.segments.length - 1], body: r.body as IDataObject | undefined }));
}

function lastCall(server: WebhookServer) {
	return server.calls[server.calls.length - 1];
}

function items(server: WebhookServer): INodeExecutionData[] | undefined {
	return lastCall(server).workflowData?.[0];
}

/** Scans everything the trigger persisted for the signing key (whole, or its base64 part). */
function expectNoKeyIn(value: unknown, key: string) {
	const text = JSON.stringify(value);
	expect(text).not.toContain(key);
	expect(text).not.toContain(key.replace(/^whsec_/, ''));
	expect(text).not.toContain('signing_key');
}

/** A hand-made delivery to the trigger, for the cases the sandbox never sends. */
async function post(
	url: string,
	opts: {
		key?: string;
		payload?: string;
		sentBody?: string;
		at?: Date;
		headers?: Record<string, string | undefined>;
		contentType?: string;
		msgId?: string;
	} = {},
) {
	const at = opts.at ?? new Date();
	const msgId = opts.msgId ?? `msg_${randomBytes(8).toString('hex')}`;
	const payload =
		opts.payload ??
		JSON.stringify({ id: msgId, version: 1, type: 'candidate.updated', timestamp: at.toISOString(), data: { object: { id: 'can_x' } } });
	const headers: Record<string, string | undefined> = {
		'content-type': opts.contentType ?? 'application/json',
		'webhook-id': msgId,
		'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
		'webhook-signature': new Signer(opts.key ?? remote().signing_key).sign(msgId, at, payload),
		...opts.headers,
	};
	const sent = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
	const response = await fetch(url, { method: 'POST', headers: sent, body: opts.sentBody ?? payload });
	return { status: response.status, body: (await response.json().catch(() => undefined)) as IDataObject | undefined };
}

describe('activation', () => {
	it('reads the webhook, remembers the original, then points it at n8n with the selected events', async () => {
		const before = dashboardState();
		const { server, hooks } = await setup();
		sandbox.clearRequests();

		expect(await hooks.activate()).toEqual({ existed: false, created: true });

		expect(webhookRequests()).toEqual([
			{ method: 'GET', id: WEBHOOK, body: undefined }, // checkExists
			{ method: 'GET', id: WEBHOOK, body: undefined }, // create
			{
				method: 'PUT',
				id: WEBHOOK,
				body: { endpoint: server.url, events: SELECTED, name: before.name, description: expect.any(String) },
			},
		]);
		// The description gets the note of what was there (for when n8n loses the static data).
		expect(readBorrowNote(remote().description)).toEqual({
			description: before.description,
			note: { endpoint: before.endpoint, events: before.subscribed_events, holder: server.url, since: expect.any(String), workflow: 'Harness trigger workflow' },
		});
		expect(hooks.webhookUrl).toBe(server.url);
		expect(dashboardState()).toEqual({ ...before, endpoint: server.url, subscribed_events: SELECTED, description: expect.any(String) });
		expect(hooks.staticData).toEqual({
			[ORIGINAL_SLOT]: {
				webhookId: WEBHOOK,
				endpoint: before.endpoint,
				events: before.subscribed_events,
				name: before.name,
				description: before.description,
				replacedBy: server.url,
			},
		});
		// Every request carried the credential.
		expect(sandbox.requests.every((r) => r.headers.authorization === `Bearer ${sandbox.token}`)).toBe(true);
	});

	it('checkExists: true only for this URL with exactly these events, in any order', async () => {
		const { hooks, hooksWith } = await setup();
		expect(await hooks.checkExists()).toBe(false); // still the dashboard's endpoint
		await hooks.activate();
		expect(await hooks.checkExists()).toBe(true);
		expect(await hooksWith(parameters({ events: [...SELECTED].reverse() })).checkExists()).toBe(true);
		expect(await hooksWith(parameters({ events: SELECTED.slice(1) })).checkExists()).toBe(false);
		expect(await hooksWith(parameters({ events: [...SELECTED, 'job.deleted'] })).checkExists()).toBe(false);
		sandbox.put('webhooks', { ...remote(), endpoint: 'https://elsewhere.example.invalid/hook' });
		expect(await hooks.checkExists()).toBe(false);
	});

	it('an unknown webhook id fails activation with an error naming the id, and changes nothing', async () => {
		const { hooks } = await setup(parameters({ webhookId: 'wh_missing' }));
		const before = dashboardState();
		sandbox.clearRequests();
		await expect(hooks.activate()).rejects.toThrow('Webhook "wh_missing" was not found');
		expect(webhookRequests().filter((r) => r.method !== 'GET')).toEqual([]);
		expect(dashboardState()).toEqual(before);
		expect(hooks.staticData).toEqual({});
	});

	it('an empty webhook id or no events fail activation with a clear message', async () => {
		await expect((await setup(parameters({ webhookId: '  ' }))).hooks.activate()).rejects.toThrow(
			'Invalid "Webhook ID"',
		);
		await expect((await setup(parameters({ events: [] }))).hooks.activate()).rejects.toThrow(
			'Select at least one event',
		);
	});

	it('never remembers our own URL as the original when the webhook already points here', async () => {
		const { server, hooks } = await setup();
		sandbox.put('webhooks', { ...remote(), endpoint: server.url, subscribed_events: ['job.deleted'] });
		await hooks.activate();
		expect(hooks.staticData).toEqual({});
		expect(remote().subscribed_events).toEqual(SELECTED);
		sandbox.clearRequests();
		expect(await hooks.deactivate()).toBe(true);
		// Nothing remembered and no note on the webhook: a look, nothing put back.
		expect(webhookRequests().map((r) => r.method)).toEqual(['GET']);
		expect(remote().endpoint).toBe(server.url);
	});
});

describe('deactivation', () => {
	it('puts back the original endpoint, events, name and description exactly, then forgets them', async () => {
		const before = dashboardState();
		const { hooks } = await setup();
		await hooks.activate();
		sandbox.clearRequests();
		expect(await hooks.deactivate()).toBe(true);
		expect(webhookRequests()).toEqual([
			{ method: 'GET', id: WEBHOOK, body: undefined },
			{
				method: 'PUT',
				id: WEBHOOK,
				body: {
					endpoint: before.endpoint,
					events: before.subscribed_events,
					name: before.name,
					description: before.description,
				},
			},
		]);
		expect(dashboardState()).toEqual(before);
		expect(hooks.staticData).toEqual({});
		// A second deactivation has nothing to put back.
		sandbox.clearRequests();
		expect(await hooks.deactivate()).toBe(true);
		expect(webhookRequests().filter((r) => r.method !== 'GET')).toEqual([]);
	});

	it('succeeds when the webhook was deleted meanwhile', async () => {
		const { hooks } = await setup();
		await hooks.activate();
		sandbox.setFaults([{ kind: 'status', status: 404, path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		expect(await hooks.deactivate()).toBe(true);
		expect(hooks.staticData).toEqual({});
	});

	it('leaves the webhook to whoever re-pointed it in the dashboard meanwhile, taking only its note out', async () => {
		const before = dashboardState();
		const { hooks } = await setup();
		await hooks.activate();
		sandbox.put('webhooks', { ...remote(), endpoint: 'https://someone-else.example.invalid/', subscribed_events: ['job.deleted'] });
		sandbox.clearRequests();
		expect(await hooks.deactivate()).toBe(true);
		expect(webhookRequests()).toEqual([
			{ method: 'GET', id: WEBHOOK, body: undefined },
			{
				method: 'PUT',
				id: WEBHOOK,
				body: { endpoint: 'https://someone-else.example.invalid/', events: ['job.deleted'], name: before.name, description: before.description },
			},
		]);
		expect(hooks.staticData).toEqual({});
	});

	it('keeps the original when putting it back fails, so a later deactivation can retry', async () => {
		const before = dashboardState();
		const { hooks } = await setup();
		await hooks.activate();
		sandbox.setFaults([{ kind: 'status', status: 400, method: 'PUT', path: `/webhooks/${WEBHOOK}`, times: 1 }]);
		await expect(hooks.deactivate()).rejects.toThrow();
		expect(hooks.staticData[ORIGINAL_SLOT]).toMatchObject({ endpoint: before.endpoint });
		sandbox.setFaults([]);
		await hooks.activate();
		expect(await hooks.deactivate()).toBe(true);
		expect(dashboardState()).toEqual(before);
	});
});

describe('the remembered original survives', () => {
	it('5 activate/deactivate cycles', async () => {
		const before = dashboardState();
		const { server, hooks } = await setup();
		for (let i = 0; i < 5; i++) {
			await hooks.activate();
			expect(remote().endpoint).toBe(server.url);
			expect(hooks.staticData[ORIGINAL_SLOT]).toMatchObject({ endpoint: before.endpoint });
			await hooks.deactivate();
			expect(dashboardState()).toEqual(before);
			expect(hooks.staticData).toEqual({});
		}
	});

	it('restarts, republishing and repeated activation, with a fresh process memory each time', async () => {
		const before = dashboardState();
		const first = await setup();
		await first.hooks.activate();
		const saved = first.store.workflowData;

		let store = first.store;
		let events = SELECTED;
		for (let restart = 0; restart < 5; restart++) {
			// A new n8n process at the same URL: static data from the database, nothing in memory.
			clearSigningKeyCache();
			store = new StaticDataStore(store.workflowData);
			expect(await first.hooksWith(parameters({ events }), store).activate('init')).toEqual({ existed: true });
			// Republished with other events: create runs again but keeps the original.
			events = restart % 2 === 0 ? ['job.deleted', 'interview.created'] : SELECTED;
			const republished = first.hooksWith(parameters({ events }), store);
			expect(await republished.activate('update')).toEqual({ existed: false, created: true });
			expect(await republished.activate('activate')).toEqual({ existed: true });
			expect(remote().subscribed_events).toEqual(events);
			expect(store.workflowData).toEqual(saved);
		}
		clearSigningKeyCache();
		const hooks = first.hooksWith(parameters({ events }), new StaticDataStore(store.workflowData));
		expect(await hooks.deactivate()).toBe(true);
		expect(dashboardState()).toEqual(before);
	});

	it('a changed Webhook ID hands the previous webhook back before taking the new one', async () => {
		const demoBefore = dashboardState(WEBHOOK);
		const secondBefore = dashboardState('wh_second');
		const { server, hooks, hooksWith } = await setup();
		await hooks.activate();
		sandbox.put('webhooks', { ...remote('wh_second'), status: 'enabled' });
		const other = hooksWith(parameters({ webhookId: 'wh_second' }));
		await other.activate('update');
		expect(dashboardState(WEBHOOK)).toEqual(demoBefore);
		expect(remote('wh_second').endpoint).toBe(server.url);
		expect(other.staticData[ORIGINAL_SLOT]).toMatchObject({ webhookId: 'wh_second', endpoint: secondBefore.endpoint });
		await other.deactivate();
		expect(dashboardState('wh_second')).toEqual(secondBefore);
	});

	it('"Listen for test event" on an active workflow is refused; production keeps the webhook', async () => {
		const before = dashboardState();
		const { server, hooks, store, hooksWith } = await setup();
		await hooks.activate();
		const testHooks = testListen(server, new StaticDataStore(store.workflowData));
		await expect(testHooks.activate('manual')).rejects.toThrow(
			`Webhook "${WEBHOOK}" points at ${server.url}: this workflow is published (active in n8n 1.x) and receives its events. To test with this webhook, unpublish (deactivate in n8n 1.x) the workflow first, or test with another webhook.`,
		);
		// n8n ran delete for the failed test listen: production's webhook and original are untouched.
		expect(remote().endpoint).toBe(server.url);
		expect(remote().subscribed_events).toEqual(SELECTED);
		expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' })).status).toBe(200);
		await hooksWith(parameters()).deactivate();
		expect(dashboardState()).toEqual(before);
	});

	it('a test listen, then production activated during it: production takes over; the listen ends leaving it to production', async () => {
		const before = dashboardState();
		const { server, hooks, store } = await setup();
		const testHooks = testListen(server, new StaticDataStore(store.workflowData));
		await testHooks.activate('manual');
		expect(remote().endpoint).toBe(testHooks.webhookUrl);
		expect(testHooks.staticData[TEST_SLOT]).toMatchObject({ endpoint: before.endpoint });
		await hooks.activate();
		// The original comes from the listen's note, never the test URL.
		expect(hooks.staticData[ORIGINAL_SLOT]).toMatchObject({
			endpoint: before.endpoint,
			events: before.subscribed_events,
			description: before.description,
		});
		expect(remote().endpoint).toBe(server.url);
		expect(readBorrowNote(remote().description)).toMatchObject({ description: before.description, note: { holder: server.url } });
		await testHooks.deactivate();
		expect(remote().endpoint).toBe(server.url);
		expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' })).status).toBe(200);
		expect(items(server)).toHaveLength(1);
		await hooks.deactivate();
		expect(dashboardState()).toEqual(before);
	});

	it('a test listen notes in the description what it replaced, and its end puts the description back exactly', async () => {
		const before = dashboardState();
		const { server, store } = await setup();
		const testHooks = testListen(server, new StaticDataStore(store.workflowData));
		await testHooks.activate('manual');
		const note = readBorrowNote(remote().description);
		expect(note).toEqual({
			description: before.description,
			note: { endpoint: before.endpoint, events: before.subscribed_events, holder: testHooks.webhookUrl, since: expect.any(String), workflow: 'Harness trigger workflow' },
		});
		expect(remote().description.startsWith(`${before.description}\n\n[n8n holds this webhook`)).toBe(true);
		await testHooks.deactivate();
		expect(dashboardState()).toEqual(before);
	});

	describe('n8n restarted during a test listen (n8n runs no hook to end it)', () => {
		/** A listen whose end never comes: its in-memory copy of static data is simply lost. */
		async function cutShortListen() {
			const before = dashboardState();
			const s = await setup();
			await testListen(s.server, new StaticDataStore(s.store.workflowData)).activate('manual');
			expect(remote().endpoint).toContain('/webhook-test/');
			clearSigningKeyCache();
			return { before, ...s };
		}

		it('activation afterwards takes the original from the note; deactivation restores the dashboard exactly', async () => {
			const { before, server, hooks } = await cutShortListen();
			await hooks.activate();
			expect(remote().endpoint).toBe(server.url);
			expect(readBorrowNote(remote().description)).toMatchObject({ description: before.description, note: { endpoint: before.endpoint } });
			expect(hooks.staticData[ORIGINAL_SLOT]).toMatchObject({ endpoint: before.endpoint, events: before.subscribed_events });
			expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' })).status).toBe(200);
			await hooks.deactivate();
			expect(dashboardState()).toEqual(before);
		});

		it('a new test listen afterwards adopts the note, and its end restores the dashboard exactly', async () => {
			const { before, server, store } = await cutShortListen();
			const again = testListen(server, new StaticDataStore(store.workflowData));
			// The webhook already points at this test URL with these events: it must still take a snapshot.
			expect(await again.activate('manual')).toEqual({ existed: false, created: true });
			expect(again.staticData[TEST_SLOT]).toMatchObject({ endpoint: before.endpoint, description: before.description });
			await again.deactivate();
			expect(dashboardState()).toEqual(before);
		});

		it('without a note (set to the test URL by hand) activation is refused and nothing changes', async () => {
			const { server, hooks } = await setup();
			const testUrl = testListen(server, new StaticDataStore()).webhookUrl;
			sandbox.put('webhooks', { ...remote(), endpoint: testUrl });
			const state = dashboardState();
			await expect(hooks.activate()).rejects.toThrow(
				`Webhook "${WEBHOOK}" points at ${testUrl}: this workflow's "Listen for test event" URL, and what it replaced is unknown`,
			);
			expect(hooks.staticData).toEqual({});
			expect(dashboardState()).toEqual(state);
		});

		it('a note naming an n8n URL is not taken for the original', async () => {
			const { server, hooks } = await setup();
			const testUrl = testListen(server, new StaticDataStore()).webhookUrl;
			for (const named of [server.url, testUrl, server.url.replace(/\/[^/]+\/webhook$/, '/0f0e0d0c-0b0a-4908-8706-050403020100/webhook')]) {
				const description = withBorrowNote('Mine.', { endpoint: named, events: ['job.created'], holder: testUrl, since: 'x' });
				sandbox.put('webhooks', { ...remote(), endpoint: testUrl, description });
				await expect(hooks.activate()).rejects.toThrow('what it replaced is unknown');
				expect(hooks.staticData[ORIGINAL_SLOT]).toBeUndefined();
				expect(remote().endpoint).toBe(testUrl);
			}
		});
	});

	it('static data never holds the signing key', async () => {
		const key = remote().signing_key;
		const { server, hooks, store } = await setup();
		await hooks.activate();
		await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' });
		await hooks.activate('update');
		await hooks.deactivate();
		await hooks.activate();
		expectNoKeyIn(hooks.calls.map((c) => c.staticData), key);
		expectNoKeyIn(server.calls.map((c) => c.staticData), key);
		expectNoKeyIn(store.workflowData, key);
		expectNoKeyIn(hooks.calls.map((c) => c.error?.message ?? ''), key);
	});
});

describe('deliveries', () => {

	it('a delivery from the service starts the workflow with one documented item', async () => {
		const { server } = await active();
		const record = await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' });
		expect(record.status).toBe(200);
		const sent = JSON.parse(record.body) as IDataObject;
		const out = items(server)!;
		expect(out).toHaveLength(1);
		expect(out[0].json).toEqual({
			event: 'candidate.updated',
			timestamp: sent.timestamp,
			messageId: record.msgId,
			deliveryId: sent.id,
			object: (sent.data as IDataObject).object,
		});
		expect(lastCall(server).response.status).toBe(200);
		// The activation cached the key in this process: no request to verify.
		expect(webhookRequests()).toEqual([]);
	});

	it('a retried delivery carries the same messageId; by default it is dropped (200, nothing starts)', async () => {
		const at = new Date();
		const payload = JSON.stringify({ id: 'evt_1', type: 'job.created', timestamp: at.toISOString(), data: { object: { id: 'job_1' } } });
		const key = remote().signing_key;
		const send = async (url: string) => {
			const signature = new Signer(key).sign('msg_retry', at, payload);
			const response = await fetch(url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'webhook-id': 'msg_retry',
					'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
					'webhook-signature': signature,
				},
				body: payload,
			});
			return { status: response.status, body: (await response.json()) as IDataObject };
		};
		const dropping = await active();
		expect((await send(dropping.server.url)).status).toBe(200);
		const again = await send(dropping.server.url);
		expect(again).toEqual({ status: 200, body: { message: 'Duplicate delivery (same webhook-id); ignored' } });
		expect(dropping.server.calls.map((c) => c.workflowData?.[0][0].json.messageId)).toEqual(['msg_retry', undefined]);

		clearSeenDeliveries();
		const keeping = await active(parameters({ options: { dropDuplicates: false } }));
		expect((await send(keeping.server.url)).status).toBe(200);
		expect((await send(keeping.server.url)).status).toBe(200);
		expect(keeping.server.calls.map((c) => c.workflowData?.[0][0].json.messageId)).toEqual(['msg_retry', 'msg_retry']);
	});

	it('duplicates are judged only after verification: a forged delivery with a known id is still 401', async () => {
		const { server } = await active();
		const forgedKey = `whsec_${randomBytes(24).toString('base64')}`;
		expect((await post(server.url, { key: forgedKey, msgId: 'msg_taken' })).status).toBe(401);
		// The forged attempt did not mark the id as seen: the authentic delivery starts the workflow.
		expect((await post(server.url, { msgId: 'msg_taken' })).status).toBe(200);
		expect(items(server)).toHaveLength(1);
		// And a forged copy of an accepted id is refused, not answered "duplicate".
		expect((await post(server.url, { key: forgedKey, msgId: 'msg_taken' })).status).toBe(401);
	});

	it('the flat payload shape (data is the resource) gives the same item shape', async () => {
		const { server } = await active();
		const object = { id: 'job_flat', title: 'Flat job', status: 'published' };
		const record = await sandbox.deliver({ webhookId: WEBHOOK, event: 'job.created', object, shape: 'flat' });
		expect(record.status).toBe(200);
		expect(items(server)![0].json).toMatchObject({ event: 'job.created', object });
	});

	it('an event name the node does not know passes through', async () => {
		const { server } = await active();
		const record = await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.merged', object: { id: 'can_1' } });
		expect(record.status).toBe(200);
		expect(items(server)![0].json).toMatchObject({ event: 'candidate.merged', object: { id: 'can_1' } });
	});

	it('ignoreUnselectedEvents: on by default (200, nothing starts), off passes every event', async () => {
		const on = await active();
		const ignored = await sandbox.deliver({ webhookId: WEBHOOK, event: 'job.deleted' });
		expect(ignored.status).toBe(200);
		expect(lastCall(on.server).workflowData).toBeUndefined();
		expect(lastCall(on.server).respondedBy).toBe('node');

		const off = await active(parameters({ options: { ignoreUnselectedEvents: false } }));
		const passed = await sandbox.deliver({ webhookId: WEBHOOK, event: 'job.deleted' });
		expect(passed.status).toBe(200);
		expect(items(off.server)![0].json.event).toBe('job.deleted');
	});

	it('includeHeaders adds the request headers', async () => {
		const { server } = await active(parameters({ options: { includeHeaders: true } }));
		const record = await sandbox.deliver({ webhookId: WEBHOOK, event: 'job.created' });
		const headers = items(server)![0].json.headers as IDataObject;
		expect(headers['webhook-id']).toBe(record.msgId);
		expect(headers['content-type']).toBe('application/json');
	});

	describe('refused with 401, nothing starts', () => {
		const cases: Array<[string, () => Parameters<typeof post>[1]]> = [
			['a tampered body', () => ({ sentBody: JSON.stringify({ type: 'candidate.updated', data: { object: { id: 'evil' } } }) })],
			['another key', () => ({ key: `whsec_${randomBytes(24).toString('base64')}` })],
			['a timestamp 10 minutes old', () => ({ at: new Date(Date.now() - 10 * 60_000) })],
			['a timestamp 10 minutes ahead', () => ({ at: new Date(Date.now() + 10 * 60_000) })],
			['no webhook-id', () => ({ headers: { 'webhook-id': undefined } })],
			['no webhook-timestamp', () => ({ headers: { 'webhook-timestamp': undefined } })],
			['no webhook-signature', () => ({ headers: { 'webhook-signature': undefined } })],
			['only a v2 signature', () => ({ headers: { 'webhook-signature': 'v2,abc' } })],
		];
		it.each(cases)('%s', async (_name, make) => {
			const { server } = await active();
			const { status, body } = await post(server.url, make());
			expect(status).toBe(401);
			expect(body?.message).toBe('Invalid webhook signature');
			expect(lastCall(server).workflowData).toBeUndefined();
			expect(lastCall(server).error).toBeUndefined();
		});

		it('a flood of forged deliveries costs the service at most one key refetch', async () => {
			const { server } = await active();
			const forged = `whsec_${randomBytes(24).toString('base64')}`;
			for (let i = 0; i < 20; i++) expect((await post(server.url, { key: forged })).status).toBe(401);
			expect(webhookRequests()).toEqual([{ method: 'GET', id: WEBHOOK, body: undefined }]);
			// Malformed headers never cost a request at all.
			clearSigningKeyCache();
			sandbox.clearRequests();
			for (let i = 0; i < 5; i++) {
				expect((await post(server.url, { headers: { 'webhook-signature': 'garbage' } })).status).toBe(401);
			}
			expect(webhookRequests()).toEqual([]);
		});
	});

	it('a rotated key is accepted after one refetch', async () => {
		const { server } = await active();
		expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'job.created' })).status).toBe(200);
		const rotated = `whsec_${randomBytes(24).toString('base64')}`;
		sandbox.put('webhooks', { ...remote(), signing_key: rotated });
		sandbox.clearRequests();
		const record = await sandbox.deliver({ webhookId: WEBHOOK, event: 'job.created' });
		expect(record.status).toBe(200);
		expect(items(server)).toHaveLength(1);
		expect(webhookRequests()).toEqual([{ method: 'GET', id: WEBHOOK, body: undefined }]);
		// The new key is now cached.
		expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'job.created' })).status).toBe(200);
		expect(webhookRequests()).toHaveLength(1);
	});

	it('a delivery to another process (empty memory) fetches the key and verifies', async () => {
		const { server, store } = await active();
		clearSigningKeyCache();
		expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' })).status).toBe(200);
		expect(items(server)).toHaveLength(1);
		expect(webhookRequests()).toEqual([{ method: 'GET', id: WEBHOOK, body: undefined }]);

		// A queue-mode webhook process with its own module memory, serving the same workflow.
		await jest.isolateModulesAsync(async () => {
			const isolated = (await import('../../nodes/RecruitingTrigger/RecruitingTrigger.node')) as {
				RecruitingTrigger: typeof RecruitingTrigger;
			};
			const other = await webhookServer(new isolated.RecruitingTrigger(), parameters(), {
				credentials: credentials(),
				credentialTypes: [new RecruitingApi()],
				staticData: store,
			});
			fx.closeAfterTest(other);
			sandbox.clearRequests();
			const response = await post(other.url);
			expect(response.status).toBe(200);
			expect(items(other)).toHaveLength(1);
			expect(webhookRequests()).toEqual([{ method: 'GET', id: WEBHOOK, body: undefined }]);
		});
	});

	it('a valid signature over a body that is not JSON: 415 (text/plain) or n8n\'s 422 (application/json)', async () => {
		const { server } = await active();
		const plain = await post(server.url, { payload: 'not json {', contentType: 'text/plain' });
		expect(plain.status).toBe(415);
		expect(lastCall(server).workflowData).toBeUndefined();
		const json = await post(server.url, { payload: 'not json {' });
		expect(json.status).toBe(422);
		expect(lastCall(server).workflowData).toBeUndefined();
	});

	it('non-ASCII bytes and a large body verify', async () => {
		const { server } = await active();
		const object = { id: 'can_ü', first_name: 'Zoë', last_name: 'Ångström 山田 🎉', bio: 'x'.repeat(512 * 1024) };
		const record = await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated', object });
		expect(record.status).toBe(200);
		expect(items(server)![0].json.object).toEqual(object);
	});

	it('when the key cannot be fetched: 503, nothing starts, and retries are rate limited', async () => {
		const { server } = await active();
		clearSigningKeyCache();
		sandbox.setFaults([{ kind: 'status', status: 401, method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		for (let i = 0; i < 4; i++) {
			expect((await post(server.url, { key: remote().signing_key })).status).toBe(503);
		}
		expect(lastCall(server).workflowData).toBeUndefined();
		// One short attempt (no retries), then at most one per minute.
		expect(sandbox.faultHits()[0]).toBe(1);
	});
});

describe('the trigger owns what it borrows, and nothing else', () => {
	it('a webhook disabled in the dashboard: activation fails telling to enable it; nothing changes', async () => {
		const before = dashboardState('wh_second');
		expect(remote('wh_second').status).toBe('disabled');
		const { hooks } = await setup(parameters({ webhookId: 'wh_second' }));
		sandbox.clearRequests();
		await expect(hooks.activate()).rejects.toThrow('Webhook "wh_second" is disabled in the recruiting service');
		const error = hooks.calls.find((c) => c.error)?.error as Error;
		expect(error.message).toContain("enable it in the service's dashboard");
		expect(webhookRequests().filter((r) => r.method !== 'GET')).toEqual([]);
		expect(dashboardState('wh_second')).toEqual(before);
		expect(hooks.staticData).toEqual({});
	});

	it('two workflows on one webhook: the second is refused naming the URL, the first still delivers, the original comes back', async () => {
		const before = dashboardState();
		const first = await setup();
		await first.hooks.activate();
		// Another workflow of the same n8n: same base URL, its own node webhook id and static data.
		const second = hookHarness(new RecruitingTrigger(), parameters(), {
			credentials: credentials(),
			credentialTypes: [new RecruitingApi()],
			staticData: new StaticDataStore(),
			webhookBaseUrl: first.server.webhookBaseUrl,
			webhookId: 'second-workflow-node',
			workflowId: 'second-workflow',
		});
		expect(second.webhookUrl).not.toBe(first.server.url);
		// The first workflow's note names it: the refusal says who holds the webhook and what to do.
		await expect(second.activate()).rejects.toThrow(
			`Webhook "${WEBHOOK}" is in use by the workflow "Harness trigger workflow" (it points at ${first.server.url}). To use it here, unpublish (deactivate in n8n 1.x) that workflow or end its test listen; or enter another webhook's ID. Nothing was changed.`,
		);
		expect(second.staticData).toEqual({});
		expect(remote().endpoint).toBe(first.server.url);
		expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' })).status).toBe(200);
		expect(items(first.server)).toHaveLength(1);
		// Its test listen is refused the same way.
		const secondTest = hookHarness(new RecruitingTrigger(), parameters(), {
			credentials: credentials(),
			credentialTypes: [new RecruitingApi()],
			staticData: new StaticDataStore(),
			webhookBaseUrl: first.server.webhookBaseUrl.replace(/\/webhook$/, '/webhook-test'),
			webhookId: 'second-workflow-node',
			workflowId: 'second-workflow',
		});
		await expect(secondTest.activate('manual')).rejects.toThrow('is in use by the workflow "Harness trigger workflow"');
		expect(remote().endpoint).toBe(first.server.url);
		// Both deactivated, in either order: the dashboard's endpoint exactly.
		expect(await second.deactivate()).toBe(true);
		expect(remote().endpoint).toBe(first.server.url);
		expect(await first.hooks.deactivate()).toBe(true);
		expect(dashboardState()).toEqual(before);
	});

	it('the refusal names the holding workflow from its note, and only from a note written for the URL it points at', async () => {
		const before = dashboardState();
		const { hooks } = await setup();
		await hooks.activate();
		// The note carries the name n8n gives the node (the harness's workflow name).
		expect(readBorrowNote(remote().description)?.note.workflow).toBe('Harness trigger workflow');
		await hooks.deactivate();
		expect(dashboardState()).toEqual(before);

		// Another workflow's URL of this n8n, set by hand: no note, so it is named by its URL.
		const otherUrl = hooks.webhookUrl.replace(/\/[^/]+\/webhook$/, '/11111111-2222-4333-8444-555555555555/webhook');
		sandbox.put('webhooks', { ...remote(), endpoint: otherUrl });
		const refusal = (holder: string) =>
			`Webhook "${WEBHOOK}" is in use by ${holder} (it points at ${otherUrl}). To use it here, unpublish (deactivate in n8n 1.x) that workflow or end its test listen; or enter another webhook's ID. Nothing was changed.`;
		await expect(hooks.activate()).rejects.toThrow(refusal('another n8n workflow'));
		const note = { endpoint: before.endpoint, events: before.subscribed_events, since: 'x' };
		// A note naming a workflow but written for another URL does not name this holder.
		sandbox.put('webhooks', { ...remote(), description: withBorrowNote(before.description, { ...note, holder: hooks.webhookUrl, workflow: 'Not the holder' }) });
		await expect(hooks.activate()).rejects.toThrow(refusal('another n8n workflow'));
		// Written for the URL it points at: named.
		sandbox.put('webhooks', { ...remote(), description: withBorrowNote(before.description, { ...note, holder: otherUrl, workflow: 'Nightly sync' }) });
		await expect(hooks.activate()).rejects.toThrow(refusal('the workflow "Nightly sync"'));
		// The test listen is refused with the same words.
		await expect(hooks.activate('manual')).rejects.toThrow(refusal('the workflow "Nightly sync"'));
		expect(remote().endpoint).toBe(otherUrl);
		expect(hooks.staticData).toEqual({});
	});

	it('never records an n8n URL as the original, whichever workflow it belongs to', async () => {
		const { server, hooks } = await setup();
		const testUrl = testListen(server, new StaticDataStore()).webhookUrl;
		for (const endpoint of [server.url, testUrl]) {
			sandbox.put('webhooks', { ...remote(), endpoint });
			await hooks.activate().catch(() => undefined);
			expect(hooks.staticData[ORIGINAL_SLOT]).toBeUndefined();
		}
	});
});

describe('requests that are not deliveries start nothing', () => {

	it.each([
		['multipart/form-data', () => {
			const form = new FormData();
			form.append('type', 'candidate.updated');
			form.append('file', new Blob(['x'.repeat(1000)]), 'cv.pdf');
			return { body: form, headers: {} };
		}],
		['application/x-www-form-urlencoded', () => ({ body: 'type=candidate.updated&a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })],
		['text/plain', () => ({ body: 'hello', headers: { 'content-type': 'text/plain' } })],
		['application/xml', () => ({ body: '<a>1</a>', headers: { 'content-type': 'application/xml' } })],
		['no content type', () => ({ body: new Uint8Array([1, 2, 3]), headers: {} })],
	])('%s: 415, no execution, webhook() did not throw', async (_name, make) => {
		const { server } = await active();
		const { body, headers } = make();
		const response = await fetch(server.url, { method: 'POST', body, headers: { ...headers, 'webhook-id': 'msg_x' } });
		expect(response.status).toBe(415);
		expect(await response.json()).toEqual({ message: 'Deliveries must be sent as application/json' });
		expect(lastCall(server).error).toBeUndefined();
		expect(lastCall(server).workflowData).toBeUndefined();
		expect(webhookRequests()).toEqual([]); // no key fetched for it
	});

	it('a signed delivery with a +json content type and charset is accepted', async () => {
		const { server } = await active();
		const response = await post(server.url, { contentType: 'application/vnd.recruiting+json; charset=utf-8' });
		expect(response.status).toBe(200);
		expect(items(server)).toHaveLength(1);
	});
});

describe('options', () => {
	const withOptions = async (options: INodeParameters) =>
		await active(
			parameters({ events: ['application.created', 'application.stage.updated', 'job.created', 'candidate.updated', 'interview.created'], options }),
		);
	const application = (jobId: string, stage: string) => ({ id: 'app_1', job: { id: jobId, title: 'T' }, stage: { parent_stage: stage, custom_stage: { id: 's', name: 'S' } } });

	it('includeHeaders leaves out credential-bearing headers and keeps the signature headers', async () => {
		const { server } = await withOptions({ includeHeaders: true });
		const response = await post(server.url, {
			headers: {
				authorization: 'Bearer proxy-secret',
				'proxy-authorization': 'Basic cHJveHk=',
				cookie: 'session=abc',
				'x-api-key': 'k',
				'x-auth-token': 't',
				'x-vendor-session-token': 's',
				'x-forwarded-for': '10.0.0.1',
			},
		});
		expect(response.status).toBe(200);
		const headers = items(server)![0].json.headers as IDataObject;
		for (const name of ['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'x-auth-token', 'x-vendor-session-token']) {
			expect(headers).not.toHaveProperty(name);
		}
		expect(JSON.stringify(headers)).not.toMatch(/proxy-secret|cHJveHk=|session=abc/);
		expect(headers['x-forwarded-for']).toBe('10.0.0.1');
		expect(Object.keys(headers)).toEqual(expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type']));
	});

	it('jobIds: application events match on their job, job events on the job, interviews on job_id; others pass', async () => {
		const { server } = await withOptions({ jobIds: 'job_a, job_b' });
		const started = async (event: string, object: IDataObject) => {
			const before = server.calls.length;
			const record = await sandbox.deliver({ webhookId: WEBHOOK, event, object });
			expect(record.status).toBe(200);
			return server.calls[before].workflowData !== undefined;
		};
		expect(await started('application.created', application('job_a', 'new'))).toBe(true);
		expect(await started('application.created', application('job_z', 'new'))).toBe(false);
		expect(await started('job.created', { id: 'job_b', title: 'B' })).toBe(true);
		expect(await started('job.created', { id: 'job_z', title: 'Z' })).toBe(false);
		expect(await started('interview.created', { id: 'int_1', job_id: 'job_z' })).toBe(false);
		expect(await started('interview.created', { id: 'int_1', job_id: 'job_a' })).toBe(true);
		expect(await started('candidate.updated', { id: 'can_1' })).toBe(true); // names no job
		expect(await started('application.created', { id: 'app_nojob' })).toBe(true);
	});

	it('parentStages: application events by stage; other events and stage-less applications pass', async () => {
		const { server } = await withOptions({ parentStages: ['hired', 'offered'] });
		const started = async (event: string, object: IDataObject) => {
			const before = server.calls.length;
			expect((await sandbox.deliver({ webhookId: WEBHOOK, event, object })).status).toBe(200);
			return server.calls[before].workflowData !== undefined;
		};
		expect(await started('application.stage.updated', application('job_a', 'hired'))).toBe(true);
		expect(await started('application.stage.updated', application('job_a', 'screening'))).toBe(false);
		expect(await started('application.created', application('job_a', 'new'))).toBe(false);
		expect(await started('job.created', { id: 'job_a' })).toBe(true);
		expect(await started('application.created', { id: 'app_nostage' })).toBe(true);
	});

	it("both filters on the sandbox's own application payload", async () => {
		const off = await withOptions({ jobIds: 'job_nope' });
		const record = await sandbox.deliver({ webhookId: WEBHOOK, event: 'application.created' });
		expect(lastCall(off.server).workflowData).toBeUndefined();
		const app = (JSON.parse(record.body) as { data: { object: ReturnType<typeof application> } }).data.object;
		const on = await withOptions({ jobIds: app.job.id, parentStages: [app.stage.parent_stage] });
		expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'application.created' })).status).toBe(200);
		expect(items(on.server)).toHaveLength(1);
	});
});

describe('signing keys and the credential', () => {
	const withOptions = async (options: INodeParameters = {}) => await active(parameters({ options }));

	it('a key rotated in the dashboard: the old one is refused once the cached key expired', async () => {
		const { server } = await withOptions();
		const old = remote().signing_key;
		const rotated = `whsec_${randomBytes(24).toString('base64')}`;
		sandbox.put('webhooks', { ...remote(), signing_key: rotated });
		// Within the cache age the quiet process still knows only the old key.
		expect((await post(server.url, { key: old })).status).toBe(200);
		jest.useFakeTimers({
			now: Date.now() + 10 * 60_000 + 1000,
			doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
		});
		try {
			expect((await post(server.url, { key: old })).status).toBe(401);
			expect((await post(server.url, { key: rotated })).status).toBe(200);
			expect(webhookRequests()).toEqual([{ method: 'GET', id: WEBHOOK, body: undefined }]);
		} finally {
			jest.useRealTimers();
		}
	});

	it('Signing Key Max Age shortens the age', async () => {
		const { server } = await withOptions({ signingKeyMaxAge: 1 });
		const old = remote().signing_key;
		sandbox.put('webhooks', { ...remote(), signing_key: `whsec_${randomBytes(24).toString('base64')}` });
		await new Promise((resolve) => setTimeout(resolve, 1100));
		expect((await post(server.url, { key: old })).status).toBe(401);
	});

	it('a rate-limited key fetch on the delivery path answers 503 at once: no 429 waits, no retries', async () => {
		const { server } = await withOptions();
		clearSigningKeyCache();
		sandbox.setFaults([{ kind: 'rate_limit', method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		const started = Date.now();
		expect((await post(server.url)).status).toBe(503);
		expect(Date.now() - started).toBeLessThan(5000);
		expect(sandbox.faultHits()[0]).toBe(1); // no 429 waits, no retries
	});

	it('a slow key fetch on the delivery path gives up after 5 s with 503', async () => {
		const { server } = await withOptions();
		clearSigningKeyCache();
		sandbox.setFaults([{ kind: 'slow', delayMs: 9000, method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		const started = Date.now();
		expect((await post(server.url)).status).toBe(503);
		expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
		expect(Date.now() - started).toBeLessThan(7000);
		expect(sandbox.faultHits()[0]).toBe(1);
		sandbox.setFaults([]);
	}, 15_000);

	it('a key fetch whose answer trickles in (headers at once, a byte now and then) is cut at 5 s too', async () => {
		const { server } = await withOptions();
		clearSigningKeyCache();
		sandbox.setFaults([{ kind: 'trickle', delayMs: 9000, method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		const started = Date.now();
		expect((await post(server.url)).status).toBe(503);
		expect(Date.now() - started).toBeLessThan(7000);
		expect(sandbox.faultHits()[0]).toBe(1);
		sandbox.setFaults([]);
	}, 15_000);

	it('the credential is read once per webhook and process, not per delivery', async () => {
		const { server } = await withOptions();
		const spy = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
		try {
			for (let i = 0; i < 5; i++) expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' })).status).toBe(200);
			expect(spy).not.toHaveBeenCalled();
			expect(items(server)).toHaveLength(1);
			// A failed verification fetches the key again, with the credential read afresh.
			expect((await post(server.url, { key: `whsec_${randomBytes(24).toString('base64')}` })).status).toBe(401);
			expect(spy).toHaveBeenCalledTimes(1);
		} finally {
			spy.mockRestore();
		}
	});
});
