import type { IDataObject } from 'n8n-workflow';
import { child } from './filters';
import { scalarText } from './text';
import { instantIn } from './validation';

/**
 * One key per event, computed alike by the Recruiting Trigger and the Recruiting Polling Trigger, so
 * that a workflow holding both can drop the second sighting of an event (n8n's Remove Duplicates on
 * `eventKey`). Both triggers see three events, keyed by what identifies the event itself: a new
 * application by the application; a completed feedback by the feedback and the second it was
 * completed (completed again is another event; whole seconds, as two copies of one time may differ
 * in their fractions); a stage change by the application and the stage it reached (a poll sees only
 * where an application stands, not each move on the way, so a return to a stage reached before has
 * the same key). Any other event, or one whose object lacks what its key needs, keeps its message
 * ID, which a delivery's retries share.
 */
export function eventKey(event: string | null, object: IDataObject | null, messageId: string): string {
	const id = scalarText(object?.id) ?? '';
	if (id === '') return messageId;
	if (event === 'application.created') return `${event}:${id}`;
	if (event === 'feedback.submitted') {
		const completed = scalarText(object?.date_complete);
		const time = completed === undefined ? Number.NaN : instantIn(completed, 'UTC');
		return Number.isFinite(time) ? `${event}:${id}@${Math.floor(time / 1000)}` : messageId;
	}
	if (event === 'application.stage.updated') {
		const parent = scalarText(child(object?.stage, 'parent_stage')) ?? '';
		const custom = child(object?.stage, 'custom_stage');
		// A custom stage by its ID, by its name where it has none (as the poll compares stages).
		const customStage = scalarText(child(custom, 'id')) || scalarText(child(custom, 'name')) || '';
		return parent === '' ? messageId : `${event}:${id}>${parent}|${customStage}`;
	}
	return messageId;
}
