/** Every validation rule of the request bodies: 400, a problem document, the exact errors map. */
import { WEBHOOK_EVENTS } from '../../sandbox';
import { seededStore, useSandbox } from './helpers';

const { call } = useSandbox();
const seeded = seededStore();
const candidate = seeded.values('candidates')[0];
const note = seeded.values('candidateNotes')[0];
const feedback = seeded.values('feedback')[0];
const application = seeded.values('applications')[0];

const STRING = (f: string) => `'${f}' must be a string.`;
const ENUM = (f: string, values: string) => `'${f}' must be one of: ${values}.`;
const REQUIRED = (f: string) => `'${f}' is required.`;
const UNKNOWN = (f: string) => `'${f}' is not a known property.`;
const DATE = (f: string) => `'${f}' must be an ISO 8601 date-time.`;
const BOOL = (f: string) => `'${f}' must be a boolean.`;
const INT = (f: string) => `'${f}' must be an integer.`;

type Case = [label: string, body: Record<string, unknown>, errors: Record<string, string[]>];

async function expectErrors(method: string, path: string, body: unknown, errors: Record<string, string[]>) {
	const res = await call(method, path, body);
	expect(res.status).toBe(400);
	expect(res.headers.get('content-type')).toBe('application/problem+json');
	expect(res.body).toEqual({
		type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
		title: 'One or more validation errors occurred.',
		status: 400,
		detail: expect.any(String),
		instance: `/v1.0/cmp_demo${path}`,
		errors,
	});
}

describe('create job', () => {
	const TITLE = "'title' must be a string of 1 to 100 characters.";
	it.each<Case>([
		['no title', { description: 'x' }, { title: [REQUIRED('title')] }],
		['an empty title', { title: '' }, { title: [TITLE] }],
		['a title of 101 characters', { title: 'x'.repeat(101) }, { title: [TITLE] }],
		['a numeric title', { title: 5 }, { title: [TITLE] }],
		['a description of 100001 characters', { title: 't', description: 'x'.repeat(100001) }, { description: ["'description' must be a string of at most 100000 characters."] }],
		['an unknown status', { title: 't', status: 'open' }, { status: [ENUM('status', 'drafted, published, closed, internal')] }],
		['an unknown type', { title: 't', type: 'freelance' }, { type: [ENUM('type', 'full_time, part_time, contract, temporary, other, internship, volunteer')] }],
		['an unknown experience', { title: 't', experience: 'guru' }, { experience: [ENUM('experience', 'na, intern, entry_level, mid_level, senior')] }],
		['a deadline that is not a date-time', { title: 't', deadline: { closes_at: '31/12/2030', auto_close: 'yes' } }, { 'deadline.closes_at': [DATE('deadline.closes_at')], 'deadline.auto_close': [BOOL('deadline.auto_close')] }],
		['tags that are not {id, name}', { title: 't', tags: [{ name: 'x' }, { id: 1, name: 'y' }] }, { 'tags[0].id': [REQUIRED('tags[0].id')], 'tags[1].id': [STRING('tags[1].id')] }],
		['tags that are not an array', { title: 't', tags: 'urgent' }, { tags: ["'tags' must be an array."] }],
		['a category that is not an object', { title: 't', category: 'Engineering' }, { category: ["'category' must be an object."] }],
		['nested strings of the wrong type', { title: 't', location: { country: { code: 353 } }, language: { code: true }, owner_id: 7, salary: 1, job_code: [] }, {
			'location.country.code': [STRING('location.country.code')], 'language.code': [STRING('language.code')], owner_id: [STRING('owner_id')], salary: [STRING('salary')], job_code: [STRING('job_code')],
		}],
		['application form ids that are not strings', { title: 't', application_form: { additional_form_ids: [1], base_form: { resume: false } } }, {
			'application_form.additional_form_ids[0]': [STRING('application_form.additional_form_ids[0]')], 'application_form.base_form.resume': [STRING('application_form.base_form.resume')],
		}],
		['an auto responder of the wrong shape', { title: 't', auto_responder: { email_subject: 1 } }, { 'auto_responder.email_subject': [STRING('auto_responder.email_subject')] }],
	])('rejects %s', (_label, body, errors) => expectErrors('POST', '/jobs', body, errors));

	it('accepts a title of 1 and of 100 characters, every enum value, and ignores unknown properties', async () => {
		for (const title of ['x', 'y'.repeat(100)]) expect((await call('POST', '/jobs', { title, whatever: { deep: 1 } })).status).toBe(201);
		const body = { title: 't', status: 'internal', type: 'volunteer', experience: 'senior', deadline: { closes_at: '2030-12-31T17:00:00+01:00', auto_close: true }, description: 'x'.repeat(100000) };
		expect((await call('POST', '/jobs', body)).body.data).toMatchObject({ status: 'internal', type: 'volunteer', experience: 'senior', deadline: body.deadline });
	});
});

