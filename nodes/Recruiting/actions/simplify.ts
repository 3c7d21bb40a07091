import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { isToolMode } from './asTool';

/**
 * Simplify (on by default from node version 1.1, as n8n's guidelines ask for resources of more
 * than ten fields): one flat item of the fields people use, instead of the service's nested
 * resource. Version 1 nodes have no such option and keep the full resource.
 */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	// As an AI agent's tool the Output option takes its place.
	displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] }, hide: { '@tool': [true] } },
};

export function isSimplified(this: IExecuteFunctions, itemIndex: number): boolean {
	// A tool shapes its records by its Output option instead (toolMode.ts).
	if (isToolMode.call(this)) return false;
	return this.getNodeParameter('simplify', itemIndex, false) === true;
}

/**
 * Output field → where it is in the resource. `each`: the list at `path`, as that field of every
 * entry, comma-separated (tag names, attendee names); `list`: the list as it is; `of`: a value
 * computed from the whole resource.
 */
type Field = { path: string[]; each?: string; list?: true } | { of: (resource: IDataObject) => unknown };
type FieldMap = Record<string, Field>;

const at = (...path: string[]) => ({ path });
const names = (...path: string[]) => ({ path, each: 'name' });

const APPLICATION: FieldMap = {
	id: at('id'),
	applied_at: at('applied_at'),
	candidate_id: at('candidate', 'id'),
	candidate_name: at('candidate', 'full_name'),
	candidate_email: at('candidate', 'email'),
	candidate_phone: at('candidate', 'phone_number'),
	candidate_tags: names('candidate', 'tags'),
	job_id: at('job', 'id'),
	job_title: at('job', 'title'),
	stage: at('stage', 'custom_stage', 'name'),
	parent_stage: at('stage', 'parent_stage'),
	source: at('source', 'source'),
	potential_duplicate: at('potential_duplicate'),
};

const CANDIDATE: FieldMap = {
	id: at('id'),
	full_name: at('full_name'),
	first_name: at('first_name'),
	last_name: at('last_name'),
	email: at('email'),
	phone_number: at('phone_number'),
	title: at('title'),
	company: at('company'),
	address: at('location', 'address'),
	country: at('location', 'country', 'name'),
	rating: at('rating'),
	tags: names('tags'),
	application_ids: { path: ['application_ids'], list: true },
};

const JOB: FieldMap = {
	id: at('id'),
	title: at('title'),
	status: at('status'),
	type: at('type'),
	experience: at('experience'),
	city: at('location', 'city'),
	country: at('location', 'country', 'name'),
	remote: at('location', 'remote'),
	category: at('category', 'name'),
	owner_id: at('owner_id'),
	job_code: at('job_code'),
	created_date: at('created_date'),
	published_date: at('published_date'),
	apply_url: at('apply_url'),
	tags: names('tags'),
};

