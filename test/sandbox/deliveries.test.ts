/** Signed webhook deliveries, received by a local HTTP server and verified by `standardwebhooks` itself. */
import { createServer, Server } from 'http';
import type { AddressInfo } from 'net';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENTS } from '../../sandbox';
import { seededStore, useSandbox, waitFor } from './helpers';

interface Received {
	headers: Record<string, string>;
	body: string;
}

const { sb, call } = useSandbox();
const seeded = seededStore();
let receiver: Server;
let receiverUrl: string;
let received: Received[] = [];
let answerStatus = 204;
/** The receiver answers a delivery only once this settles (a test holds it to keep a delivery open). */
let answerHeld: Promise<void> = Promise.resolve();

beforeAll(async () => {
	receiver = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
			void answerHeld.then(() => res.writeHead(answerStatus).end());
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

beforeEach(async () => {
	sb().reset();
	received = [];
	answerStatus = 204;
	answerHeld = Promise.resolve();
	await call('PUT', '/webhooks/wh_demo', { endpoint: receiverUrl, events: WEBHOOK_EVENTS });
});

const signingKey = () => (sb().get('webhooks', 'wh_demo') as { signing_key: string }).signing_key;

/** Verifies with the reference implementation and returns the parsed envelope. */
function verified(delivery: Received): { id: string; version: number; type: string; timestamp: string; data: any } {
	return new Webhook(signingKey()).verify(delivery.body, delivery.headers) as never;
}

async function nextEvent(type: string) {
	const delivery = await waitFor(() => received.find((r) => JSON.parse(r.body).type === type));
	return { delivery, envelope: verified(delivery) };
}

describe('automatic deliveries on state changes', () => {
	it('job create and delete send job.created and job.deleted, signed and verifiable', async () => {
		const job = (await call('POST', '/jobs', { title: 'Signed' })).body.data;
		const { delivery, envelope } = await nextEvent('job.created');
		expect(envelope).toEqual({ id: delivery.headers['webhook-id'], version: 1, type: 'job.created', timestamp: expect.any(String), data: { object: job } });
		expect(delivery.headers['content-type']).toBe('application/json');
		expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
		expect(Number(delivery.headers['webhook-timestamp'])).toBe(Math.floor(Date.parse(envelope.timestamp) / 1000));
		expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);

		await call('DELETE', `/jobs/${job.id}`);
		expect((await nextEvent('job.deleted')).envelope.data.object).toEqual(job);
	});

	it.each([
		['candidate.updated', async () => (await call('PUT', `/candidates/${seeded.values('candidates')[0].id}`, { rating: 2 })).body.data],
		['candidate.note.updated', async () => {
			const note = seeded.values('candidateNotes')[0];
			return (await call('PUT', `/candidates/${note.candidate_id}/notes/${note.id}`, { text: 'hi' })).body.data;
		}],
		['feedback.updated', async () => (await call('PUT', `/feedback/${seeded.values('feedback')[0].id}`, { form_id: 'form_x' })).body.data],
		['interview.created', async () => {
			const app = seeded.values('applications')[0];
			return (await call('POST', '/interviews', { application_id: app.id, event: { type: 'phone', start: '2030-01-01T10:00:00Z', end: '2030-01-01T10:30:00Z' } })).body.data;
		}],
		['interview.cancelled', async () => {
			const id = seeded.values('interviews')[1].id;
			await call('PUT', `/interviews/${id}/cancel`);
			return sb().get('interviews', id);
		}],
		['candidate.tag.added', async () => {
			const candidate = seeded.values('candidates')[0];
			const tag = seeded.values('tags').find((t) => !candidate.tags.some((c) => c.id === t.id))!;
			await call('POST', `/candidates/${candidate.id}/tags`, { id: tag.id });
			return (await call('GET', `/candidates/${candidate.id}`)).body.data;
		}],
	])('%s carries the resource as it is after the change', async (event, act) => {
		const resource = await act();
		const { envelope } = await nextEvent(event);
		expect(envelope.data.object).toEqual(resource);
		await sb().settleDeliveries();
		expect(sb().deliveries.map((d) => [d.event, d.webhookId, d.status])).toEqual([[event, 'wh_demo', 204]]);
	});

	it('never delays the API answer', async () => {
		// The receiver holds its answer until the API has answered: an API that waited for its
		// delivery would never answer (the test would time out), whatever the machine's speed.
		let release!: () => void;
		answerHeld = new Promise<void>((resolve) => (release = resolve));
		expect((await call('POST', '/jobs', { title: 'Fast' })).status).toBe(201);
		await waitFor(() => received[0]);
		expect(sb().deliveries).toHaveLength(0);
		release();
		await sb().settleDeliveries();
		expect(sb().deliveries).toHaveLength(1);
	});

	it('skips disabled webhooks and events a webhook is not subscribed to', async () => {
		await call('PUT', '/webhooks/wh_demo', { events: ['job.deleted'] });
		sb().put('webhooks', { ...(sb().get('webhooks', 'wh_second') as object), endpoint: receiverUrl, subscribed_events: ['job.created'], status: 'disabled' });
		await call('POST', '/jobs', { title: 'Nobody listens' });
		await sb().settleDeliveries();
		expect(received).toEqual([]);
		expect(sb().deliveries).toEqual([]);
	});

	it('a no-op (a second cancel, a tag already there) sends nothing', async () => {
		const id = seeded.values('interviews')[1].id;
		await call('PUT', `/interviews/${id}/cancel`);
		await call('PUT', `/interviews/${id}/cancel`);
		const candidate = seeded.values('candidates').find((c) => c.tags.length > 0)!;
		expect((await call('POST', `/candidates/${candidate.id}/tags`, { id: candidate.tags[0].id })).status).toBe(204);
		await sb().settleDeliveries();
		expect(sb().deliveries.map((d) => d.event)).toEqual(['interview.cancelled']);
	});
});

describe('manual deliveries (deliver)', () => {
	it('sends both payload shapes, verifiable, and records them', async () => {
		const job = seeded.values('jobs')[0];
		const { custom_pipeline_id: _internal, ...visibleJob } = job;
		const wrapped = await sb().deliver({ webhookId: 'wh_demo', event: 'job.updated' });
		const flat = await sb().deliver({ webhookId: 'wh_demo', event: 'application.created', object: { id: 'app_1' }, shape: 'flat' });
		expect(received).toHaveLength(2);
		expect(verified(received[0])).toMatchObject({ type: 'job.updated', data: { object: visibleJob } });
		expect(verified(received[1])).toMatchObject({ type: 'application.created', data: { id: 'app_1' } });
		expect(verified(received[1]).data).not.toHaveProperty('object');
		expect(wrapped).toMatchObject({ webhookId: 'wh_demo', event: 'job.updated', endpoint: receiverUrl, status: 204, body: received[0].body });
		expect(wrapped.headers['webhook-signature']).toBe(received[0].headers['webhook-signature']);
		expect(flat.msgId).toBe(received[1].headers['webhook-id']);
		expect(sb().deliveries).toEqual([wrapped, flat]);
	});

	it('accepts event names outside the 19 and records the receiver status', async () => {
		answerStatus = 401;
		const record = await sb().deliver({ webhookId: 'wh_demo', event: 'job.archived', object: { id: 'job_1' } });
		expect(record.status).toBe(401);
	});

	it('a signature made with another key does not verify', async () => {
		await sb().deliver({ webhookId: 'wh_demo', event: 'job.updated' });
		const otherKey = (sb().get('webhooks', 'wh_second') as { signing_key: string }).signing_key;
		expect(() => new Webhook(otherKey).verify(received[0].body, received[0].headers)).toThrow();
		expect(() => new Webhook(signingKey()).verify(received[0].body.replace('job.updated', 'job.deleted'), received[0].headers)).toThrow();
	});

	it('records a network error with status null', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		sb().put('webhooks', { ...(sb().get('webhooks', 'wh_demo') as object), endpoint: `http://127.0.0.1:${port}/closed` });
		const record = await sb().deliver({ webhookId: 'wh_demo', event: 'job.created' });
		expect(record.status).toBeNull();
		expect(record.error).toMatch(/ECONNREFUSED/);
	});

	it('rejects an unknown webhook with a 404 problem', async () => {
		await expect(sb().deliver({ webhookId: 'wh_nope', event: 'job.created' })).rejects.toMatchObject({ status: 404 });
	});
});

