/** The request bodies of the API, as recruiting-api.md describes them, plus the value sets they use. */
import { DateTime } from 'luxon';
import { FieldErrors } from './problems';
import { addError, arr, bool, dateTime, httpUrl, int, Json, nullable, obj, oneOf, str, timeZone } from './validation';

/** The 19 webhook events of service-facts.md. */
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

export const JOB_STATUSES = ['drafted', 'published', 'closed', 'internal'] as const;
export const JOB_TYPES = [
	'full_time',
	'part_time',
	'contract',
	'temporary',
	'other',
	'internship',
	'volunteer',
] as const;
export const EXPERIENCE_LEVELS = ['na', 'intern', 'entry_level', 'mid_level', 'senior'] as const;
export const PARENT_STAGES = ['rejected', 'new', 'screening', 'interviewing', 'offered', 'hired'] as const;
export const INTERVIEW_TYPES = ['phone', 'online', 'on_site'] as const;
export const ATTENDEE_TYPES = ['user', 'candidate', 'guest'] as const;
export const ONLINE_MEETING_TYPES = [
	'hangouts_meet',
	'event_named_hangout',
	'event_hangout',
	'unknown',
	'skype_for_consumer',
	'skype_for_business',
	'teams_for_business',
] as const;
export const APPLICATION_SORTS = ['applied_at', '-applied_at'] as const;
/** The feedback list's sort (the reference describes one by these fields; the names are ours, like the applications'). */
export const FEEDBACK_SORTS = ['date_created', '-date_created', 'date_complete', '-date_complete'] as const;
/** Value sets of the service's public reference beyond the spec (service-facts.md). */
export const USER_TYPES = ['primary_admin', 'admin', 'user', 'recruiter', 'reviewer'] as const;
export const USER_PERMISSIONS = [
	'MANAGE_TEAM',
	'SETTINGS_BILLING',
	'SETTINGS_JOBBOARD',
	'RESTRICTED_ACCESS',
	'EXPORT_REPORTS',
	'MANAGE_JOBS',
	'JOB_PUBLISH',
	'MESSAGE_CANDIDATE',
] as const;
export const SOURCE_ORIGINS = [
	'added',
	'applied',
	'interested',
	'referred',
	'candidate_pool',
	'hire_hive_import',
	'agency_submission',
] as const;

const ref = obj({ id: str(), name: str() }, { required: ['id'] });
const coded = obj({ id: str(), name: str(), code: str() });

export const jobCreate = obj(
	{
		title: str({ min: 1, max: 100 }),
		description: str({ max: 100000 }),
		owner_id: str(),
		status: oneOf(JOB_STATUSES),
		type: oneOf(JOB_TYPES),
		experience: oneOf(EXPERIENCE_LEVELS),
		salary: str(),
		job_code: str(),
		deadline: obj({ closes_at: nullable(dateTime()), auto_close: bool() }),
		category: obj({ id: str(), name: str() }),
		language: coded,
		location: obj({ city: str(), state: coded, country: coded, remote: str() }),
		application_form: obj({
			base_form: obj(
				Object.fromEntries(
					['current_title', 'current_company', 'location', 'phone', 'resume', 'cover_letter'].map((k) => [k, str()]),
				),
			),
			additional_form_ids: arr(str()),
		}),
		auto_responder: obj({ id: str(), email_subject: str(), email_body: str() }),
		tags: arr(ref),
		// In the service's public reference (not the spec): user IDs, checked against the users by the handler.
		assigned_team: obj({ assigned_users: arr(str({ min: 1 })), recruiter_ids: arr(str({ min: 1 })) }),
		notifications: obj({ new_application_email: arr(str({ min: 1 })) }),
	},
	{ required: ['title'] },
);

export const candidateUpdate = obj({
	first_name: str(),
	last_name: str(),
	email: str(),
	phone_number: str(),
	title: str(),
	company: str(),
	location: obj({ address: str(), country: obj({ name: str(), code: str() }) }),
	image_url: str(),
	tags: arr(ref),
	rating: int({ min: 1, max: 5 }),
	social_profiles: arr(obj({ uri: str({ min: 1 }) }, { required: ['uri'] })),
});

