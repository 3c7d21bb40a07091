/**
 * The test listen's note in the webhook's description (nodes/RecruitingTrigger/borrowNote.ts),
 * through n8n-core's hook contexts against the sandbox: what a hostile review of the first
 * version found (each failed on it), and the sequences it tried that must keep working.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { INodeParameters } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { ORIGINAL_SLOT, TEST_SLOT } from '../../nodes/RecruitingTrigger/lifecycle';
import { readBorrowNote, withBorrowNote } from '../../nodes/RecruitingTrigger/borrowNote';
import type { Sandbox, Webhook } from '../../sandbox';
import { hookHarness, StaticDataStore } from '../harness';
import { SELECTED, useTriggerFixture, WEBHOOK } from './fixture';

const fx = useTriggerFixture();
const { credentials, parameters, remote, dashboardState, setup, testListen, otherWorkflow } = fx;
let sandbox: Sandbox;
beforeAll(() => {
	sandbox = fx.sandbox;
});

/** A proxy in front of the sandbox that drops `description` from GET /webhooks/{id} answers. */
async function descriptionDroppingProxy(): Promise<{ url: string; close: () => Promise<void> }> {
	const target = new URL(sandbox.url);
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const up = http.request(
				{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
				(upRes) => {
					const body: Buffer[] = [];
					upRes.on('data', (c: Buffer) => body.push(c));
					upRes.on('end', () => {
						let text = Buffer.concat(body).toString('utf8');
						if (req.method === 'GET' && /\/webhooks\/[^/]+$/.test(req.url ?? '') && upRes.statusCode === 200) {
							const json = JSON.parse(text);
							const data = json.data ?? json;
							delete data.description;
							text = JSON.stringify(json);
						}
						const headers = { ...upRes.headers };
						delete headers['content-length'];
						delete headers['transfer-encoding'];
						res.writeHead(upRes.statusCode ?? 500, headers);
						res.end(text);
					});
				},
			);
			up.end(Buffer.concat(chunks));
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	const prefix = target.pathname.replace(/\/$/, '');
	return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('found by review', () => {
	it('a service answer without description: the listen writes no note and leaves the description alone', async () => {
		const before = dashboardState();
		expect(before.description).toBe('Created in the dashboard for the demo.');
		const proxy = await descriptionDroppingProxy();
		try {
			fx.useCredentialBaseUrl(proxy.url);
			const { server, store } = await setup();
			const listen = testListen(server, new StaticDataStore(store.workflowData));
			await listen.activate('manual');
			// During the listen the user's description has been replaced by the note alone.
			const during = remote().description;
			await listen.deactivate();
			// Expected (as before e3c42f8, where description was not sent when unknown): description untouched.
			expect({ during, after: dashboardState() }).toEqual({ during: expect.stringContaining(before.description), after: before });
		} finally {
			await proxy.close();
		}
	});

	it('a webhook without description: the listen leaves none behind', async () => {
		const { description: _d, ...rest } = remote();
		sandbox.put('webhooks', rest as Webhook);
		const before = dashboardState();
		const { server, store } = await setup();
		const listen = testListen(server, new StaticDataStore(store.workflowData));
		await listen.activate('manual');
		await listen.deactivate();
		expect(dashboardState()).toEqual(before); // observed: description '' where there was none
	});

	it('the webhook re-pointed in the dashboard during a listen: its end takes the note out, the new endpoint stays', async () => {
		const before = dashboardState();
		const { server, hooks, store } = await setup();
		const listen = testListen(server, new StaticDataStore(store.workflowData));
		await listen.activate('manual');
		// Someone sets a new endpoint in the dashboard during the listen (description untouched).
		sandbox.put('webhooks', { ...remote(), endpoint: 'https://new-home.example.invalid/hook' });
		await listen.deactivate(); // skips the restore: someone else's change stands
		expect(remote().description).toBe(before.description);
		// Production cycle afterwards stores and restores the polluted description as "the original".
		await hooks.activate();
		await hooks.deactivate();
		expect(remote().endpoint).toBe('https://new-home.example.invalid/hook');
		expect(remote().description).toBe(before.description); // observed: description + "\n\n[n8n: ... holds this webhook ...]"
	});

	it('after a kill during a listen the user sets the endpoint back by hand: activation takes the left-over note out', async () => {
		const before = dashboardState();
		const { server, hooks, store } = await setup();
		await testListen(server, new StaticDataStore(store.workflowData)).activate('manual'); // n8n killed: no end
		sandbox.put('webhooks', { ...remote(), endpoint: before.endpoint, subscribed_events: before.subscribed_events });
		await hooks.activate();
		await hooks.deactivate();
		expect(dashboardState()).toEqual(before);
	});

	it('a test listen on its own test URL without a readable note is refused (what it replaced is unknown)', async () => {
		const { server, store } = await setup();
		const testUrl = testListen(server, new StaticDataStore()).webhookUrl;
		// e.g. a listen cut short before the upgrade (no note), or a note made unreadable by a dashboard edit
		sandbox.put('webhooks', { ...remote(), endpoint: testUrl, subscribed_events: ['job.deleted'] });
		const listen = testListen(server, new StaticDataStore(store.workflowData));
		const started = await listen.activate('manual').then(() => 'started', (e: Error) => e.message);
		await listen.deactivate();
		// Expected (commit message: "Without a note the test URL is still refused"): refused.
		expect({ started, endpointAfterEnd: remote().endpoint }).toEqual({ started: expect.stringContaining('unknown'), endpointAfterEnd: testUrl });
	});

	it('a note the service would refuse back (endpoint not a URL) is not taken: activation refused, deactivation fine', async () => {
		const { server, hooks } = await setup();
		const testUrl = testListen(server, new StaticDataStore()).webhookUrl;
		const description = withBorrowNote('Mine.', { endpoint: 'not a url', events: ['no.such.event'], holder: testUrl, since: 'x' });
		sandbox.put('webhooks', { ...remote(), endpoint: testUrl, description });
		let activation: unknown;
		try {
			await hooks.activate();
		} catch (e) {
			activation = e;
		}
		const deactivation = await hooks.deactivate().then(() => 'ok', (e: Error) => e.message);
		// Expected: refused like a note naming an n8n URL (nothing usable to put back).
		expect({ activation, original: hooks.staticData[ORIGINAL_SLOT], deactivation, endpoint: remote().endpoint }).toEqual({
			activation: expect.any(Error),
			original: undefined,
			deactivation: 'ok',
			endpoint: testUrl,
		});
	});
});

describe('sequences that keep working', () => {
	it('repeated cut-short listens do not stack notes; production then restores exactly', async () => {
		const before = dashboardState();
		const { server, hooks, store } = await setup();
		for (let i = 0; i < 4; i++) {
			fx.restart();
			await testListen(server, new StaticDataStore(store.workflowData)).activate('manual');
		}
		expect(remote().description.split('[n8n holds').length).toBe(2);
		await hooks.activate();
		await hooks.activate('update');
		await hooksRepublish();
		await hooks.deactivate();
		expect(dashboardState()).toEqual(before);
		async function hooksRepublish() {
			await setupHooks(['job.deleted']).activate('update');
		}
		function setupHooks(events: string[]) {
			return hookHarness(fx.trigger, parameters({ events }), {
				credentials: credentials(),
				credentialTypes: [new RecruitingApi()],
				staticData: store,
				webhookBaseUrl: server.webhookBaseUrl,
			});
		}
	});

	it('cut-short listen with other events than now selected; new listen with other events adopts the original events', async () => {
		const before = dashboardState();
		const { server, store } = await setup();
		await testListen(server, new StaticDataStore(store.workflowData)).activate('manual');
		const again = testListen(server, new StaticDataStore(store.workflowData), parameters({ events: ['job.deleted'] }));
		await again.activate('manual');
		expect(again.staticData[TEST_SLOT]).toMatchObject({ events: before.subscribed_events });
		await again.deactivate();
		expect(dashboardState()).toEqual(before);
	});

	it('split hosts: cut-short listen on the editor host, new listen adopts, production takes over later', async () => {
		const before = dashboardState();
		const { server, hooks, store } = await setup();
		const testBase = server.webhookBaseUrl.replace('127.0.0.1', 'localhost').replace(/\/webhook$/, '/webhook-test');
		await testListen(server, new StaticDataStore(store.workflowData), parameters(), testBase).activate('manual');
		await testListen(server, new StaticDataStore(store.workflowData), parameters(), testBase).activate('manual');
		await hooks.activate();
		expect(remote().endpoint).toBe(server.url);
		await hooks.deactivate();
		expect(dashboardState()).toEqual(before);
	});

	it('two workflows: W2 refused on W1 cut-short listen; W1 production later restores exactly', async () => {
		const before = dashboardState();
		const w1 = await setup();
		await testListen(w1.server, new StaticDataStore()).activate('manual');
		await expect(otherWorkflow(w1.server.webhookBaseUrl).activate()).rejects.toThrow('is in use by the workflow "Harness trigger workflow"');
		await expect(otherWorkflow(w1.server.webhookBaseUrl.replace(/\/webhook$/, '/webhook-test')).activate('manual')).rejects.toThrow('is in use by the workflow "Harness trigger workflow"');
		expect(readBorrowNote(remote().description)?.note.endpoint).toBe(before.endpoint);
		await w1.hooks.activate();
		await w1.hooks.deactivate();
		expect(dashboardState()).toEqual(before);
	});

	it('a note naming this node URL spelled differently (query, case, trailing slash, other host) is refused', async () => {
		const { server, hooks } = await setup();
		const testUrl = testListen(server, new StaticDataStore()).webhookUrl;
		const variants = [
			`${server.url}?x=1`,
			server.url.toUpperCase().replace('HTTP://', 'http://'),
			`${server.url}/`,
			server.url.replace('127.0.0.1', 'other.example'),
			testUrl.replace('127.0.0.1', 'other.example'),
		];
		for (const named of variants) {
			sandbox.put('webhooks', { ...remote(), endpoint: testUrl, description: withBorrowNote('', { endpoint: named, events: ['job.created'], holder: testUrl, since: 'x' }) });
			await expect(hooks.activate()).rejects.toThrow('what it replaced is unknown');
		}
	});

	it('parsing a 100000-char hostile description with many openings is linear and quick', () => {
		const opening = '[n8n holds this webhook and puts back when done: ';
		const hostile = (opening + '{').repeat(Math.floor(100_000 / (opening.length + 1))) + ']';
		const t = Date.now();
		for (let i = 0; i < 100; i++) readBorrowNote(hostile);
		const big = 'a'.repeat(5_000_000) + opening + JSON.stringify({ endpoint: 'https://x', events: [], holder: 'https://n8n', since: '' }) + ']';
		expect(readBorrowNote(big)?.note.endpoint).toBe('https://x');
		expect(Date.now() - t).toBeLessThan(2000);
	});

	it('a changed Webhook ID during a listen: the listen end restores the old webhook; production takes the new one', async () => {
		const demoBefore = dashboardState(WEBHOOK);
		sandbox.put('webhooks', { ...remote('wh_second'), status: 'enabled' });
		const { server, store, hooksWith } = await setup();
		const listen = testListen(server, new StaticDataStore(store.workflowData));
		await listen.activate('manual');
		const prod = hooksWith(parameters({ webhookId: 'wh_second' }));
		await prod.activate();
		await listen.deactivate();
		expect(dashboardState(WEBHOOK)).toEqual(demoBefore);
		await prod.deactivate();
	});

	it('takeover from a cut-short listen, restart (init), republish, listen refused, deactivate: exact', async () => {
		const before = dashboardState();
		const { server, hooks, store } = await setup();
		await testListen(server, new StaticDataStore(store.workflowData)).activate('manual');
		await hooks.activate();
		fx.restart();
		const restarted = hookHarness(fx.trigger, parameters(), { credentials: credentials(), credentialTypes: [new RecruitingApi()], staticData: new StaticDataStore(store.workflowData), webhookBaseUrl: server.webhookBaseUrl });
		expect(await restarted.activate('init')).toEqual({ existed: true });
		await expect(testListen(server, new StaticDataStore(restarted.store.workflowData)).activate('manual')).rejects.toThrow('this workflow is published');
		const republished = hookHarness(fx.trigger, parameters({ events: ['job.deleted'] }), { credentials: credentials(), credentialTypes: [new RecruitingApi()], staticData: restarted.store, webhookBaseUrl: server.webhookBaseUrl });
		await republished.activate('update');
		await republished.deactivate();
		expect(dashboardState()).toEqual(before);
	});

	it('no signing key / token in the note, static data or errors', async () => {
		const key = remote().signing_key;
		const { server, hooks, store } = await setup();
		const listen = testListen(server, new StaticDataStore(store.workflowData));
		await listen.activate('manual');
		const text = JSON.stringify([remote().description, listen.staticData, store.workflowData]);
		await hooks.activate();
		const all = text + JSON.stringify([hooks.staticData, hooks.calls.map((c) => c.error?.message)]);
		expect(all).not.toContain(key.replace(/^whsec_/, ''));
		expect(all).not.toContain(sandbox.token);
	});

	it('n8n 1.x clears a failed activation with the static data saved before it: deactivation puts back from the note', async () => {
		const before = dashboardState();
		const { server, store, hooksWith } = await setup();
		const saved = JSON.stringify(store.workflowData);
		// This node's create succeeded (webhook re-pointed); another node's failed; n8n 1.x then
		// runs delete with the static data from the database, which has no snapshot.
		await hooksWith(parameters(), new StaticDataStore()).activate();
		expect(remote().endpoint).toBe(server.url);
		const cleared = hooksWith(parameters(), new StaticDataStore(JSON.parse(saved)));
		expect(await cleared.deactivate()).toBe(true);
		expect(dashboardState()).toEqual(before);
	});

	it('a later activation on a webhook left on this URL without a snapshot takes the original from the note', async () => {
		const before = dashboardState();
		const { server, hooksWith } = await setup();
		await hooksWith(parameters(), new StaticDataStore()).activate(); // its snapshot lost
		const again = hooksWith(parameters({ events: ['job.deleted'] }), new StaticDataStore());
		await again.activate('update');
		expect(remote().endpoint).toBe(server.url);
		expect(again.staticData[ORIGINAL_SLOT]).toMatchObject({ endpoint: before.endpoint, events: before.subscribed_events, description: before.description });
		await again.deactivate();
		expect(dashboardState()).toEqual(before);
	});

	it("another workflow's note is not trusted: its listen on a webhook pasted to it by hand is refused", async () => {
		const w1 = await setup();
		await testListen(w1.server, new StaticDataStore(w1.store.workflowData)).activate('manual'); // killed: note for W1
		const w2listen = otherWorkflow(w1.server.webhookBaseUrl.replace(/\/webhook$/, '/webhook-test'));
		sandbox.put('webhooks', { ...remote(), endpoint: w2listen.webhookUrl });
		await expect(w2listen.activate('manual')).rejects.toThrow('what it replaced is unknown');
		await expect(otherWorkflow(w1.server.webhookBaseUrl).activate()).rejects.toThrow('what it replaced is unknown');
		expect(remote().endpoint).toBe(w2listen.webhookUrl);
	});

	it.each([['the second instance first'], ['the first instance first']])(
		'the same workflow on a second n8n instance (same node webhook id) takes the webhook; deactivating both, %s, restores the dashboard exactly',
		async (order) => {
			const before = dashboardState();
			const { server, hooks } = await setup();
			await hooks.activate();
			const staging = hookHarness(fx.triggerInOtherProcess(), parameters(), {
				credentials: credentials(),
				credentialTypes: [new RecruitingApi()],
				staticData: new StaticDataStore(),
				webhookBaseUrl: 'https://staging-n8n.example.com/webhook',
			});
			await staging.activate();
			expect(remote().endpoint).toBe(staging.webhookUrl);
			expect(staging.staticData[ORIGINAL_SLOT]).toMatchObject({ endpoint: before.endpoint, events: before.subscribed_events });
			for (const h of order === 'the second instance first' ? [staging, hooks] : [hooks, staging]) await h.deactivate();
			expect(server.url).not.toBe(staging.webhookUrl);
			expect(dashboardState()).toEqual(before);
		},
	);
});

