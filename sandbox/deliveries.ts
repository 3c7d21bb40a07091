/**
 * Webhook deliveries, signed per Standard Webhooks by the `standardwebhooks` package itself.
 * Envelope: { id, version: 1, type, timestamp, data: { object } } (shape 'flat': data = the resource).
 */
import { randomBytes } from 'crypto';
import { Webhook as Signer } from 'standardwebhooks';
import { notFound } from './problems';
import type { Webhook } from './resources';
import type { CollectionTypes, Store } from './store';
import type { DeliverInput, DeliveryRecord } from './types';

const TIMEOUT_MS = 10_000;

/** Which seeded resource a manual delivery sends when no object is given: by event prefix. */
const SAMPLE_SOURCES: Array<[string, keyof CollectionTypes]> = [
	['candidate.note.', 'candidateNotes'],
	['candidate.', 'candidates'],
	['application.', 'applications'],
	['job.', 'jobs'],
	['feedback.', 'feedback'],
	['interview.', 'interviews'],
];

export class Deliveries {
	readonly records: DeliveryRecord[] = [];
	private readonly inFlight = new Set<Promise<DeliveryRecord>>();
	private abort = new AbortController();

	constructor(private readonly store: Store) {}

	/** Fires `event` at every enabled webhook subscribed to it, without waiting. */
	emit(event: string, object: object): void {
		for (const webhook of this.store.values('webhooks')) {
			if (webhook.status === 'enabled' && webhook.subscribed_events?.includes(event)) {
				void this.send(webhook, event, object, 'object');
			}
		}
	}

	/** A delivery on demand; resolves with its record once the receiver answered. */
	deliver(input: DeliverInput): Promise<DeliveryRecord> {
		const webhook = this.store.get('webhooks', input.webhookId);
		if (!webhook) throw notFound('Webhook', input.webhookId);
		return this.send(webhook, input.event, input.object ?? this.sample(input.event), input.shape ?? 'object');
	}

	/** Resolves once every delivery started so far has finished. */
	async settle(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
	}

	/** Abandons what is still in flight: it is aborted and will not be recorded. */
	abandon(): void {
		this.abort.abort();
		this.abort = new AbortController();
		this.inFlight.clear();
	}

	/** Abandons what is in flight and forgets the records. */
	reset(): void {
		this.abandon();
		this.records.length = 0;
	}

	private sample(event: string): object {
		const source = SAMPLE_SOURCES.find(([prefix]) => event.startsWith(prefix));
		const record = source && this.store.values(source[1])[0];
		return record ? this.store.view(source[1], record) : {};
	}

	private send(webhook: Webhook, event: string, object: object, shape: 'object' | 'flat'): Promise<DeliveryRecord> {
		const abort = this.abort;
		const msgId = `msg_${randomBytes(16).toString('base64url')}`;
		const date = new Date();
		const body = JSON.stringify({
			id: msgId,
			version: 1,
			type: event,
			timestamp: date.toISOString(),
			data: shape === 'flat' ? object : { object },
		});
		const record: DeliveryRecord = {
			webhookId: webhook.id,
			event,
			msgId,
			endpoint: webhook.endpoint,
			status: null,
			body,
			headers: {
				'content-type': 'application/json',
				'webhook-id': msgId,
				'webhook-timestamp': String(Math.floor(date.getTime() / 1000)),
			},
		};
		const run = async (): Promise<DeliveryRecord> => {
			try {
				record.headers['webhook-signature'] = new Signer(webhook.signing_key).sign(msgId, date, body);
				const response = await fetch(webhook.endpoint, {
					method: 'POST',
					headers: record.headers,
					body,
					redirect: 'manual',
					signal: AbortSignal.any([abort.signal, AbortSignal.timeout(TIMEOUT_MS)]),
				});
				record.status = response.status;
				await response.arrayBuffer();
			} catch (error) {
				record.error = describe(error);
			}
			if (!abort.signal.aborted) this.records.push(record);
			return record;
		};
		const promise = run();
		this.inFlight.add(promise);
		void promise.finally(() => this.inFlight.delete(promise));
		return promise;
	}
}

function describe(error: unknown): string {
	const e = error as { message?: string; cause?: { code?: string; message?: string } };
	const cause = e.cause?.code ?? e.cause?.message;
	return cause ? `${e.message}: ${cause}` : String(e.message ?? error);
}
