/**
 * The Recruiting Trigger's lifecycle through n8n-core's real hook contexts (test/harness), against
 * the sandbox over HTTP: checkExists / create / delete, static data across restarts, test listens,
 * and which webhooks it takes. Deliveries are in delivery.test.ts.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { ORIGINAL_SLOT, TEST_SLOT } from '../../nodes/RecruitingTrigger/lifecycle';
import { readBorrowNote, withBorrowNote } from '../../nodes/RecruitingTrigger/borrowNote';
import type { Sandbox } from '../../sandbox';
import { hookHarness, StaticDataStore } from '../harness';
import { items, SELECTED, useTriggerFixture, WEBHOOK } from './fixture';

const fx = useTriggerFixture();
const { credentials, parameters, remote, dashboardState, setup, testListen, webhookRequests } = fx;
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = fx.sandbox;
});

/** Scans everything the trigger persisted for the signing key (whole, or its base64 part). */
function expectNoKeyIn(value: unknown, key: string) {
	const text = JSON.stringify(value);
	expect(text).not.toContain(key);
	expect(text).not.toContain(key.replace(/^whsec_/, ''));
	expect(text).not.toContain('signing_key');
}

/** Static data without the events n8n last wrote (they change with every republish). */
const withoutWroteEvents = (data: unknown): unknown => JSON.parse(JSON.stringify(data, (key, value: unknown) => (key === 'wroteEvents' ? undefined : value)));

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
				wroteEvents: SELECTED,
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

	// Issue 27, point 14: what the user edits in the dashboard while n8n holds the webhook stays.
	describe('edits made in the dashboard while n8n held the webhook', () => {
		let info: jest.SpyInstance;
		beforeEach(() => {
			info = jest.spyOn(Container.get(Logger), 'info');
		});
		afterEach(() => info.mockRestore());
		const logged = () => info.mock.calls.map(([message]) => String(message)).filter((message) => message.startsWith('Recruiting Trigger:'));

		it('a new name and description stay (the note is taken out); the endpoint and events n8n wrote are put back; the log says so', async () => {
			const before = dashboardState();
			const { hooks } = await setup();
			await hooks.activate();
			const held = remote();
			const { note } = readBorrowNote(held.description)!;
			sandbox.put('webhooks', { ...held, name: 'Renamed in the dashboard', description: withBorrowNote('Rewritten while n8n held it', note) });
			sandbox.clearRequests();
			expect(await hooks.deactivate()).toBe(true);
			expect(webhookRequests().filter((r) => r.method === 'PUT')).toEqual([
				{
					method: 'PUT',
					id: WEBHOOK,
					body: { endpoint: before.endpoint, events: before.subscribed_events, name: 'Renamed in the dashboard', description: 'Rewritten while n8n held it' },
				},
			]);
			expect(dashboardState()).toEqual({ ...before, name: 'Renamed in the dashboard', description: 'Rewritten while n8n held it' });
			expect(logged()).toEqual([
				`Recruiting Trigger: webhook "${WEBHOOK}" is put back to ${before.endpoint}, except what was changed in the service's dashboard while n8n held it, which is left as set there: name, description`,
			]);
			expect(hooks.staticData).toEqual({});
		});

		it('events changed in the dashboard stay as the user set them; the endpoint n8n wrote is put back', async () => {
			const before = dashboardState();
			const { hooks } = await setup();
			await hooks.activate();
			sandbox.put('webhooks', { ...remote(), subscribed_events: ['job.deleted'] });
			sandbox.clearRequests();
			expect(await hooks.deactivate()).toBe(true);
			expect(dashboardState()).toEqual({ ...before, subscribed_events: ['job.deleted'] });
			expect(logged()).toEqual([
				`Recruiting Trigger: webhook "${WEBHOOK}" is put back to ${before.endpoint}, except what was changed in the service's dashboard while n8n held it, which is left as set there: events`,
			]);
		});

		it('nothing edited: put back exactly, and nothing logged', async () => {
			const before = dashboardState();
			const { hooks } = await setup();
			await hooks.activate();
			expect(await hooks.deactivate()).toBe(true);
			expect(dashboardState()).toEqual(before);
			expect(logged()).toEqual([]);
		});
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
			fx.restart();
			store = new StaticDataStore(store.workflowData);
			expect(await first.hooksWith(parameters({ events }), store).activate('init')).toEqual({ existed: true });
			// Republished with other events: create runs again but keeps the original.
			events = restart % 2 === 0 ? ['job.deleted', 'interview.created'] : SELECTED;
			const republished = first.hooksWith(parameters({ events }), store);
			expect(await republished.activate('update')).toEqual({ existed: false, created: true });
			expect(await republished.activate('activate')).toEqual({ existed: true });
			expect(remote().subscribed_events).toEqual(events);
			// The original is kept; only the events n8n last wrote follow the republish.
			expect(withoutWroteEvents(store.workflowData)).toEqual(withoutWroteEvents(saved));
			expect(JSON.stringify(store.workflowData)).toContain(`"wroteEvents":${JSON.stringify(events)}`);
		}
		fx.restart();
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
			fx.restart();
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
		const second = hookHarness(fx.trigger, parameters(), {
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
		const secondTest = hookHarness(fx.trigger, parameters(), {
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
