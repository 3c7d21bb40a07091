/**
 * The Recruiting Trigger's deliveries through n8n-core's real webhook context (test/harness),
 * against the sandbox over HTTP: deliveries signed by the sandbox with the `standardwebhooks`
 * package, and hand-made ones for what the sandbox never sends; signing keys, options, refusals.
 * The lifecycle is in lifecycle.test.ts.
 */
import { randomBytes } from 'crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { Webhook as Signer } from 'standardwebhooks';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingTrigger } from '../../nodes/RecruitingTrigger/RecruitingTrigger.node';
import { SIGNING_KEY_MAX_AGE_MS } from '../../nodes/RecruitingTrigger/signingKeys';
import type { Sandbox } from '../../sandbox';
import { HarnessCredentialsHelper } from '../harness/credentials';
import { webhookServer } from '../harness';
import { clocksAt } from '../harness/clocks';
import { items, lastCall, useTriggerFixture, WEBHOOK, type Setup } from './fixture';

const fx = useTriggerFixture();
const { credentials, parameters, remote, setup, webhookRequests } = fx;
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
	return {
		status: response.status,
		retryAfter: response.headers.get('retry-after'),
		body: (await response.json().catch(() => undefined)) as IDataObject | undefined,
	};
}

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
			// Not an event the polling trigger sees: its key is the delivery's webhook-id.
			eventKey: record.msgId,
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

		fx.restart(); // a process that has not accepted msg_retry yet
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
			// Malformed headers never cost a request at all, even to a process with no key in memory.
			fx.restart();
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
		fx.restart();
		expect((await sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' })).status).toBe(200);
		expect(items(server)).toHaveLength(1);
		expect(webhookRequests()).toEqual([{ method: 'GET', id: WEBHOOK, body: undefined }]);

		// A queue-mode webhook process alongside, with its own module memory, serving the same workflow.
		const other = await webhookServer(fx.triggerInOtherProcess(), parameters(), {
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
		fx.restart();
		sandbox.setFaults([{ kind: 'status', status: 401, method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		for (let i = 0; i < 4; i++) {
			expect((await post(server.url, { key: remote().signing_key })).status).toBe(503);
		}
		expect(lastCall(server).workflowData).toBeUndefined();
		// One short attempt (no retries), then at most one per minute.
		expect(sandbox.faultHits()[0]).toBe(1);
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
		const restore = clocksAt(Date.now() + 10 * 60_000 + 1000);
		try {
			expect((await post(server.url, { key: old })).status).toBe(401);
			expect((await post(server.url, { key: rotated })).status).toBe(200);
			expect(webhookRequests()).toEqual([{ method: 'GET', id: WEBHOOK, body: undefined }]);
		} finally {
			restore();
		}
	});

	// Issue 27, point 2: the editor's default and maximum of Signing Key Max Age are the transport's
	// SIGNING_KEY_MAX_AGE_MS, not a second copy of 600; a key is fetched again exactly then.
	it('Signing Key Max Age at the editor\'s default (and above its maximum) is SIGNING_KEY_MAX_AGE_MS', async () => {
		const option = new RecruitingTrigger().description.properties
			.flatMap((property) => (property.options ?? []) as Array<{ name: string; default?: unknown; typeOptions?: { maxValue?: number } }>)
			.find((entry) => entry.name === 'signingKeyMaxAge');
		expect(option?.default).toBe(SIGNING_KEY_MAX_AGE_MS / 1000);
		expect(option?.typeOptions?.maxValue).toBe(SIGNING_KEY_MAX_AGE_MS / 1000);
		for (const seconds of [option!.default as number, option!.typeOptions!.maxValue! * 2]) {
			const { server } = await withOptions({ signingKeyMaxAge: seconds });
			// Not the key the activation read: the first delivery fetches it, at fetchedBy or later.
			fx.restart();
			const old = remote().signing_key;
			const fetchedBy = Date.now();
			expect((await post(server.url, { key: old })).status).toBe(200);
			const rotated = `whsec_${randomBytes(24).toString('base64')}`;
			sandbox.put('webhooks', { ...remote(), signing_key: rotated });
			let restore = () => {};
			const fake = (now: number) => {
				restore();
				restore = clocksAt(now);
			};
			try {
				// Still the cached key a little before the age (the fetch was at or after fetchedBy; the
				// monotonic clock runs on from there while the delivery is handled, hence 5 s)...
				fake(fetchedBy + SIGNING_KEY_MAX_AGE_MS - 5000);
				expect((await post(server.url, { key: old })).status).toBe(200);
				// ...and a fetched one once it is past, however long the option asks for.
				fake(Date.now() + 60_000);
				expect((await post(server.url, { key: rotated })).status).toBe(200);
				expect((await post(server.url, { key: old })).status).toBe(401);
			} finally {
				restore();
			}
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
		fx.restart();
		// Retry-After an hour: a path that waited for it would never answer within the test's limit.
		sandbox.setFaults([{ kind: 'rate_limit', retryAfter: 3600, method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		const answer = await post(server.url);
		expect(answer.status).toBe(503);
		// The service's wait goes to the sender, so it delivers again after it (issue 25, item 5).
		expect(Number(answer.retryAfter)).toBeGreaterThan(3590);
		expect(sandbox.faultHits()[0]).toBe(1); // no 429 waits, no retries
		// While the credential is paused, the next delivery is not even tried: 503 with the rest of the wait.
		const next = await post(server.url);
		expect(next.status).toBe(503);
		expect(Number(next.retryAfter)).toBeGreaterThan(3590);
		expect(sandbox.faultHits()[0]).toBe(1);
		expect(server.calls.every((call) => call.workflowData === undefined)).toBe(true);
		sandbox.setFaults([]);
	});

	it('a key refetch (a failed signature) refused with 429: 503 with Retry-After, not 401 (the delivery may be good)', async () => {
		const { server } = await withOptions();
		const rotated = `whsec_${randomBytes(24).toString('base64')}`;
		sandbox.put('webhooks', { ...remote(), signing_key: rotated });
		sandbox.setFaults([{ kind: 'rate_limit', retryAfter: 30, method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		const answer = await post(server.url, { key: rotated });
		expect(answer.status).toBe(503);
		expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(29);
		expect(lastCall(server).workflowData).toBeUndefined();
		// The next one, within the refetch interval: still 503 with the rest of the wait, not 401.
		const next = await post(server.url, { key: rotated });
		expect(next.status).toBe(503);
		expect(Number(next.retryAfter)).toBeGreaterThanOrEqual(28);
		sandbox.setFaults([]);
	});

	// No wall-clock bounds (a loaded machine stretches them). The key fetch is cut by its 5 s limit:
	// a key that came after 20 s would verify the delivery (200), so a 503 shows the cut.
	it('a slow key fetch on the delivery path gives up with 503 (its 5 s limit), after one attempt', async () => {
		const { server } = await withOptions();
		fx.restart();
		sandbox.setFaults([{ kind: 'slow', delayMs: 20_000, method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		expect((await post(server.url)).status).toBe(503);
		expect(sandbox.faultHits()[0]).toBe(1);
		sandbox.setFaults([]);
	}, 60_000);

	it('a key fetch whose answer trickles in (headers at once, a byte now and then) is cut too', async () => {
		const { server } = await withOptions();
		fx.restart();
		sandbox.setFaults([{ kind: 'trickle', delayMs: 20_000, method: 'GET', path: `/webhooks/${WEBHOOK}`, times: -1 }]);
		expect((await post(server.url)).status).toBe(503);
		expect(sandbox.faultHits()[0]).toBe(1);
		sandbox.setFaults([]);
	}, 60_000);

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

