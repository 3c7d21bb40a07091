import type { INodePropertyOptions } from 'n8n-workflow';

/** The 19 webhook events the service documents. New ones may appear: never reject an unknown name. */
export const WEBHOOK_EVENTS = [
	'job.created',
	'job.updated',
	'job.status.updated',
	'job.deleted',
	'application.created',
	'application.stage.updated',
	'application.deleted',
	'candidate.updated',
	'candidate.note.created',
	'candidate.note.updated',
	'candidate.note.deleted',
	'candidate.tag.added',
	'candidate.tag.removed',
	'feedback.requested',
	'feedback.submitted',
	'feedback.updated',
	'interview.created',
	'interview.updated',
	'interview.cancelled',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What each event means, shown under its option in the editor. */
const EVENT_DESCRIPTIONS: Record<WebhookEvent, string> = {
	'job.created': 'A job was created',
	'job.updated': 'A job was changed',
	'job.status.updated': 'A job changed status (for example from drafted to published)',
	'job.deleted': 'A job was deleted',
	'application.created': 'A candidate applied to a job, or was added to one',
	'application.stage.updated': 'An application moved to another stage',
	'application.deleted': 'An application was deleted',
	'candidate.updated': "A candidate's details were changed",
	'candidate.note.created': 'A note was added to a candidate',
	'candidate.note.updated': "A candidate's note was changed",
	'candidate.note.deleted': "A candidate's note was deleted",
	'candidate.tag.added': 'A tag was added to a candidate',
	'candidate.tag.removed': 'A tag was removed from a candidate',
	'feedback.requested': 'Feedback on an application was requested from a reviewer',
	'feedback.submitted': 'A reviewer submitted feedback',
	'feedback.updated': 'Submitted feedback was changed',
	'interview.created': 'An interview was scheduled',
	'interview.updated': 'An interview was changed',
	'interview.cancelled': 'An interview was cancelled',
};

/** `application.stage.updated` → "Application Stage Updated". */
function eventDisplayName(event: string): string {
	return event
		.split('.')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

export const WEBHOOK_EVENT_OPTIONS: INodePropertyOptions[] = WEBHOOK_EVENTS.map((event) => ({
	name: eventDisplayName(event),
	value: event,
	description: EVENT_DESCRIPTIONS[event],
}));

/** How a 404 names a webhook (the action node's Webhook operations, the trigger): `The webhook "wh_1" was not found`. */
export const webhookLabel = (webhookId: string): string => `webhook "${webhookId}"`;

/** Lower-case letters, digits, `_` and `.`, starting with a letter: one character class, no nesting. */
const EVENT_CHARACTERS = /^[a-z][a-z0-9_.]*$/;

/**
 * `resource.action`, lower case (`^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+$`, the shape of every event the
 * service documents), checked as one character class plus plain string tests. Linear on any input:
 * the nested-group form kept a backtrack entry per dot and overflowed the stack on 8 MB.
 */
export function isEventName(name: string): boolean {
	return EVENT_CHARACTERS.test(name) && name.includes('.') && !name.includes('..') && !name.endsWith('.');
}
