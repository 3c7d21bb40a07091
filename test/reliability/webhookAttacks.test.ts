/**
 * Reliability, part 4: attacks on the Recruiting Trigger's webhook, through n8n-core's webhook
 * context (test/harness webhookServer) with the trigger activated against the sandbox.
 *
 * Every forged, stale, malformed or oversized delivery must be refused with no workflow data;
 * the documented exceptions are authentic: a valid delivery replayed within the 5-minute
 * tolerance is answered 200 but dropped as a duplicate (Drop Duplicate Deliveries, on by default;
 * with it off it starts again with the same messageId), and a delivery signed with a rotated key
 * is accepted after one key refetch.
 * Counts: attacks tried, forged deliveries accepted (must be 0).
 */
import { randomBytes } from 'crypto';
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';
import { Webhook as Signer } from 'standardwebhooks';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { startSandbox, type Sandbox, type Webhook } from '../../sandbox';
import { hookHarness, StaticDataStore, webhookServer, type WebhookServer } from '../harness';
import { clocksAt } from '../harness/clocks';
import { restartableTrigger } from '../trigger/process';
import { writeCounts } from './helpers';

const SEED = Number(process.env.RELIABILITY_SEED ?? 20261122);
const WEBHOOK = 'wh_demo';
const startedAt = Date.now();
const counts = { attacksTried: 0, forgedDeliveriesAccepted: 0, authenticAccepted: 0, replaysDropped: 0 };

let sandbox: Sandbox;
let server: WebhookServer;
/** The n8n process running the trigger. */
let n8n: ReturnType<typeof restartableTrigger>;

const key = (id = WEBHOOK) => (sandbox.get('webhooks', id) as Webhook).signing_key;
const parameters: INodeParameters = { webhookId: WEBHOOK, events: ['candidate.updated', 'job.created'], options: {} };

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: { applications: 3, jobs: 1, candidates: 3 } });
	n8n = restartableTrigger();
	const options = {
		credentials: { recruitingApi: { baseUrl: sandbox.url, companyId: sandbox.companyId, accessToken: sandbox.token } },
		credentialTypes: [new RecruitingApi()],
		staticData: new StaticDataStore(),
	};
	server = await webhookServer(n8n.node, parameters, options);
	await hookHarness(n8n.node, parameters, { ...options, webhookBaseUrl: server.webhookBaseUrl }).activate();
});
afterAll(async () => {
	writeCounts('webhookAttacks', counts, { startedAt, seed: SEED });
	await server?.close();
	await sandbox?.close();
});

interface Delivery {
	body: Buffer | string;
	headers: Record<string, string>;
}

/** A delivery exactly as the service would sign it (Standard Webhooks, via the standardwebhooks package). */
function signed(opts: { at?: Date; signingKey?: string; type?: string; msgId?: string; payload?: string } = {}): Delivery {
	const at = opts.at ?? new Date();
	const msgId = opts.msgId ?? `msg_${randomBytes(8).toString('hex')}`;
	const payload =
		opts.payload ??
		JSON.stringify({ id: `evt_${msgId}`, version: 1, type: opts.type ?? 'candidate.updated', timestamp: at.toISOString(), data: { object: { id: 'can_1' } } });
	return {
		body: payload,
		headers: {
			'content-type': 'application/json',
			'webhook-id': msgId,
			'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
			'webhook-signature': new Signer(opts.signingKey ?? key()).sign(msgId, at, payload),
		},
	};
}

async function send(delivery: Delivery) {
	const before = server.calls.length;
	const response = await fetch(server.url, { method: 'POST', headers: delivery.headers, body: delivery.body });
	await response.arrayBuffer();
	const call = server.calls[before];
	return { status: response.status, workflowData: call?.workflowData, error: call?.error };
}

/** Sends a forged delivery: counted, and it must start nothing. */
async function attack(delivery: Delivery, expectedStatus: number | number[] = 401) {
	counts.attacksTried++;
	const result = await send(delivery);
	if (result.workflowData !== undefined || (result.status >= 200 && result.status < 300)) counts.forgedDeliveriesAccepted++;
	expect(result.workflowData).toBeUndefined();
	expect([expectedStatus].flat()).toContain(result.status);
	return result;
}

const minutes = (n: number) => new Date(Date.now() + n * 60_000);
const without = (d: Delivery, header: string): Delivery => {
	const headers = { ...d.headers };
	delete headers[header];
	return { ...d, headers };
};
const withHeader = (d: Delivery, header: string, value: string): Delivery => ({ ...d, headers: { ...d.headers, [header]: value } });

