/**
 * The 18 endpoints of recruiting-api.md, and the endpoints of the service's full API that
 * service-facts.md lists (users, one application, its source, note creation, the feedback list and
 * completion; marked `fullApi`), as one route table under /v1.0/{company_id}.
 *
 * Success codes (the spec leaves all but the first open; chosen here):
 *   POST /interviews 201 { data }, POST /jobs 201 { data }, every GET and every PUT with a body 200 { data }
 *   or a list envelope, DELETE /jobs/{id} 204, DELETE /forms/application/{id} 204,
 *   POST /candidates/{id}/tags 204, PUT /interviews/{id}/cancel 204 (all without a body);
 *   POST /candidates/{id}/notes 201 { data }, POST /feedback 201 { data }.
 */
import { Envelope, ListRequest, paginate, readPaging } from './paging';
import { FieldErrors, notFound, throwIfErrors, validationProblem } from './problems';
import type { Answer, Application, ApplicationForm, Attendee, Candidate, Feedback, FileObject, Interview, Job, Note, User, Webhook } from './resources';
import type { RouteSpec } from './router';
import {
	APPLICATION_SORTS,
	FEEDBACK_SORTS,
	candidateUpdate,
	feedbackComplete,
	feedbackUpdate,
	interviewCreate,
	jobCreate,
	noteCreate,
	noteUpdate,
	PARENT_STAGES,
	sourceUpdate,
	tagAdd,
	WebhookEvent,
	webhookUpdate,
} from './schemas';
import { API_USER, SEED_USERS } from './seed';
import type { CollectionTypes, Store } from './store';
import { isPlainObject, Json, obj, oneOf, validate } from './validation';

export interface ApiContext {
	params: Record<string, string>;
	query: Record<string, string>;
	/** Parsed JSON body; raw text when it was not JSON; undefined when empty. */
	body: unknown;
	store: Store;
	companyId: string;
	list: ListRequest;
	emit(event: WebhookEvent, object: object): void;
	/** Records a contract violation the service lets pass (see Violation in types.ts). */
	violation(problem: string): void;
}

/** The fields of a tag reference in a write (recruiting-api.md: `tags` array of { id, name }). */
const TAG_REFERENCE_FIELDS = new Set(['id', 'name']);

/**
 * A write's tags may hold only `id` and `name`: the service drops any other field (a tag's
 * color, type or status as a GET returns them), so it answers as if nothing were wrong. Each
 * such field is recorded as a violation.
 */
function checkTagReferences(ctx: ApiContext): void {
	const tags = isPlainObject(ctx.body) ? ctx.body.tags : undefined;
	if (!Array.isArray(tags)) return;
	tags.forEach((tag, index) => {
		if (!isPlainObject(tag)) return;
		for (const field of Object.keys(tag)) {
			if (!TAG_REFERENCE_FIELDS.has(field)) ctx.violation(`tags[${index}].${field}: a tag in a write is { id, name }`);
		}
	});
}

export interface Reply {
	status: number;
	body?: unknown;
}

export interface ApiRoute extends RouteSpec {
	handle(ctx: ApiContext): Reply;
	/** An endpoint of the service's full API, not of the 18-endpoint spec: absent from a spec-only sandbox. */
	fullApi?: true;
}

const data = (status: number, value: unknown): Reply => ({ status, body: { data: value } });
const NO_CONTENT: Reply = { status: 204 };

/** The record, or a 404 problem naming the id (`Job 'job_x' was not found.`). */
function find<C extends keyof CollectionTypes>(store: Store, collection: C, kind: string, id: string): CollectionTypes[C] {
	const record = store.get(collection, id);
	if (!record) throw notFound(kind, id);
	return record;
}

/** Plain objects merge key by key; anything else (arrays included) replaces. */
function mergeDeep<T>(target: T, patch: Json): T {
	const out: Json = { ...(target as Json) };
	for (const [key, value] of Object.entries(patch)) {
		out[key] = isPlainObject(value) && isPlainObject(out[key]) ? mergeDeep(out[key], value) : value;
	}
	return out as T;
}

