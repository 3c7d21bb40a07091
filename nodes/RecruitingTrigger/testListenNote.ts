/**
 * What a "Listen for test event" replaced, written at the end of the webhook's own description
 * while the listen holds it.
 *
 * Why there: n8n keeps a test listen's static data only in memory (its registration), never in
 * the database. If n8n restarts during a listen, no hook runs to put the webhook back, and
 * without this note the dashboard's endpoint and events would be known nowhere. The webhook
 * itself is the one store that survives the restart; the note is readable in the dashboard too,
 * which tells a person why the webhook points at n8n. A normal end of the listen puts the
 * description back exactly.
 */

import { isEventName } from '../shared/events';
import { isHttpUrl } from '../shared/validation';

export interface TestListenNote {
	/** The dashboard's endpoint and events before the listen. */
	endpoint: string;
	events: string[];
	/** When the listen began (ISO 8601), for the person reading the dashboard. */
	since: string;
}

const OPENING = '[n8n: "Listen for test event" holds this webhook and puts back when it ends: ';
const CLOSING = ']';
/** Between the user's description and the note, so the dashboard shows it on its own. */
const SEPARATOR = '\n\n';
/** The service's events are a few dozen; more than this is not a note of ours. */
const MAX_EVENTS = 100;

/** The description with the note added at its end. */
export function withTestListenNote(description: string | undefined, note: TestListenNote): string {
	const text = `${OPENING}${JSON.stringify({ endpoint: note.endpoint, events: note.events, since: note.since })}${CLOSING}`;
	return description ? `${description}${SEPARATOR}${text}` : text;
}

/**
 * The note at the end of a description, and the description without it; undefined when there is
 * no well-formed note (anything else is the user's text and stays as it is).
 */
export function readTestListenNote(
	description: string | undefined,
): { note: TestListenNote; description: string } | undefined {
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
	const { endpoint, events, since } = parsed as Record<string, unknown>;
	// Only what the service would accept back: a hand-edited note must not make every later
	// deactivation fail on a PUT the service refuses.
	if (typeof endpoint !== 'string' || !isHttpUrl(endpoint) || typeof since !== 'string') return undefined;
	if (
		!Array.isArray(events) ||
		events.length > MAX_EVENTS ||
		!events.every((e) => typeof e === 'string' && isEventName(e))
	) {
		return undefined;
	}
	const before = description.slice(0, at);
	return {
		note: { endpoint, events: [...(events as string[])], since },
		description: before.endsWith(SEPARATOR) ? before.slice(0, -SEPARATOR.length) : before,
	};
}