function lookup(resource: IDataObject, path: string[]): unknown {
	let value: unknown = resource;
	for (const key of path) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

const scalar = (value: unknown): string | number | boolean | null =>
	typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;

/** One field of every object in a list, comma-separated, leaving out empty ones. */
function joinEach(value: unknown, key: string): string {
	if (!Array.isArray(value)) return '';
	return value
		.map((entry) => (typeof entry === 'object' && entry !== null ? String((entry as IDataObject)[key] ?? '') : ''))
		.filter((text) => text !== '')
		.join(', ');
}

/** Every field of the map, always present: a value, `null` when absent, joined names or a list. */
function flatten(resource: IDataObject, fields: FieldMap): IDataObject {
	const out: IDataObject = {};
	for (const [name, field] of Object.entries(fields)) {
		if ('of' in field) {
			out[name] = field.of(resource) as IDataObject[keyof IDataObject];
			continue;
		}
		const value = lookup(resource, field.path);
		if (field.each) out[name] = joinEach(value, field.each);
		else if (field.list) out[name] = Array.isArray(value) ? (value as IDataObject[]) : [];
		else out[name] = scalar(value);
	}
	return out;
}

export const simplifyApplication = (application: IDataObject): IDataObject => flatten(application, APPLICATION);
export const simplifyCandidate = (candidate: IDataObject): IDataObject => flatten(candidate, CANDIDATE);
export const simplifyJob = (job: IDataObject): IDataObject => flatten(job, JOB);

/*
 * The records an AI agent's tool hands a model (Output: Simplified): at most ten flat fields each,
 * `id` first, as n8n's guidelines cap Simplify. Applications, candidates and jobs keep ten of
 * Simplify's fields; the rest are small already. A webhook's signing key is never among them.
 */

/** Some fields of a Simplify map, by name, in the order given. */
function pick(fields: FieldMap, names: string[]): FieldMap {
	return Object.fromEntries(names.map((name) => [name, fields[name]]));
}

const TOOL_APPLICATION = pick(APPLICATION, [
	'id',
	'applied_at',
	'candidate_id',
	'candidate_name',
	'candidate_email',
	'job_id',
	'job_title',
	'stage',
	'parent_stage',
	'source',
]);

const TOOL_CANDIDATE = pick(CANDIDATE, [
	'id',
	'full_name',
	'email',
	'phone_number',
	'title',
	'company',
	'country',
	'rating',
	'tags',
	'application_ids',
]);

const TOOL_JOB = pick(JOB, ['id', 'title', 'status', 'type', 'city', 'country', 'remote', 'category', 'owner_id', 'tags']);

const NOTE: FieldMap = {
	id: at('id'),
	date_created: at('date_created'),
	text: at('text'),
	creator_name: at('creator', 'name'),
	restricted: at('restricted'),
	mentioned_users: { path: ['mentioned_users'], list: true },
	file_names: { path: ['files'], each: 'name' },
};

const TAG: FieldMap = { id: at('id'), name: at('name'), type: at('type'), status: at('status') };

const EMAIL_TEMPLATE: FieldMap = {
	id: at('id'),
	name: at('name'),
	subject: at('subject'),
	stage: at('stage'),
	language: at('language', 'code'),
	private: at('private'),
};

const USER_CATEGORY: FieldMap = { id: at('id'), name: at('name') };

/** A user without the permission and reviewer lists: who they are, and their role. */
const USER: FieldMap = {
	id: at('id'),
	first_name: at('first_name'),
	last_name: at('last_name'),
	email: at('email'),
	type: at('type'),
	category: at('category', 'name'),
};

/** An application's source, as Application → Update Source returns it. */
const SOURCE: FieldMap = {
	origin: at('origin'),
	source: at('source'),
	contact_name: at('contact', 'name'),
	user_id: at('user', 'id'),
	user_name: at('user', 'name'),
	recruiter_name: at('recruiter', 'name'),
};

const WEBHOOK: FieldMap = {
	id: at('id'),
	name: at('name'),
	description: at('description'),
	endpoint: at('endpoint'),
	status: at('status'),
	subscribed_events: { path: ['subscribed_events'], list: true },
};

/** A feedback answer as one line of text: its text, the options chosen, or the ratings. */
function answerText(question: IDataObject): string {
	const answer = (question.answer ?? {}) as IDataObject;
	const optionLabel = (id: unknown): string => {
		const option = ((question.options ?? []) as IDataObject[]).find((entry) => entry?.id === id);
		return String(option?.label ?? id ?? '');
	};
	const parts: string[] = [];
	if (typeof answer.text === 'string' && answer.text !== '') parts.push(answer.text);
	if (answer.selected_option) parts.push(optionLabel(answer.selected_option));
	if (Array.isArray(answer.selected_options)) parts.push(...answer.selected_options.map(optionLabel));
	if (Array.isArray(answer.ratings)) {
		for (const rating of answer.ratings as IDataObject[]) parts.push(`${optionLabel(rating?.option_id)}: ${rating?.rating}`);
	}
	return parts.join('; ');
}

const FEEDBACK: FieldMap = {
	id: at('id'),
	name: at('name'),
	status: at('status'),
	application_id: at('application_id'),
	form_id: at('form_id'),
	candidate_name: at('candidate', 'name'),
	reviewer_name: at('reviewer', 'name'),
	date_created: at('date_created'),
	date_complete: at('date_complete'),
	answers: {
		of: (feedback) =>
			(Array.isArray(feedback.questions) ? (feedback.questions as IDataObject[]) : [])
				.filter((question) => typeof question === 'object' && question !== null && question.type !== 'header')
				.map((question) => ({ question_id: scalar(question.id), question: scalar(question.question), answer: answerText(question) })),
	},
};

const INTERVIEW: FieldMap = {
	id: at('id'),
	title: at('event', 'title'),
	type: at('event', 'type'),
	status: at('event', 'status'),
	start: at('event', 'start'),
	end: at('event', 'end'),
	time_zone: at('event', 'time_zone'),
	attendees: { path: ['event', 'attendees'], each: 'display_name' },
	meeting_url: at('meta', 'meeting_url'),
	application_id: at('application_id'),
};

const TOOL_SHAPES = {
	application: TOOL_APPLICATION,
	candidate: TOOL_CANDIDATE,
	job: TOOL_JOB,
	note: NOTE,
	tag: TAG,
	emailTemplate: EMAIL_TEMPLATE,
	userCategory: USER_CATEGORY,
	user: USER,
	source: SOURCE,
	webhook: WEBHOOK,
	feedback: FEEDBACK,
	interview: INTERVIEW,
} satisfies Record<string, FieldMap>;

/** The kinds of record an operation can output, each with its simplified shape for a model. */
export type ToolShape = keyof typeof TOOL_SHAPES;

export const simplifyForTool = (record: IDataObject, shape: ToolShape): IDataObject => flatten(record, TOOL_SHAPES[shape]);