/** Writes a changed record, emits its event with the API view, and answers with that view. */
function save<C extends keyof CollectionTypes>(
	ctx: ApiContext,
	collection: C,
	record: CollectionTypes[C],
	event: WebhookEvent | undefined,
	status = 200,
): Reply {
	ctx.store.put(collection, record);
	const view = ctx.store.view(collection, record);
	if (event) ctx.emit(event, view);
	return data(status, view);
}

function blankJob(id: string, ctx: ApiContext, now: string): Job {
	return {
		id,
		title: '',
		description: '',
		owner_id: SEED_USERS[0].id,
		status: 'drafted',
		type: 'full_time',
		experience: 'na',
		salary: '',
		job_code: '',
		created_date: now,
		published_date: null,
		apply_url: `https://apply.example.invalid/${encodeURIComponent(ctx.companyId)}/jobs/${id}`,
		category: { id: '', name: '' },
		language: { id: 'lang_en', name: 'English', code: 'en' },
		location: {
			city: '',
			state: { id: '', name: '', code: '' },
			country: { id: '', name: '', code: '' },
			remote: 'not_remote',
		},
		deadline: { closes_at: null, auto_close: false },
		assigned_team: { assigned_users: [], recruiter_ids: [] },
		notifications: { new_application_email: [] },
		application_form: { base_form: {}, additional_form_ids: [] },
		auto_responder: { id: '', email_subject: '', email_body: '' },
		tags: [],
		job_ads: [],
	};
}

/** User IDs a body names (`assigned_team.recruiter_ids[0]` → the ID), each checked against the users. */
function checkUserIds(store: Store, ids: unknown, path: string, errors: FieldErrors, orEmail = false): void {
	if (!Array.isArray(ids)) return;
	ids.forEach((id, i) => {
		if (typeof id !== 'string' || store.get('users', id) || (orEmail && id.includes('@'))) return;
		errors[`${path}[${i}]`] = [`User '${id}' was not found${orEmail ? ' (and it is not an e-mail address)' : ''}.`];
	});
}

function createJob(ctx: ApiContext): Reply {
	const input = validate(jobCreate, ctx.body);
	checkTagReferences(ctx);
	const team = input.assigned_team as Partial<Job['assigned_team']> | undefined;
	const notifications = input.notifications as Partial<Job['notifications']> | undefined;
	const errors: FieldErrors = {};
	checkUserIds(ctx.store, team?.assigned_users, 'assigned_team.assigned_users', errors);
	checkUserIds(ctx.store, team?.recruiter_ids, 'assigned_team.recruiter_ids', errors);
	// The reference calls the list an e-mail list and the seed holds addresses: users or addresses pass.
	checkUserIds(ctx.store, notifications?.new_application_email, 'notifications.new_application_email', errors, true);
	throwIfErrors(errors);
	const now = new Date().toISOString();
	const job = mergeDeep(blankJob(ctx.store.newId('jobs', 'job'), ctx, now), input);
	if (job.status === 'published') job.published_date = now;
	return save(ctx, 'jobs', job, 'job.created', 201);
}

/** One list answer: paging checked together with any filter checks, then one page of the list. */
function listReply<T>(
	ctx: ApiContext,
	select: (errors: FieldErrors) => { list: readonly T[]; descending?: boolean; view?: (item: T) => unknown },
): Reply {
	const errors: FieldErrors = {};
	const paging = readPaging(ctx.query, errors);
	const selection = select(errors);
	throwIfErrors(errors);
	const body: Envelope = paginate(selection.list, paging, ctx.list, selection);
	return { status: 200, body };
}

const listAll = (collection: keyof CollectionTypes) => (ctx: ApiContext) =>
	listReply(ctx, () => ({ list: ctx.store.values(collection) }));

function listJobNotes(ctx: ApiContext): Reply {
	const job = find(ctx.store, 'jobs', 'Job', ctx.params.job_id);
	const byJob = ctx.store.memo('jobNotes:byJob', ['jobNotes'], () =>
		groupBy(sortBy(ctx.store.values('jobNotes'), (n) => n.date_created), (n) => n.job_id),
	);
	return listReply(ctx, () => ({ list: byJob.get(job.id) ?? [], view: (n: Note) => ctx.store.view('jobNotes', n) }));
}