describe('retries of a failed event delivery', () => {
	let serviceSchedule: number[];
	beforeAll(() => {
		serviceSchedule = sb().deliveryRetries().delaysMs;
	});
	afterEach(() => sb().setDeliveryRetries(serviceSchedule));

	const attemptsOf = (type: string) => received.filter((r) => JSON.parse(r.body).type === type);

	it('the service retries by default, a day in all', () => {
		expect(serviceSchedule.length).toBeGreaterThan(0);
		expect(serviceSchedule.reduce((a, b) => a + b, 0)).toBeGreaterThan(12 * 3_600_000);
	});

	it('a failed delivery is sent again after each delay, same webhook-id and body, signed anew; then the service gives up', async () => {
		sb().setDeliveryRetries([50, 100]);
		answerStatus = 500;
		await call('POST', '/jobs', { title: 'Retried' });
		const attempts = await waitFor(() => (attemptsOf('job.created').length === 3 ? attemptsOf('job.created') : undefined));
		expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
		expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
		for (const attempt of attempts) expect(verified(attempt).type).toBe('job.created');
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(attemptsOf('job.created')).toHaveLength(3);
		const records = sb().deliveries.filter((d) => d.event === 'job.created');
		expect(records.map((d) => [d.attempt, d.status, d.retryInMs])).toEqual([
			[1, 500, 50],
			[2, 500, 100],
			[3, 500, null],
		]);
		expect(sb().deliveryRetries().waiting).toBe(0);
	});

	it('a retry answered 2xx ends them', async () => {
		sb().setDeliveryRetries([50, 50, 50]);
		answerStatus = 503;
		await call('POST', '/jobs', { title: 'Second time lucky' });
		await waitFor(() => attemptsOf('job.created').length === 1 || undefined);
		answerStatus = 204;
		await waitFor(() => attemptsOf('job.created').length === 2 || undefined);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(attemptsOf('job.created')).toHaveLength(2);
	});

	it('a webhook disabled meanwhile gets no retry', async () => {
		sb().setDeliveryRetries([150]);
		answerStatus = 500;
		await call('POST', '/jobs', { title: 'Disabled' });
		await waitFor(() => attemptsOf('job.created').length === 1 || undefined);
		sb().put('webhooks', { ...(sb().get('webhooks', 'wh_demo') as object), status: 'disabled' });
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(attemptsOf('job.created')).toHaveLength(1);
	});

	it('a waiting retry is made at once through the control API; a delivery on demand is tried once', async () => {
		expect((await call('PUT', '/__sandbox/delivery-retries', { delaysMs: [3_600_000] })).body).toEqual({ delaysMs: [3_600_000], waiting: 0 });
		answerStatus = 500;
		await call('POST', '/jobs', { title: 'Later' });
		await waitFor(() => sb().deliveryRetries().waiting === 1 || undefined);
		const onDemand = (await call('POST', '/__sandbox/deliver', { webhookId: 'wh_demo', event: 'candidate.updated' })).body;
		expect(onDemand).toMatchObject({ status: 500, attempt: 1 });
		expect(sb().deliveryRetries().waiting).toBe(1);
		answerStatus = 204;
		expect((await call('POST', '/__sandbox/delivery-retries/now')).body).toEqual({ retried: 1 });
		await waitFor(() => attemptsOf('job.created').length === 2 || undefined);
		expect(sb().deliveries.filter((d) => d.event === 'job.created').map((d) => [d.attempt, d.status])).toEqual([
			[1, 500],
			[2, 204],
		]);
		expect((await call('PUT', '/__sandbox/delivery-retries', { delaysMs: [-1] })).status).toBe(400);
	});

	it('a reset puts the schedule back; a retry due for a webhook disabled meanwhile is not sent', async () => {
		await call('PUT', '/__sandbox/delivery-retries', { delaysMs: [] });
		await call('POST', '/__sandbox/reset');
		expect(sb().deliveryRetries().delaysMs).toEqual(serviceSchedule);
		await call('PUT', '/webhooks/wh_demo', { endpoint: receiverUrl, events: WEBHOOK_EVENTS });
		sb().setDeliveryRetries([3_600_000]);
		answerStatus = 500;
		await call('POST', '/jobs', { title: 'Gone quiet' });
		await waitFor(() => sb().deliveryRetries().waiting === 1 || undefined);
		sb().put('webhooks', { ...(sb().get('webhooks', 'wh_demo') as object), status: 'disabled' });
		expect((await call('POST', '/__sandbox/delivery-retries/now')).body).toEqual({ retried: 0 });
	});

	it('an application moved to the stage it is at sends no event', async () => {
		const application = (await call('POST', '/__sandbox/applications', {})).body.data;
		await nextEvent('application.created');
		await call('PUT', `/__sandbox/applications/${application.id}/stage`, { parentStage: application.stage.parent_stage });
		await call('PUT', `/__sandbox/applications/${application.id}/stage`, { parentStage: 'screening' });
		const moved = await nextEvent('application.stage.updated');
		expect(moved.envelope.data.object.stage.parent_stage).toBe('screening');
		expect(received.filter((r) => JSON.parse(r.body).type === 'application.stage.updated')).toHaveLength(1);
	});

	it('the activity routes send the event the service would, with the record as the API shows it', async () => {
		const application = (await call('POST', '/__sandbox/applications', {})).body.data;
		const { envelope } = await nextEvent('application.created');
		expect(envelope.data.object).toEqual(application);
		const feedback = (await call('POST', '/__sandbox/feedback', { applicationId: application.id })).body.data;
		expect((await nextEvent('feedback.submitted')).envelope.data.object).toEqual(feedback);
	});
});
