/**
 * What the trigger replaced, written at the end of the webhook's own description while it holds
 * the webhook (activation or "Listen for test event"), and taken out again when it puts it back.
 *
 * Why there: the static data that remembers the original is not always kept. n8n keeps a test
 * listen's only in memory, so a restart during a listen loses it; n8n 1.x clears the webhooks of
 * an activation that failed on another node with the static data saved before it, so this node's
 * snapshot is lost although its webhook was already re-pointed. The webhook itself is the one
 * store that survives both; the note is readable in the dashboard too, which tells a person why
 * the webhook points at n8n and where it belongs.
 */
import { isEventName } from '../shared/events';
import { isHttpUrl } from '../shared/validation';

export interface BorrowNote {
	/** The dashboard's endpoint and events before n8n took the webhook. */
	endpoint: string;
	events: string[];
	/** The n8n URL the note was written for: only that node trusts it. */
	holder: string;
	/** When n8n took the webhook (ISO 8601), for the person reading the dashboard. */
	since: string;
	/**
	 * The name of the workflow that holds it, when n8n told the node: another workflow refused the
	 * webhook names it (a node cannot look up another workflow otherwise). Absent in older notes.
	 */
	workflow?: string;
}

const OPENING = '[n8n holds this webhook and puts back when done: ';
const CLOSING = ']';
/** Between the user's description and the note, so the dashboard shows it on its own. */
const SEPARATOR = '\n\n';
/** The service's events are a few dozen; more than this is not a note of ours. */
const MAX_EVENTS = 100;
/** n8n limits workflow names to 128 characters; a longer one is cut (it only names, never decides). */
const MAX_WORKFLOW_NAME = 128;

/** The description with the note added at its end. */
export function withBorrowNote(description: string | undefined, note: BorrowNote): string {
	const { endpoint, events, holder, since, workflow } = note;
	const named = workflow ? { workflow: workflow.slice(0, MAX_WORKFLOW_NAME) } : {};
	const text = `${OPENING}${JSON.stringify({ endpoint, events, holder, since, ...named })}${CLOSING}`;
	return description ? `${description}${SEPARATOR}${text}` : text;
}

/**
 * The note at the end of a description, and the description without it; undefined when there is
 * no well-formed note (anything else is the user's text and stays as it is).
 */
export function readBorrowNote(description: string | undefined): { note: BorrowNote; description: string } | undefined {
	if (!description || !description.endsWith(CLOSING)) return undefined;
	const at = description.lastIndexOf(OPENING);
	if (at < 0) return undefined;
	let parsed: unknown;
	try {
		parsed = JSON.parse(description.slice(at + OPENING.length, -CLOSING.length));
	} catch {
		return undefined;
	}
	if (!parsed || typeof parsed !== 'object') return undefined;
	const { endpoint, events, holder, since, workflow } = parsed as Record<string, unknown>;
	// Only what the service would accept back: a hand-edited note must not make every later
	// deactivation fail on a PUT the service refuses.
	if (typeof endpoint !== 'string' || !isHttpUrl(endpoint)) return undefined;
	if (typeof holder !== 'string' || !isHttpUrl(holder) || typeof since !== 'string') return undefined;
	if (
		!Array.isArray(events) ||
		events.length > MAX_EVENTS ||
		!events.every((e) => typeof e === 'string' && isEventName(e))
	) {
		return undefined;
	}
	const before = description.slice(0, at);
	// The name only informs a refusal: a malformed one is dropped, the note still counts.
	const named = typeof workflow === 'string' && workflow !== '' ? { workflow: workflow.slice(0, MAX_WORKFLOW_NAME) } : {};
	return {
		note: { endpoint, events: [...(events as string[])], holder, since, ...named },
		description: before.endsWith(SEPARATOR) ? before.slice(0, -SEPARATOR.length) : before,
	};
}