/** Applications filters (our documented names) and what each one compares. */
const APPLICATION_FILTERS: ReadonlyArray<{
	name: string;
	key: (a: Application, store: Store) => string | undefined;
	dependsOnJobs?: boolean;
}> = [
	{ name: 'candidate_id', key: (a) => a.candidate?.id },
	{ name: 'job_id', key: (a) => a.job?.id },
	{ name: 'parent_stage', key: (a) => a.stage?.parent_stage },
	{ name: 'custom_pipeline_id', key: (a, store) => store.get('jobs', a.job?.id)?.custom_pipeline_id, dependsOnJobs: true },
];
const applicationQuery = obj({ parent_stage: oneOf(PARENT_STAGES), sort: oneOf(APPLICATION_SORTS) });

/**
 * Applications by applied_at, then id: sorted once per change of the collection (the server warms it
 * after seeding); the filters use memoised groups in that order, so a page costs O(page size).
 */
export function sortedApplications(store: Store): readonly Application[] {
	return store.memo('applications:sorted', ['applications'], () =>
		sortBy(store.values('applications'), (a) => Date.parse(a.applied_at) || 0),
	);
}

function listApplications(ctx: ApiContext): Reply {
	const { store, query } = ctx;
	return listReply(ctx, (errors) => {
		applicationQuery.parse(query, '', errors);
		const sorted = sortedApplications(store);
		const active = APPLICATION_FILTERS.filter((f) => query[f.name] !== undefined);
		const candidates = active.map((f) =>
			store
				.memo(`applications:by:${f.name}`, f.dependsOnJobs ? ['applications', 'jobs'] : ['applications'], () =>
					groupBy(sorted, (a) => f.key(a, store)),
				)
				.get(query[f.name]) ?? [],
		);
		const smallest = candidates.reduce<readonly Application[]>((a, b) => (b.length < a.length ? b : a), sorted);
		const list = active.length > 1 ? smallest.filter((a) => active.every((f) => f.key(a, store) === query[f.name])) : smallest;
		return { list, descending: query.sort === '-applied_at', view: (a: Application) => liveCandidate(store, a) };
	});
}

/** Applications embed the candidate as it is now. */
function liveCandidate(store: Store, app: Application): Application {
	const candidate = store.get('candidates', app.candidate?.id);
	return !candidate || candidate === app.candidate ? app : { ...app, candidate };
}

function sortBy<T extends { id: string }>(items: readonly T[], key: (item: T) => string | number): T[] {
	return items
		.map((item) => ({ item, k: key(item) }))
		.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0))
		.map((e) => e.item);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const item of items) {
		const k = key(item);
		if (k === undefined) continue;
		const group = groups.get(k);
		if (group) group.push(item);
		else groups.set(k, [item]);
	}
	return groups;
}

const PROFILE_TYPES: Array<[RegExp, string]> = [
	[/linkedin\.com/i, 'linked_in'],
	[/github\.com/i, 'github'],
	[/(twitter|x)\.com/i, 'twitter'],
	[/facebook\.com/i, 'facebook'],
];

function updateCandidate(ctx: ApiContext): Reply {
	const candidate = find(ctx.store, 'candidates', 'Candidate', ctx.params.candidate_id);
	const patch = validate(candidateUpdate, ctx.body);
	checkTagReferences(ctx);
	const updated = mergeDeep(candidate, patch);
	if (patch.social_profiles) {
		updated.social_profiles = (patch.social_profiles as Array<{ uri: string }>).map(({ uri }) => ({
			type: PROFILE_TYPES.find(([re]) => re.test(uri))?.[1] ?? 'other',
			uri,
		}));
	}
	updated.full_name = `${updated.first_name ?? ''} ${updated.last_name ?? ''}`.trim();
	return save(ctx, 'candidates', updated, 'candidate.updated');
}