describe('update candidate', () => {
	const RATING = "'rating' must be an integer from 1 to 5.";
	it.each<Case>([
		['rating 0', { rating: 0 }, { rating: [RATING] }],
		['rating 6', { rating: 6 }, { rating: [RATING] }],
		['rating 2.5', { rating: 2.5 }, { rating: [RATING] }],
		['rating "3"', { rating: '3' }, { rating: [RATING] }],
		['strings that are not strings', { first_name: 1, last_name: null, email: false, phone_number: 353, title: {}, company: [], image_url: 2 }, Object.fromEntries(['first_name', 'last_name', 'email', 'phone_number', 'title', 'company', 'image_url'].map((f) => [f, [STRING(f)]]))],
		['tags without ids', { tags: [{}] }, { 'tags[0].id': [REQUIRED('tags[0].id')] }],
		['social profiles without uri', { social_profiles: [{ type: 'linked_in' }] }, { 'social_profiles[0].uri': [REQUIRED('social_profiles[0].uri')] }],
		['a location of the wrong shape', { location: { address: 1, country: { name: 2, code: 'IE' } } }, { 'location.address': [STRING('location.address')], 'location.country.name': [STRING('location.country.name')] }],
	])('rejects %s', (_label, body, errors) => expectErrors('PUT', `/candidates/${candidate.id}`, body, errors));

	it('accepts ratings 1 and 5', async () => {
		for (const rating of [1, 5]) expect((await call('PUT', `/candidates/${candidate.id}`, { rating })).body.data.rating).toBe(rating);
	});
});

