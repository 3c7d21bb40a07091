/**
 * Webhook deliveries, signed per Standard Webhooks by the `standardwebhooks` package itself.
 * Envelope: { id, version: 1, type, timestamp, data: { object } } (shape 'flat': data = the resource).
 *
 * An event's delivery that fails (no answer, or not 2xx) is sent again after each delay of the retry
 * schedule in turn, as the service does: the same `webhook-id` and body, signed anew at each attempt,
 * to the webhook's endpoint of that moment; after the last delay it gives up. A delivery asked for
 * on demand (`deliver`) is tried once.
 */
import { randomBytes } from 'crypto';
import { Webhook as Signer } from 'standardwebhooks';
import { notFound } from './problems';
import type { Webhook } from './resources';
import type { CollectionTypes, Store } from './store';
import type { DeliverInput, DeliveryRecord } from './types';

const TIMEOUT_MS = 10_000;

/** The delays between attempts (Standard Webhooks' reference schedule): about a day in all. */
export const SERVICE_RETRY_DELAYS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Which seeded resource a manual delivery sends when no object is given: by event prefix. */
const SAMPLE_SOURCES: Array<[string, keyof CollectionTypes]> = [
	['candidate.note.', 'candidateNotes'],
	['candidate.', 'candidates'],
	['application.', 'applications'],
	['job.', 'jobs'],
	['feedback.', 'feedback'],
	['interview.', 'interviews'],
];

interface Attempt {
	webhookId: string;
	event: string;
	msgId: string;
	body: string;
	/** 1 for the first; the schedule's delays still to wait, one per retry. */
	number: number;
	delaysLeft: readonly number[];
}

export class Deliveries {
	readonly records: DeliveryRecord[] = [];
	private readonly inFlight = new Set<Promise<DeliveryRecord>>();
	/** Retries waiting for their time, each with the attempt it will make. */
	private readonly waiting = new Map<ReturnType<typeof setTimeout>, Attempt>();
	private abort = new AbortController();

	constructor(
		private readonly store: Store,
		private retryDelaysMs: readonly number[] = SERVICE_RETRY_DELAYS_MS,
	) {}

	/** The delays between attempts of the deliveries sent from now on ([] = no retry). */
	get retrySchedule(): readonly number[] {
		return this.retryDelaysMs;
	}

	set retrySchedule(delaysMs: readonly number[]) {
		this.retryDelaysMs = [...delaysMs];
	}

	/** How many retries are waiting for their time. */
	get retriesWaiting(): number {
		return this.waiting.size;
	}

	/** Fires `event` at every enabled webhook subscribed to it, without waiting; failures are retried. */
	emit(event: string, object: object): void {
		for (const webhook of this.store.values('webhooks')) {
			if (webhook.status === 'enabled' && webhook.subscribed_events?.includes(event)) {
				void this.attempt(webhook, this.firstAttempt(webhook, event, object, 'object', this.retryDelaysMs));
			}
		}
	}

	/** Makes every waiting retry now (a test's way to have one land at a moment it chooses); how many were sent. */
	retryNow(): number {
		const due = [...this.waiting];
		this.waiting.clear();
		let sent = 0;
		for (const [timer, attempt] of due) {
			clearTimeout(timer);
			if (this.retry(attempt)) sent += 1;
		}
		return sent;
	}

	/** A delivery on demand; resolves with its record once the receiver answered. */
	deliver(input: DeliverInput): Promise<DeliveryRecord> {
		const webhook = this.store.get('webhooks', input.webhookId);
		if (!webhook) throw notFound('Webhook', input.webhookId);
		return this.attempt(webhook, this.firstAttempt(webhook, input.event, input.object ?? this.sample(input.event), input.shape ?? 'object', []));
	}

	/** Resolves once every delivery started so far has finished. */
	async settle(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
	}

	/** Abandons what is still in flight or waiting: it is aborted and will not be recorded. */
	abandon(): void {
		for (const timer of this.waiting.keys()) clearTimeout(timer);
		this.waiting.clear();
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

	private firstAttempt(webhook: Webhook, event: string, object: object, shape: 'object' | 'flat', delaysMs: readonly number[]): Attempt {
		const msgId = `msg_${randomBytes(16).toString('base64url')}`;
		const body = JSON.stringify({
			id: msgId,
			version: 1,
			type: event,
			timestamp: new Date().toISOString(),
			data: shape === 'flat' ? object : { object },
		});
		return { webhookId: webhook.id, event, msgId, body, number: 1, delaysLeft: delaysMs };
	}

	/** The next attempt, to the webhook as it is now; none (false) when it was deleted or disabled meanwhile. */
	private retry(attempt: Attempt): boolean {
		const webhook = this.store.get('webhooks', attempt.webhookId);
		if (webhook?.status !== 'enabled') return false;
		void this.attempt(webhook, attempt);
		return true;
	}

	private attempt(webhook: Webhook, attempt: Attempt): Promise<DeliveryRecord> {
		const abort = this.abort;
		const date = new Date();
		const record: DeliveryRecord = {
			webhookId: webhook.id,
			event: attempt.event,
			msgId: attempt.msgId,
			endpoint: webhook.endpoint,
			status: null,
			body: attempt.body,
			headers: {
				'content-type': 'application/json',
				'webhook-id': attempt.msgId,
				'webhook-timestamp': String(Math.floor(date.getTime() / 1000)),
			},
			attempt: attempt.number,
		};
		const run = async (): Promise<DeliveryRecord> => {
			try {
				record.headers['webhook-signature'] = new Signer(webhook.signing_key).sign(attempt.msgId, date, attempt.body);
				const response = await fetch(webhook.endpoint, {
					method: 'POST',
					headers: record.headers,
					body: attempt.body,
					redirect: 'manual',
					signal: AbortSignal.any([abort.signal, AbortSignal.timeout(TIMEOUT_MS)]),
				});
				record.status = response.status;
				await response.arrayBuffer();
			} catch (error) {
				record.error = describe(error);
			}
			if (abort.signal.aborted) return record;
			const failed = record.status === null || record.status < 200 || record.status > 299;
			if (failed) record.retryInMs = attempt.delaysLeft[0] ?? null;
			this.records.push(record);
			if (failed && attempt.delaysLeft.length > 0) {
				const next: Attempt = { ...attempt, number: attempt.number + 1, delaysLeft: attempt.delaysLeft.slice(1) };
				const timer = setTimeout(() => {
					this.waiting.delete(timer);
					this.retry(next);
				}, attempt.delaysLeft[0]);
				// A waiting retry does not keep a test's process alive.
				timer.unref();
				this.waiting.set(timer, next);
			}
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