function updateCandidateNote(ctx: ApiContext): Reply {
	const candidate = find(ctx.store, 'candidates', 'Candidate', ctx.params.candidate_id);
	const note = ctx.store.get('candidateNotes', ctx.params.note_id);
	if (!note || note.candidate_id !== candidate.id) {
		throw notFound('Note', ctx.params.note_id);
	}
	const patch = validate(noteUpdate, ctx.body);
	const updated = mergeDeep(note, patch);
	if (patch.files) {
		const previous = new Map((note.files ?? []).map((f) => [f.id, f]));
		updated.files = (patch.files as Array<Omit<FileObject, 'type'>>).map((f) => ({
			...f,
			type: previous.get(f.id)?.type ?? 'inbound_email_attachment',
		}));
	}
	return save(ctx, 'candidateNotes', updated, 'candidate.note.updated');
}

function addCandidateTag(ctx: ApiContext): Reply {
	const candidate = find(ctx.store, 'candidates', 'Candidate', ctx.params.candidate_id);
	const { id } = validate<{ id: string }>(tagAdd, ctx.body);
	const tag = ctx.store.get('tags', id);
	if (!tag) throw validationProblem({ id: [`Tag '${id}' was not found.`] });
	const tags = candidate.tags ?? [];
	if (!tags.some((t) => t.id === tag.id)) {
		save(ctx, 'candidates', { ...candidate, tags: [...tags, { id: tag.id, name: tag.name }] }, 'candidate.tag.added');
	}
	return NO_CONTENT;
}

function updateFeedback(ctx: ApiContext): Reply {
	const feedback = find(ctx.store, 'feedback', 'Feedback', ctx.params.feedback_id);
	const { answers, feedback_id, ...fields } = validate<{ answers?: Answer[]; feedback_id?: string }>(feedbackUpdate, ctx.body);
	const errors: FieldErrors = {};
	if (feedback_id !== undefined && feedback_id !== feedback.id) {
		errors.feedback_id = [`'feedback_id' must match the feedback in the path ('${feedback.id}').`];
	}
	const questions = feedback.questions ?? [];
	const answerFor = new Map<string, Answer>();
	(answers ?? []).forEach((answer, i) => {
		if (questions.some((q) => q.id === answer.question_id)) answerFor.set(answer.question_id, answer);
		else errors[`answers[${i}].question_id`] = [`Question '${answer.question_id}' is not part of this feedback.`];
	});
	throwIfErrors(errors);
	const updated = {
		...feedback,
		...fields,
		questions: questions.map((q) => {
			const answer = answerFor.get(q.id);
			return answer ? { ...q, answer: { ...q.answer, ...answer } } : q;
		}),
	};
	return save(ctx, 'feedback', updated, 'feedback.updated');
}

interface InterviewInput {
	application_id: string;
	event: Partial<Omit<Interview['event'], 'attendees'>> & {
		attendees?: Array<Partial<Pick<Attendee, 'application_id' | 'user_id' | 'email'>> & { type: string }>;
	};
	meta?: Partial<Interview['meta']>;
}

function createInterview(ctx: ApiContext): Reply {
	const { store } = ctx;
	const input = validate<InterviewInput>(interviewCreate, ctx.body);
	const app = store.get('applications', input.application_id);
	if (!app) throw validationProblem({ application_id: [`Application '${input.application_id}' was not found.`] });
	const candidate: Candidate = liveCandidate(store, app).candidate;
	const { attendees = [], ...event } = input.event;
	const interview: Interview = {
		id: store.newId('interviews', 'int'),
		candidate_id: candidate.id,
		application_id: app.id,
		job_id: app.job.id,
		event: {
			title: `${app.job.title} interview with ${candidate.full_name}`,
			location: '',
			type: 'online',
			start: '',
			end: '',
			time_zone: 'UTC',
			organizer_id: SEED_USERS[0].id,
			...event,
			status: 'active',
			attendees: attendees.map((a) => {
				const user = a.user_id ? store.get('users', a.user_id) : undefined;
				const display =
					a.type === 'candidate' ? candidate.full_name : user ? `${user.first_name} ${user.last_name}` : a.email ?? '';
				return {
					id: store.newId('interviews', 'attd'),
					application_id: a.application_id ?? (a.type === 'candidate' ? app.id : null),
					user_id: a.user_id ?? null,
					type: a.type,
					status: 'pending',
					display_name: display,
					email: a.email ?? (a.type === 'candidate' ? candidate.email : user?.email ?? ''),
				};
			}),
		},
		meta: {
			note_for_candidate: '',
			note_for_attendees: '',
			attach_resume_to_invite: false,
			online_meeting_type: null,
			meeting_url: '',
			...input.meta,
		},
	};
	// The application lists its interviews. The list is not an index key, so no re-index is needed.
	app.interviews = [...(app.interviews ?? []), interview.id];
	return save(ctx, 'interviews', interview, 'interview.created', 201);
}