describe('create interview', () => {
	const event = { type: 'phone', start: '2030-01-01T10:00:00Z', end: '2030-01-01T11:00:00Z' };
	const base = { application_id: application.id, event };
	const ATTENDEE = 'event.attendees[0]';
	it.each<Case>([
		['an empty body', {}, { application_id: [REQUIRED('application_id')], event: [REQUIRED('event')] }],
		['an unknown top-level property', { ...base, priority: 'high' }, { priority: [UNKNOWN('priority')] }],
		['an unknown event property', { ...base, event: { ...event, colour: 'red' } }, { 'event.colour': [UNKNOWN('event.colour')] }],
		['an unknown attendee property', { ...base, event: { ...event, attendees: [{ type: 'guest', email: 'g@x.example', phone: '1' }] } }, { [`${ATTENDEE}.phone`]: [UNKNOWN(`${ATTENDEE}.phone`)] }],
		['an unknown meta property', { ...base, meta: { zoom_id: '1' } }, { 'meta.zoom_id': [UNKNOWN('meta.zoom_id')] }],
		['an event without type, start, end', { ...base, event: {} }, { 'event.type': [REQUIRED('event.type')], 'event.start': [REQUIRED('event.start')], 'event.end': [REQUIRED('event.end')] }],
		['an unknown event type', { ...base, event: { ...event, type: 'video' } }, { 'event.type': [ENUM('event.type', 'phone, online, on_site')] }],
		['start and end that are not date-times', { ...base, event: { ...event, start: 'tomorrow', end: '2030-13-45T99:00:00Z' } }, { 'event.start': [DATE('event.start')], 'event.end': [DATE('event.end')] }],
		['impossible calendar dates', { ...base, event: { ...event, start: '2030-02-30T10:00:00Z', end: '2030-01-01T24:00:00Z' } }, { 'event.start': [DATE('event.start')], 'event.end': [DATE('event.end')] }],
		['a date without a time', { ...base, event: { ...event, start: '2030-01-01', end: '2030-01-01T10:00:00+25:00' } }, { 'event.start': [DATE('event.start')], 'event.end': [DATE('event.end')] }],
		['an end before the start', { ...base, event: { ...event, end: '2030-01-01T09:00:00Z' } }, { 'event.end': ["'event.end' must be after 'event.start'."] }],
		['an end equal to the start', { ...base, event: { ...event, end: event.start } }, { 'event.end': ["'event.end' must be after 'event.start'."] }],
		['an unknown time zone', { ...base, event: { ...event, time_zone: 'Mars/Phobos' } }, { 'event.time_zone': ["'event.time_zone' must be a valid IANA time zone such as Europe/Dublin."] }],
		['an offset instead of a time zone', { ...base, event: { ...event, time_zone: '+01:00' } }, { 'event.time_zone': ["'event.time_zone' must be a valid IANA time zone such as Europe/Dublin."] }],
		['an unknown attendee type', { ...base, event: { ...event, attendees: [{ type: 'robot' }] } }, { [`${ATTENDEE}.type`]: [ENUM(`${ATTENDEE}.type`, 'user, candidate, guest')] }],
		['an attendee without type', { ...base, event: { ...event, attendees: [{ email: 'a@b.example' }] } }, { [`${ATTENDEE}.type`]: [REQUIRED(`${ATTENDEE}.type`)] }],
		['a user attendee without user_id', { ...base, event: { ...event, attendees: [{ type: 'user', user_id: null }] } }, { [`${ATTENDEE}.user_id`]: [`'${ATTENDEE}.user_id' is required when the attendee type is user.`] }],
		['a guest attendee without email', { ...base, event: { ...event, attendees: [{ type: 'guest' }] } }, { [`${ATTENDEE}.email`]: [`'${ATTENDEE}.email' is required when the attendee type is guest.`] }],
		['an unknown meeting type', { ...base, meta: { online_meeting_type: 'zoom' } }, { 'meta.online_meeting_type': [ENUM('meta.online_meeting_type', 'hangouts_meet, event_named_hangout, event_hangout, unknown, skype_for_consumer, skype_for_business, teams_for_business')] }],
		['attach_resume_to_invite that is not a boolean', { ...base, meta: { attach_resume_to_invite: 'yes' } }, { 'meta.attach_resume_to_invite': [BOOL('meta.attach_resume_to_invite')] }],
		['an application id that is not a string', { ...base, application_id: 42 }, { application_id: ["'application_id' must be a non-empty string."] }],
	])('rejects %s', (_label, body, errors) => expectErrors('POST', '/interviews', body, errors));

	it('accepts date-times with Z, an offset, fractions, or no offset (local to the time zone)', async () => {
		for (const [start, end] of [['2030-02-28T23:59:59.999Z', '2030-03-01T00:30:00Z'], ['2032-02-29T10:00:00+01:00', '2032-02-29T11:00:00+0100'], ['2030-06-01T09:00', '2030-06-01T10:00:30']]) {
			const res = await call('POST', '/interviews', { ...base, event: { ...event, start, end } });
			expect([start, res.status]).toEqual([start, 201]);
		}
	});

	it('accepts every meeting type, null, and an IANA zone', async () => {
		for (const online_meeting_type of ['hangouts_meet', 'event_named_hangout', 'event_hangout', 'unknown', 'skype_for_consumer', 'skype_for_business', 'teams_for_business', null]) {
			const res = await call('POST', '/interviews', { ...base, event: { ...event, time_zone: 'America/New_York' }, meta: { online_meeting_type } });
			expect(res.status).toBe(201);
			expect(res.body.data.meta.online_meeting_type).toBe(online_meeting_type);
		}
	});
});

