import type { IDataObject } from 'n8n-workflow';
import { scalarText } from './text';

/**
 * The trigger's Job and Parent Stage filters. What an event carries, per the spec and the
 * service's payloads: an application names its job (`job.id`) and stage (`stage.parent_stage`); a
 * job event's object is the job; an interview names its job (`job_id`). Anything that names no
 * job (candidates, notes, feedback) or no stage (all but applications) passes.
 */

export interface DeliveryFilters {
	jobIds: ReadonlySet<string>;
	parentStages: ReadonlySet<string>;
}

/** What a field names, as text (ids may come as strings or numbers); undefined when it names nothing, empty included. */
const named = (value: unknown): string | undefined => scalarText(value) || undefined;

/** A field of an object the service sent; undefined when the value is not an object. */
export function child(value: unknown, key: string): unknown {
	return typeof value === 'object' && value !== null ? (value as IDataObject)[key] : undefined;
}

/** "job_1, job_2" or ["job_1", "job_2"] → the set of ids (spaces, commas and new lines separate). */
export function parseIdList(value: unknown): Set<string> {
	const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/[\s,]+/) : [];
	return new Set(parts.map((part) => part.trim()).filter((part) => part !== ''));
}

/** The job an event is about, if it names one. */
export function jobIdOf(event: string | null, object: IDataObject | null): string | undefined {
	if (!object) return undefined;
	if (event?.startsWith('job.')) return named(object.id);
	// `job` is an object with an id, or (in some payloads) the id itself.
	return named(child(object.job, 'id')) ?? named(object.job) ?? named(object.job_id);
}

/** The parent stage of an application event, if it names one. */
export function parentStageOf(event: string | null, object: IDataObject | null): string | undefined {
	if (!object || !event?.startsWith('application.')) return undefined;
	return named(child(object.stage, 'parent_stage'));
}

/** Why a delivery is filtered out, or undefined when it passes. */
export function filteredOut(
	filters: DeliveryFilters,
	event: string | null,
	object: IDataObject | null,
): string | undefined {
	if (filters.jobIds.size > 0) {
		const jobId = jobIdOf(event, object);
		if (jobId !== undefined && !filters.jobIds.has(jobId)) return `job "${jobId}" is not in Job IDs`;
	}
	if (filters.parentStages.size > 0) {
		const stage = parentStageOf(event, object);
		if (stage !== undefined && !filters.parentStages.has(stage)) {
			return `parent stage "${stage}" is not in Parent Stages`;
		}
	}
	return undefined;
}