function cancelInterview(ctx: ApiContext): Reply {
	const interview = find(ctx.store, 'interviews', 'Interview', ctx.params.interview_id);
	if (interview.event?.status !== 'cancelled') {
		save(ctx, 'interviews', { ...interview, event: { ...interview.event, status: 'cancelled' } }, 'interview.cancelled');
	}
	return NO_CONTENT;
}

function updateWebhook(ctx: ApiContext): Reply {
	const webhook = find(ctx.store, 'webhooks', 'Webhook', ctx.params.webhook_id);
	const { events, ...fields } = validate<Partial<Webhook> & { events?: string[] }>(webhookUpdate, ctx.body);
	const updated: Webhook = {
		...webhook,
		...fields,
		...(events && { subscribed_events: events }),
		version: (webhook.version ?? 0) + 1,
	};
	return save(ctx, 'webhooks', updated, undefined);
}

const getOne =
	<C extends keyof CollectionTypes>(collection: C, kind: string, param: string) =>
	(ctx: ApiContext): Reply =>
		data(200, ctx.store.view(collection, find(ctx.store, collection, kind, ctx.params[param])));

const deleteOne =
	<C extends keyof CollectionTypes>(collection: C, kind: string, param: string, event?: WebhookEvent) =>
	(ctx: ApiContext): Reply => {
		const record = find(ctx.store, collection, kind, ctx.params[param]);
		ctx.store.delete(collection, record.id);
		if (event) ctx.emit(event, ctx.store.view(collection, record));
		return NO_CONTENT;
	};


/* The service's full API (service-facts.md, "Endpoints of the public reference beyond the spec"). */

/** A user with the jobs whose team holds them (owner or assigned), as they are now. */
function userView(store: Store, user: User): User {
	const byUser = store.memo('jobs:byUser', ['jobs'], () => {
		const map = new Map<string, string[]>();
		for (const job of store.values('jobs')) {
			for (const id of new Set([job.owner_id, ...(job.assigned_team?.assigned_users ?? [])])) {
				map.set(id, [...(map.get(id) ?? []), job.id]);
			}
		}
		return map;
	});
	return { ...user, assigned_job_ids: byUser.get(user.id) ?? [] };
}

const listUsers = (ctx: ApiContext): Reply =>
	listReply(ctx, () => ({ list: ctx.store.values('users'), view: (u: User) => userView(ctx.store, u) }));

const getUser = (ctx: ApiContext): Reply => data(200, userView(ctx.store, find(ctx.store, 'users', 'User', ctx.params.id)));

const userRef = (user: { id: string; first_name: string; last_name: string }) => ({ id: user.id, name: `${user.first_name} ${user.last_name}` });

/** The candidate's application, or a 404 naming it (another candidate's application is not theirs). */
function candidateApplication(ctx: ApiContext): { candidate: Candidate; app: Application } {
	const candidate = find(ctx.store, 'candidates', 'Candidate', ctx.params.candidate_id);
	const app = ctx.store.get('applications', ctx.params.application_id);
	if (!app || app.candidate?.id !== candidate.id) throw notFound('Application', ctx.params.application_id);
	return { candidate, app };
}

const getApplication = (ctx: ApiContext): Reply => data(200, liveCandidate(ctx.store, candidateApplication(ctx).app));

function updateApplicationSource(ctx: ApiContext): Reply {
	const { app } = candidateApplication(ctx);
	const patch = validate(sourceUpdate, ctx.body);
	const user = patch.user as Partial<Application['source']['user']> | undefined;
	if (user?.id !== undefined) {
		const known = ctx.store.get('users', user.id);
		if (!known) throw validationProblem({ 'user.id': [`User '${user.id}' was not found.`] });
		// The service knows its users' names: the one sent, if any, does not win.
		patch.user = userRef(known);
	}
	// The source is not an index key (as an application's interviews): changed in place, no re-index.
	app.source = mergeDeep(app.source, patch);
	return data(200, app.source);
}