/** Checks that need two fields of the same attendee. */
function checkAttendee(attendee: Json, path: string, errors: FieldErrors): void {
	if (attendee.type === 'user' && typeof attendee.user_id !== 'string') {
		addError(errors, `${path}.user_id`, `'${path}.user_id' is required when the attendee type is user.`);
	}
	if (attendee.type === 'guest' && typeof attendee.email !== 'string') {
		addError(errors, `${path}.email`, `'${path}.email' is required when the attendee type is guest.`);
	}
}

/**
 * The instant of a start or end: as its offset says, or, without one, in the event's time_zone
 * (UTC when it has none). Luxon here, as the service would do it; the node has its own reading
 * (Intl), so the two check each other.
 */
function eventInstant(value: unknown, zone: unknown): number {
	if (typeof value !== 'string') return Number.NaN;
	const read = DateTime.fromISO(value, { zone: typeof zone === 'string' ? zone : 'UTC' });
	return read.isValid ? read.toMillis() : Date.parse(value);
}

function checkEventTimes(event: Json, path: string, errors: FieldErrors): void {
	if (eventInstant(event.end, event.time_zone) <= eventInstant(event.start, event.time_zone)) {
		addError(errors, `${path}.end`, `'${path}.end' must be after '${path}.start'.`);
	}
}

/** Create interview: unknown properties are rejected at every level. */
export const interviewCreate = obj(
	{
		application_id: str({ min: 1 }),
		event: obj(
			{
				title: str(),
				location: str(),
				type: oneOf(INTERVIEW_TYPES),
				start: dateTime(),
				end: dateTime(),
				time_zone: timeZone(),
				organizer_id: str(),
				attendees: arr(
					obj(
						{
							application_id: nullable(str()),
							user_id: nullable(str()),
							type: oneOf(ATTENDEE_TYPES),
							email: str(),
						},
						{ strict: true, required: ['type'], refine: checkAttendee },
					),
				),
			},
			{ strict: true, required: ['type', 'start', 'end'], refine: checkEventTimes },
		),
		meta: obj(
			{
				note_for_candidate: str(),
				note_for_attendees: str(),
				attach_resume_to_invite: bool(),
				online_meeting_type: nullable(oneOf(ONLINE_MEETING_TYPES)),
				meeting_url: str(),
			},
			{ strict: true },
		),
	},
	{ strict: true, required: ['application_id', 'event'] },
);

const noteFile = obj({
	id: str(),
	size_in_kb: int({ min: 0 }),
	download_link: str(),
	name: str(),
	original_name: str(),
	content_type: str(),
	file_extension: str(),
});

export const noteUpdate = obj({
	text: str(),
	files: arr(noteFile),
	mentioned_users: arr(str()),
	restricted: bool(),
});

/** POST /candidates/{id}/notes (the service's full API): a note needs its text. */
export const noteCreate = obj(
	{
		text: str({ min: 1 }),
		files: arr(noteFile),
		mentioned_users: arr(str({ min: 1 })),
		restricted: bool(),
	},
	{ required: ['text'] },
);

const answer = obj(
	{
		question_id: str({ min: 1 }),
		text: str(),
		ratings: arr(obj({ option_id: str(), rating: int() }, { required: ['option_id', 'rating'] })),
		selected_options: arr(str()),
		selected_option: str(),
	},
	{ required: ['question_id'] },
);

export const feedbackUpdate = obj({
	feedback_id: str(),
	application_id: str(),
	form_id: str(),
	answers: arr(answer),
});

/** POST /feedback (the service's full API): a completed form for an application. */
export const feedbackComplete = obj(
	{
		application_id: str({ min: 1 }),
		form_id: str({ min: 1 }),
		answers: arr(answer),
	},
	{ required: ['application_id', 'form_id'] },
);

const named = obj({ id: str(), name: str() });

/** PUT /candidates/{id}/applications/{id}/source (the service's full API). */
export const sourceUpdate = obj({
	origin: oneOf(SOURCE_ORIGINS),
	source: str(),
	contact: named,
	user: named,
	recruiter: named,
});

export const webhookUpdate = obj({
	endpoint: httpUrl(),
	name: str(),
	events: arr(oneOf(WEBHOOK_EVENTS)),
	description: str(),
});

export const tagAdd = obj({ id: str({ min: 1 }) }, { required: ['id'] });