describe('forged, stale and malformed deliveries are refused with no workflow data', () => {
	test('tampered body (one character changed, same signature)', async () => {
		const d = signed();
		await attack({ ...d, body: String(d.body).replace('can_1', 'can_2') });
	});

	test('tampered body (whitespace appended: the bytes count, not the JSON)', async () => {
		const d = signed();
		await attack({ ...d, body: `${d.body} ` });
	});

	test('replayed after 5 minutes (signed 5 min 5 s ago)', async () => {
		await attack(signed({ at: new Date(Date.now() - 305_000) }));
	});

	test('future-dated (5 min 5 s ahead) and far in the future', async () => {
		await attack(signed({ at: new Date(Date.now() + 305_000) }));
		await attack(signed({ at: minutes(60 * 24 * 365) }));
	});

	test('wrong key, and a key of the right shape but random', async () => {
		await attack(signed({ signingKey: `whsec_${randomBytes(24).toString('base64')}` }));
		await attack(signed({ signingKey: `whsec_${randomBytes(32).toString('base64')}` }));
	});

	test("signed with another webhook's key (wh_second)", async () => {
		expect(key('wh_second')).not.toBe(key());
		await attack(signed({ signingKey: key('wh_second') }));
	});

	test('unsigned: no webhook-signature, no webhook-id, no webhook-timestamp, no headers at all', async () => {
		const d = signed();
		await attack(without(d, 'webhook-signature'));
		await attack(without(d, 'webhook-id'));
		await attack(without(d, 'webhook-timestamp'));
		await attack({ body: d.body, headers: { 'content-type': 'application/json' } });
	});

	test.each([
		['no comma', 'v1'],
		['empty v1', 'v1,'],
		['only v2', 'v2,abc'],
		['garbage', '!!!'],
		['not base64', 'v1,@@@@'],
		['a valid signature of another message', () => signed().headers['webhook-signature']],
		['8 KB of entries', () => `v1,${'A'.repeat(44)} `.repeat(200)],
		['the secret itself as the signature', () => `v1,${key().replace(/^whsec_/, '')}`],
	])('malformed or wrong signature header: %s', async (_, value) => {
		const d = signed();
		await attack(withHeader(d, 'webhook-signature', typeof value === 'function' ? value() : value));
	});

	test.each([
		['timestamp not a number', 'webhook-timestamp', 'yesterday'],
		['timestamp in milliseconds', 'webhook-timestamp', String(Date.now())],
		['timestamp with an exponent', 'webhook-timestamp', '1.7e9'],
		['negative timestamp', 'webhook-timestamp', '-1'],
		['timestamp changed by one second', 'webhook-timestamp', () => String(Math.floor(Date.now() / 1000) - 1)],
		['message id with a space', 'webhook-id', 'msg 1'],
		['message id changed', 'webhook-id', 'msg_other'],
		['message id of 300 characters', 'webhook-id', 'm'.repeat(300)],
	])('malformed or changed header: %s', async (_, header, value) => {
		const d = signed({ at: new Date(Date.now() - 2000) });
		await attack(withHeader(d, header, typeof value === 'function' ? value() : value));
	});

	test('a valid signature over a body that is not JSON: refused (400/422), nothing starts', async () => {
		await attack(signed({ payload: 'not json {' }), [400, 422]);
	});

	test('oversized body (10 MB): a forged one is refused, the receiver keeps working', async () => {
		const big = JSON.stringify({ type: 'candidate.updated', data: { object: { id: 'can_1', bio: 'x'.repeat(10 * 1024 * 1024) } } });
		const d = signed({ payload: big });
		await attack({ ...d, body: big.replace('can_1', 'can_9') });
		await attack(withHeader(d, 'webhook-signature', signed().headers['webhook-signature']));
		// Still serving: the next authentic delivery is accepted.
		const ok = await send(signed());
		expect(ok.status).toBe(200);
		counts.authenticAccepted++;
	}, 60_000);

	test(`random tampering of a valid delivery is never accepted (fast-check, seed ${SEED})`, async () => {
		const mutation = fc.oneof(
			fc.record({ kind: fc.constant('body' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
			fc.record({ kind: fc.constant('signature' as const), at: fc.nat(), char: fc.constantFrom(...'ABCDEFabcdef0123456789+/=') }),
			fc.record({ kind: fc.constant('timestamp' as const), delta: fc.integer({ min: -100_000, max: 100_000 }).filter((n) => n !== 0) }),
			fc.record({ kind: fc.constant('id' as const), suffix: fc.string({ minLength: 1, maxLength: 4, unit: 'grapheme-ascii' }) }),
		);
		await fc.assert(
			fc.asyncProperty(mutation, async (m) => {
				const d = signed();
				const body = Buffer.from(String(d.body));
				if (m.kind === 'body') {
					const i = m.at % body.length;
					if (body[i] === m.byte) return; // not a change
					body[i] = m.byte;
					await attack({ ...d, body }, [400, 401, 422]);
				} else if (m.kind === 'signature') {
					const sig = d.headers['webhook-signature'];
					const i = 3 + (m.at % (sig.length - 3));
					if (sig[i] === m.char) return;
					await attack(withHeader(d, 'webhook-signature', sig.slice(0, i) + m.char + sig.slice(i + 1)));
				} else if (m.kind === 'timestamp') {
					await attack(withHeader(d, 'webhook-timestamp', String(Number(d.headers['webhook-timestamp']) + m.delta)));
				} else {
					await attack(withHeader(d, 'webhook-id', d.headers['webhook-id'] + m.suffix.replace(/\s/g, '_')));
				}
			}),
			{ seed: SEED, numRuns: 150 },
		);
	}, 60_000);
});

describe('the documented accepted cases (authentic deliveries)', () => {
	test('a valid delivery replayed within 5 minutes is answered 200 and dropped as a duplicate', async () => {
		const d = signed({ at: new Date(Date.now() - 60_000) });
		const first = await send(d);
		const replay = await send(d);
		expect([first.status, replay.status]).toEqual([200, 200]);
		expect(first.workflowData?.[0][0].json.messageId).toBe(d.headers['webhook-id']);
		expect(replay.workflowData).toBeUndefined();
		counts.authenticAccepted++;
		counts.replaysDropped++;
	});

	test('a signed 10 MB delivery is authentic: accepted, one item, the body intact', async () => {
		const bio = 'y'.repeat(10 * 1024 * 1024);
		const payload = JSON.stringify({ id: 'evt_big', type: 'candidate.updated', data: { object: { id: 'can_big', bio } } });
		const result = await send(signed({ payload }));
		expect(result.status).toBe(200);
		expect((result.workflowData?.[0][0].json.object as { bio: string }).bio).toHaveLength(bio.length);
		counts.authenticAccepted++;
	}, 60_000);

	test('a rotated key is accepted (after one refetch); the old key is then refused', async () => {
		// As a process that has not seen forged deliveries lately (they use up the rate-limited refetch).
		n8n.restart();
		expect((await send(signed())).status).toBe(200); // caches the current key
		const old = key();
		const rotated = `whsec_${randomBytes(24).toString('base64')}`;
		sandbox.put('webhooks', { ...(sandbox.get('webhooks', WEBHOOK) as Webhook), signing_key: rotated });
		const result = await send(signed({ signingKey: rotated }));
		expect(result.status).toBe(200);
		expect(result.workflowData?.[0]).toHaveLength(1);
		counts.authenticAccepted += 2;
		await attack(signed({ signingKey: old }));
	});

	test('a rotation right after a forged delivery is picked up at the next refetch, at most 60 s later', async () => {
		n8n.restart();
		expect((await send(signed())).status).toBe(200);
		await attack(signed({ signingKey: `whsec_${randomBytes(24).toString('base64')}` })); // uses this minute's refetch
		const rotated = `whsec_${randomBytes(24).toString('base64')}`;
		sandbox.put('webhooks', { ...(sandbox.get('webhooks', WEBHOOK) as Webhook), signing_key: rotated });
		// Within the minute: refused (401), so the service keeps retrying it.
		expect((await send(signed({ signingKey: rotated }))).status).toBe(401);
		// Only the clocks move (timers and sockets stay real): 61 s later the refetch is allowed again.
		const restore = clocksAt(Date.now() + 61_000);
		try {
			const later = await send(signed({ signingKey: rotated }));
			expect(later.status).toBe(200);
			counts.authenticAccepted += 2;
		} finally {
			restore();
		}
	});
});

test('no forged delivery was accepted', () => {
	expect(counts.attacksTried).toBeGreaterThan(150);
	expect(counts.forgedDeliveriesAccepted).toBe(0);
});