function createCandidateNote(ctx: ApiContext): Reply {
	const { store } = ctx;
	const candidate = find(store, 'candidates', 'Candidate', ctx.params.candidate_id);
	const input = validate<Pick<Note, 'text'> & Partial<Pick<Note, 'mentioned_users' | 'restricted'>> & { files?: Array<Omit<FileObject, 'type'>> }>(
		noteCreate,
		ctx.body,
	);
	const errors: FieldErrors = {};
	const applicationId = ctx.query.application_id;
	if (applicationId !== undefined && !(candidate.application_ids ?? []).includes(applicationId)) {
		errors.application_id = [`Application '${applicationId}' is not an application of candidate '${candidate.id}'.`];
	}
	checkUserIds(store, input.mentioned_users, 'mentioned_users', errors);
	throwIfErrors(errors);
	const now = new Date().toISOString();
	const note: Note = {
		id: store.newId('candidateNotes', 'note'),
		date_created: now,
		text: input.text,
		creator: { name: userRef(API_USER).name, user_id: API_USER.id, guest_id: '', recruiter: '' },
		files: (input.files ?? []).map((f) => ({ ...f, type: 'person_note_attachment' }) as FileObject),
		mentioned_users: input.mentioned_users ?? [],
		restricted: input.restricted ?? false,
		share: {
			id: store.newId('candidateNotes', 'shr'),
			application_id: applicationId ?? '',
			message: '',
			metadata: { expires_at: now, visits: 0, expired: false, revoked: false },
			guest: { id: '', email: '' },
			sender: { id: API_USER.id, first_name: API_USER.first_name, last_name: API_USER.last_name },
		},
		candidate_id: candidate.id,
	};
	return save(ctx, 'candidateNotes', note, 'candidate.note.created', 201);
}

const feedbackQuery = obj({ sort: oneOf(FEEDBACK_SORTS) });

/** Feedback in the order asked for (pending feedback, without date_complete, first by that date); unsorted: as stored. */
function listFeedback(ctx: ApiContext): Reply {
	return listReply(ctx, (errors) => {
		feedbackQuery.parse(ctx.query, '', errors);
		const sort = ctx.query.sort;
		if (sort === undefined) return { list: ctx.store.values('feedback') };
		const field = sort.replace(/^-/, '') as 'date_created' | 'date_complete';
		return { list: sortBy(ctx.store.values('feedback'), (f) => f[field] ?? ''), descending: sort.startsWith('-') };
	});
}

/** Whether an answer answers: text, a choice or a rating. */
const isAnswered = (a: Answer | undefined): boolean =>
	!!a && (!!a.text || !!a.selected_option || (a.selected_options ?? []).length > 0 || (a.ratings ?? []).length > 0);

/**
 * The feedback form `form`, completed now for `app` by the access token's user, with these answers
 * (every other question unanswered); the application lists it. Not stored: the caller stores it.
 * POST /feedback and the sandbox's activity (activity.ts) both make feedback this way.
 */
export function completedFeedback(store: Store, app: Application, form: ApplicationForm, answerFor: ReadonlyMap<string, Answer>): Feedback {
	const now = new Date().toISOString();
	const candidate = liveCandidate(store, app).candidate;
	const feedback: Feedback = {
		id: store.newId('feedback', 'fdbk'),
		application_id: app.id,
		form_id: form.id,
		name: form.name,
		candidate: { id: candidate.id, name: candidate.full_name },
		creator: userRef(API_USER),
		reviewer: userRef(API_USER),
		status: 'complete',
		date_created: now,
		date_complete: now,
		questions: form.questions.map((q, i) => ({
			id: q.id,
			type: q.type,
			question: q.question,
			description: '',
			required: q.required,
			restricted: false,
			display_order: i + 1,
			options: [],
			answer: { question_id: q.id, text: '', ratings: [], selected_options: [], selected_option: '', ...answerFor.get(q.id) },
		})),
	};
	// The application lists its feedback (as it lists its interviews).
	app.feedback = [...(app.feedback ?? []), feedback.id];
	return feedback;
}