describe('update note', () => {
	const path = `/candidates/${note.candidate_id}/notes/${note.id}`;
	it.each<Case>([
		['text that is not a string', { text: 1 }, { text: [STRING('text')] }],
		['files that are not an array', { files: 'a.pdf' }, { files: ["'files' must be an array."] }],
		['a file of the wrong shape', { files: [{ size_in_kb: '12', name: 3 }] }, { 'files[0].size_in_kb': ["'files[0].size_in_kb' must be an integer of at least 0."], 'files[0].name': [STRING('files[0].name')] }],
		['mentioned users that are not strings', { mentioned_users: [1] }, { 'mentioned_users[0]': [STRING('mentioned_users[0]')] }],
		['restricted that is not a boolean', { restricted: 'no' }, { restricted: [BOOL('restricted')] }],
	])('rejects %s', (_label, body, errors) => expectErrors('PUT', path, body, errors));
});

describe('update feedback', () => {
	const path = `/feedback/${feedback.id}`;
	const qid = feedback.questions[1].id;
	it.each<Case>([
		['ids that are not strings', { application_id: 1, form_id: 2 }, { application_id: [STRING('application_id')], form_id: [STRING('form_id')] }],
		['a feedback_id of another feedback', { feedback_id: 'fb_other' }, { feedback_id: [`'feedback_id' must match the feedback in the path ('${feedback.id}').`] }],
		['an answer without question_id', { answers: [{ text: 'x' }] }, { 'answers[0].question_id': [REQUIRED('answers[0].question_id')] }],
		['ratings of the wrong shape', { answers: [{ question_id: qid, ratings: [{ option_id: 'o', rating: 'high' }, {}] }] }, {
			'answers[0].ratings[0].rating': [INT('answers[0].ratings[0].rating')],
			'answers[0].ratings[1].option_id': [REQUIRED('answers[0].ratings[1].option_id')],
			'answers[0].ratings[1].rating': [REQUIRED('answers[0].ratings[1].rating')],
		}],
		['selected options of the wrong types', { answers: [{ question_id: qid, selected_options: 'a', selected_option: 1, text: false }] }, {
			'answers[0].selected_options': ["'answers[0].selected_options' must be an array."], 'answers[0].selected_option': [STRING('answers[0].selected_option')], 'answers[0].text': [STRING('answers[0].text')],
		}],
	])('rejects %s', (_label, body, errors) => expectErrors('PUT', path, body, errors));
});

describe('update webhook', () => {
	const URL_MESSAGE = "'endpoint' must be an absolute http or https URL.";
	it.each<Case>([
		['an ftp endpoint', { endpoint: 'ftp://files.example/hook' }, { endpoint: [URL_MESSAGE] }],
		['an endpoint that is not a URL', { endpoint: 'not a url' }, { endpoint: [URL_MESSAGE] }],
		['an unknown event', { events: ['job.created', 'job.exploded'] }, { 'events[1]': [ENUM('events[1]', WEBHOOK_EVENTS.join(', '))] }],
		['events that are not an array', { events: 'job.created' }, { events: ["'events' must be an array."] }],
		['name and description that are not strings', { name: 1, description: {} }, { name: [STRING('name')], description: [STRING('description')] }],
	])('rejects %s', (_label, body, errors) => expectErrors('PUT', '/webhooks/wh_demo', body, errors));

	it('accepts all 19 events', async () => {
		expect(WEBHOOK_EVENTS).toHaveLength(19);
		const res = await call('PUT', '/webhooks/wh_demo', { events: WEBHOOK_EVENTS, endpoint: 'https://n8n.example/webhook/abc' });
		expect(res.body.data.subscribed_events).toEqual(WEBHOOK_EVENTS);
	});
});

describe('add tag', () => {
	it.each<Case>([
		['an empty id', { id: '' }, { id: ["'id' must be a non-empty string."] }],
		['a numeric id', { id: 5 }, { id: ["'id' must be a non-empty string."] }],
	])('rejects %s', (_label, body, errors) => expectErrors('POST', `/candidates/${candidate.id}/tags`, body, errors));
});
