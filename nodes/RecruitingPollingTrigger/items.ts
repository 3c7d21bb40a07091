import type { IDataObject } from 'n8n-workflow';
import { eventKey } from '../shared/eventKey';
import { scalarText } from '../shared/text';
import { instantIn } from '../shared/validation';

/** The events this trigger can find by reading lists; the first three are the webhook's own names. */
export const POLL_EVENTS = ['application.created', 'application.stage.updated', 'feedback.submitted', 'job.note.created'] as const;
export type PollEvent = (typeof POLL_EVENTS)[number];

/**
 * One found event, shaped as the Recruiting Trigger's item for the same event. `messageId` is the
 * poller's own (`poll:` + event + `change`: the same for the same event found twice); `eventKey` is
 * the one both triggers give the same event. Stage changes add `previousStage`; job notes add `jobId`.
 */
export function pollItem(event: PollEvent, timestamp: string, change: string, object: IDataObject, extra: IDataObject = {}): IDataObject {
	const messageId = `poll:${event}:${change}`;
	return { event, timestamp, messageId, eventKey: eventKey(event, object, messageId), deliveryId: null, object, ...extra };
}

/** A service date-time as ms since 1970, or undefined; without an offset it is UTC (never n8n's zone). */
export const timeOf = (value: unknown): number | undefined => (typeof value === 'string' && Number.isFinite(instantIn(value, 'UTC')) ? instantIn(value, 'UTC') : undefined);

/** What the service's JSON holds as text; '' for anything else. */
export const text = (value: unknown): string => scalarText(value) ?? '';