function completeFeedback(ctx: ApiContext): Reply {
	const { store } = ctx;
	const input = validate<{ application_id: string; form_id: string; answers?: Answer[] }>(feedbackComplete, ctx.body);
	const app = store.get('applications', input.application_id);
	const form = store.get('applicationForms', input.form_id);
	const errors: FieldErrors = {};
	if (!app) errors.application_id = [`Application '${input.application_id}' was not found.`];
	if (!form) errors.form_id = [`Form '${input.form_id}' was not found.`];
	throwIfErrors(errors);
	const answerFor = new Map<string, Answer>();
	(input.answers ?? []).forEach((answer, i) => {
		if (form!.questions.some((q) => q.id === answer.question_id)) answerFor.set(answer.question_id, answer);
		else errors[`answers[${i}].question_id`] = [`Question '${answer.question_id}' is not part of form '${form!.id}'.`];
	});
	for (const question of form!.questions) {
		if (question.required && !isAnswered(answerFor.get(question.id))) {
			(errors.answers ??= []).push(`Question '${question.id}' is required to complete the form.`);
		}
	}
	throwIfErrors(errors);
	return save(ctx, 'feedback', completedFeedback(store, app!, form!, answerFor), 'feedback.submitted', 201);
}

export const API_ROUTES: readonly ApiRoute[] = [
	{ method: 'POST', path: '/interviews', handle: createInterview },
	{ method: 'POST', path: '/jobs', handle: createJob },
	{ method: 'GET', path: '/jobs/:job_id', handle: getOne('jobs', 'Job', 'job_id') },
	{ method: 'DELETE', path: '/jobs/:job_id', handle: deleteOne('jobs', 'Job', 'job_id', 'job.deleted') },
	{ method: 'GET', path: '/jobs/:job_id/notes', handle: listJobNotes },
	{ method: 'GET', path: '/candidates/:candidate_id', handle: getOne('candidates', 'Candidate', 'candidate_id') },
	{ method: 'PUT', path: '/candidates/:candidate_id', handle: updateCandidate },
	{ method: 'PUT', path: '/candidates/:candidate_id/notes/:note_id', handle: updateCandidateNote },
	{ method: 'POST', path: '/candidates/:candidate_id/tags', handle: addCandidateTag },
	{ method: 'GET', path: '/applications', handle: listApplications },
	{ method: 'PUT', path: '/feedback/:feedback_id', handle: updateFeedback },
	{ method: 'GET', path: '/emailtemplates', handle: listAll('emailTemplates') },
	{ method: 'GET', path: '/tags', handle: listAll('tags') },
	{ method: 'GET', path: '/users/categories', handle: listAll('userCategories') },
	{ method: 'DELETE', path: '/forms/application/:form_id', handle: deleteOne('applicationForms', 'Application form', 'form_id') },
	{ method: 'PUT', path: '/interviews/:interview_id/cancel', handle: cancelInterview },
	{ method: 'PUT', path: '/webhooks/:webhook_id', handle: updateWebhook },
	{ method: 'GET', path: '/webhooks/:webhook_id', handle: getOne('webhooks', 'Webhook', 'webhook_id') },
	// The full API; after GET /users/categories, which `/users/:id` would otherwise match.
	{ method: 'GET', path: '/users', handle: listUsers, fullApi: true },
	{ method: 'GET', path: '/users/:id', handle: getUser, fullApi: true },
	{ method: 'POST', path: '/candidates/:candidate_id/notes', handle: createCandidateNote, fullApi: true },
	{ method: 'GET', path: '/candidates/:candidate_id/applications/:application_id', handle: getApplication, fullApi: true },
	{ method: 'PUT', path: '/candidates/:candidate_id/applications/:application_id/source', handle: updateApplicationSource, fullApi: true },
	{ method: 'GET', path: '/feedback', handle: listFeedback, fullApi: true },
	{ method: 'POST', path: '/feedback', handle: completeFeedback, fullApi: true },
];
