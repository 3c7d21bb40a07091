/**
 * Every write sends exactly what was set. Each of the node's write operations (every POST, PUT and
 * DELETE among the 18 endpoints of the spec and the endpoints of the service's full API) runs
 * through n8n's engine against the sandbox, and the request the sandbox received is compared whole
 * (method, path, query, body; strict deep equality, so no key the user did not set may be there):
 *
 *   1. with only its required parameters;
 *   2. with every optional field set;
 *   3. with each optional field alone (the required ones plus that one);
 *   4. with its groups and lists added but every field in them left empty: as in 1.
 *
 * An update of the service's partial-update kind needs at least one field: with only its required
 * parameters the node refuses it before any request, and that is what table 1 asserts for them.
 * Each row lists an optional field as the parameters that set it and the part of the body they
 * must add; table 2 merges all of them.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SEED_USERS } from '../../sandbox';
import { seededRecords } from '../reliability/seeded';
import { apiPath, startRecruitingFixture, type RecruitingFixture } from './fixture';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface OptionalField {
	/** What the row is called in the test name. */
	field: string;
	/** The parameters that set it (merged into the required ones). */
	parameters: JsonObject;
	/** What it adds to the body (merged into the required body). */
	body: JsonObject;
	/** What it adds to the query, where a field is sent there. */
	query?: Record<string, string>;
}

interface WriteOperation {
	resource: string;
	operation: string;
	method: 'POST' | 'PUT' | 'DELETE';
	/** Raw path segments after the company. */
	segments: string[];
	required: JsonObject;
	/** The body of a run with only `required`; undefined when the request has none. */
	requiredBody?: JsonObject;
	/** Set when the node must refuse a run with only the required parameters, before any request. */
	refusedWithoutFields?: string;
	/** Raw path segments of the GET the operation reads before it writes (Remove Tag). */
	readsFirst?: string[];
	optional: OptionalField[];
	/** Groups, lists and collections added in the editor with nothing set in them. */
	emptyGroups?: JsonObject;
	/** Records the operation needs besides the seed, put before each run. */
	setup?: (sandbox: RecruitingFixture['sandbox']) => void;
}

const company = 'cmp_demo';
const first = <T = { id: string }>(collection: Parameters<typeof seededRecords>[1]) => seededRecords<T>(company, collection)[0];

const application = first('applications').id;
const interview = first('interviews').id;
const job = first('jobs').id;
const candidate = first('candidates').id;
const tag = first('tags').id;
/** A candidate with two tags or more: Remove Tag takes the first off and writes the rest back. */
const tagged = seededRecords<{ id: string; tags: Array<{ id: string; name: string }> }>(company, 'candidates').find(
	(c) => (c.tags ?? []).length >= 2,
)!;
const form = first('applicationForms').id;
const note = first<{ id: string; candidate_id: string }>('candidateNotes');
const feedback = first<{
	id: string;
	application_id: string;
	form_id: string;
	questions: Array<{ id: string; type: string; options: Array<{ id: string }> }>;
}>('feedback');
const question = (type: string) => feedback.questions.find((q) => q.type === type)!;
const choice = question('multiple_choice');
const [organizer, attendee, recruiter] = SEED_USERS.map((user) => user.id);
const locator = (value: string) => ({ __rl: true, mode: 'id', value });
/** A user chosen in a picker's *From list* mode, as the editor stores it. */
const picked = (value: string) => ({ __rl: true, mode: 'list', value, cachedResultName: 'A user' });
const applicationRecord = first<{ id: string; candidate: { id: string } }>('applications');
/** A feedback form whose only question is optional: Complete with nothing but the required parameters is valid. */
const OPTIONAL_FORM = { id: 'form_optional', name: 'Optional questions', questions: [{ id: 'q_optional', type: 'textbox', question: 'Anything to add?', required: false }] };

const NO_FIELDS = 'Invalid "Update Fields": add at least one field to update';

const WRITES: WriteOperation[] = [
	{
		resource: 'interview',
		operation: 'create',
		method: 'POST',
		segments: ['interviews'],
		required: {
			applicationId: locator(application),
			type: 'online',
			start: '2030-03-04T10:00:00Z',
			end: '2030-03-04T11:00:00Z',
		},
		// Time Zone is not required but always shown, with UTC preselected: that value is sent.
		requiredBody: {
			application_id: application,
			event: { type: 'online', start: '2030-03-04T10:00:00Z', end: '2030-03-04T11:00:00Z', time_zone: 'UTC' },
		},
		optional: [
			{ field: 'Time Zone', parameters: { timeZone: 'Europe/Dublin' }, body: { event: { time_zone: 'Europe/Dublin' } } },
			{
				field: 'Attendees (user)',
				parameters: { attendees: { attendee: [{ type: 'user', userId: attendee }] } },
				body: { event: { attendees: [{ type: 'user', application_id: null, user_id: attendee }] } },
			},
			{
				field: 'Attendees (candidate)',
				parameters: { attendees: { attendee: [{ type: 'candidate' }] } },
				body: { event: { attendees: [{ type: 'candidate', application_id: application, user_id: null }] } },
			},
			{
				field: 'Attendees (guest)',
				parameters: { attendees: { attendee: [{ type: 'guest', email: 'panel@partner.example' }] } },
				body: { event: { attendees: [{ type: 'guest', application_id: null, user_id: null, email: 'panel@partner.example' }] } },
			},
			{
				field: 'Attach Resume to Invite',
				parameters: { additionalFields: { attachResumeToInvite: true } },
				body: { meta: { attach_resume_to_invite: true } },
			},
			{ field: 'Location', parameters: { additionalFields: { location: 'Dublin 2' } }, body: { event: { location: 'Dublin 2' } } },
			{
				field: 'Meeting URL',
				parameters: { additionalFields: { meetingUrl: 'https://meet.example.com/x' } },
				body: { meta: { meeting_url: 'https://meet.example.com/x' } },
			},
			{
				field: 'Note for Attendees',
				parameters: { additionalFields: { noteForAttendees: 'Focus on design.' } },
				body: { meta: { note_for_attendees: 'Focus on design.' } },
			},
			{
				field: 'Note for Candidate',
				parameters: { additionalFields: { noteForCandidate: 'Bring ID.' } },
				body: { meta: { note_for_candidate: 'Bring ID.' } },
			},
			{
				field: 'Online Meeting Type',
				parameters: { additionalFields: { onlineMeetingType: 'teams_for_business' } },
				body: { meta: { online_meeting_type: 'teams_for_business' } },
			},
			{
				field: 'Organizer ID',
				parameters: { additionalFields: { organizerId: organizer } },
				body: { event: { organizer_id: organizer } },
			},
			{
				field: 'Organizer ID (picked from the list)',
				parameters: { additionalFields: { organizerId: picked(organizer) } },
				body: { event: { organizer_id: organizer } },
			},
			{ field: 'Title', parameters: { additionalFields: { title: 'Final round' } }, body: { event: { title: 'Final round' } } },
		],
		emptyGroups: {
			attendees: {},
			additionalFields: { title: '', location: '', organizerId: '', noteForCandidate: '', noteForAttendees: '', meetingUrl: '' },
		},
	},
	{
		resource: 'interview',
		operation: 'cancel',
		method: 'PUT',
		segments: ['interviews', interview, 'cancel'],
		required: { interviewId: interview },
		optional: [],
	},
	{
		resource: 'job',
		operation: 'create',
		method: 'POST',
		segments: ['jobs'],
		required: { title: 'Engineer' },
		requiredBody: { title: 'Engineer' },
		optional: [
			...(
				[
					['current_title', 'optional'],
					['current_company', 'off'],
					['location', 'required'],
					['phone', 'off'],
					['resume', 'required'],
					['cover_letter', 'optional'],
				] as const
			).map(([key, value]) => ({
				field: `Application Form: ${key}`,
				parameters: { additionalFields: { applicationForm: { form: { [key]: value } } } },
				body: { application_form: { base_form: { [key]: value } } },
			})),
			{
				field: 'Application Form: Additional Form IDs',
				parameters: { additionalFields: { applicationForm: { form: { additionalFormIds: 'form_a, form_b' } } } },
				body: { application_form: { additional_form_ids: ['form_a', 'form_b'] } },
			},
			...(
				[
					['id', 'id', 'tmpl_1'],
					['emailSubject', 'email_subject', 'Thanks'],
					['emailBody', 'email_body', 'We got it'],
				] as const
			).map(([name, key, value]) => ({
				field: `Auto Responder: ${name}`,
				parameters: { additionalFields: { autoResponder: { responder: { [name]: value } } } },
				body: { auto_responder: { [key]: value } },
			})),
			{
				field: 'Category: ID',
				parameters: { additionalFields: { category: { category: { id: 'jcat_eng' } } } },
				body: { category: { id: 'jcat_eng' } },
			},
			{
				field: 'Category: Name',
				parameters: { additionalFields: { category: { category: { name: 'Engineering' } } } },
				body: { category: { name: 'Engineering' } },
			},
			// Auto Close is a switch shown next to Closes At: once the group is added, its value is sent.
			{
				field: 'Deadline: Closes At',
				parameters: { additionalFields: { deadline: { deadline: { closesAt: '2030-01-31T17:00:00Z' } } } },
				body: { deadline: { closes_at: '2030-01-31T17:00:00Z', auto_close: false } },
			},
			{
				field: 'Deadline: Auto Close',
				parameters: { additionalFields: { deadline: { deadline: { autoClose: true } } } },
				body: { deadline: { auto_close: true } },
			},
			{ field: 'Description', parameters: { additionalFields: { description: 'Build' } }, body: { description: 'Build' } },
			{ field: 'Experience', parameters: { additionalFields: { experience: 'senior' } }, body: { experience: 'senior' } },
			{ field: 'Job Code', parameters: { additionalFields: { jobCode: 'ENG-1' } }, body: { job_code: 'ENG-1' } },
			...(
				[
					['code', 'de'],
					['id', 'lang_de'],
					['name', 'German'],
				] as const
			).map(([key, value]) => ({
				field: `Language: ${key}`,
				parameters: { additionalFields: { language: { language: { [key]: value } } } },
				body: { language: { [key]: value } },
			})),
			...(
				[
					['city', 'Cork', { city: 'Cork' }],
					['countryCode', 'IE', { country: { code: 'IE' } }],
					['countryId', 'ctry_ie', { country: { id: 'ctry_ie' } }],
					['countryName', 'Ireland', { country: { name: 'Ireland' } }],
					['remote', 'fully_remote', { remote: 'fully_remote' }],
					['stateCode', 'CO', { state: { code: 'CO' } }],
					['stateId', 'st_co', { state: { id: 'st_co' } }],
					['stateName', 'County Cork', { state: { name: 'County Cork' } }],
				] as const
			).map(([name, value, location]) => ({
				field: `Location: ${name}`,
				parameters: { additionalFields: { location: { location: { [name]: value } } } },
				body: { location: location as JsonObject },
			})),
			{ field: 'Owner ID', parameters: { additionalFields: { ownerId: organizer } }, body: { owner_id: organizer } },
			{
				field: 'Owner ID (picked from the list)',
				parameters: { additionalFields: { ownerId: picked(organizer) } },
				body: { owner_id: organizer },
			},
			{
				field: 'Assigned Team: Assigned Users',
				parameters: { additionalFields: { assignedTeam: { team: { assignedUsers: [organizer, attendee] } } } },
				body: { assigned_team: { assigned_users: [organizer, attendee] } },
			},
			{
				field: 'Assigned Team: Recruiters',
				parameters: { additionalFields: { assignedTeam: { team: { recruiterIds: [recruiter] } } } },
				body: { assigned_team: { recruiter_ids: [recruiter] } },
			},
			{
				field: 'Notifications: New Application Email',
				parameters: { additionalFields: { notifications: { notifications: { newApplicationEmail: [attendee] } } } },
				body: { notifications: { new_application_email: [attendee] } },
			},
			{ field: 'Salary', parameters: { additionalFields: { salary: '100k' } }, body: { salary: '100k' } },
			{ field: 'Status', parameters: { additionalFields: { status: 'published' } }, body: { status: 'published' } },
			{
				field: 'Tags',
				parameters: { additionalFields: { tags: { tag: [{ id: tag, name: 'Urgent' }] } } },
				body: { tags: [{ id: tag, name: 'Urgent' }] },
			},
			{ field: 'Type', parameters: { additionalFields: { type: 'contract' } }, body: { type: 'contract' } },
		],
		emptyGroups: {
			additionalFields: {
				applicationForm: { form: {} },
				autoResponder: { responder: {} },
				category: { category: {} },
				language: { language: {} },
				location: { location: {} },
				tags: {},
				assignedTeam: { team: { assignedUsers: [], recruiterIds: [] } },
				notifications: { notifications: { newApplicationEmail: [] } },
				description: '',
				jobCode: '',
				ownerId: '',
				salary: '',
			},
		},
	},
	{
		resource: 'job',
		operation: 'delete',
		method: 'DELETE',
		segments: ['jobs', job],
		required: { jobId: job },
		optional: [],
	},
	{
		resource: 'candidate',
		operation: 'update',
		method: 'PUT',
		segments: ['candidates', candidate],
		required: { candidateId: candidate },
		refusedWithoutFields: NO_FIELDS,
		optional: [
			...(
				[
					['company', 'company', 'Acme'],
					['firstName', 'first_name', 'Ada'],
					['lastName', 'last_name', 'Lovelace'],
					['phoneNumber', 'phone_number', '+353 1 234 5678'],
					['title', 'title', 'Engineer'],
					['email', 'email', 'ada@example.com'],
					['imageUrl', 'image_url', 'https://example.com/ada.jpg'],
				] as const
			).map(([name, key, value]) => ({
				field: name,
				parameters: { updateFields: { [name]: value } },
				body: { [key]: value },
			})),
			...(
				[
					['address', 'Dublin 2', { address: 'Dublin 2' }],
					['countryCode', 'IE', { country: { code: 'IE' } }],
					['countryName', 'Ireland', { country: { name: 'Ireland' } }],
				] as const
			).map(([name, value, location]) => ({
				field: `Location: ${name}`,
				parameters: { updateFields: { location: { location: { [name]: value } } } },
				body: { location: location as JsonObject },
			})),
			{ field: 'Rating', parameters: { updateFields: { rating: 5 } }, body: { rating: 5 } },
			{
				field: 'Social Profiles',
				parameters: { updateFields: { socialProfiles: { profile: [{ uri: 'https://www.linkedin.com/in/ada' }] } } },
				body: { social_profiles: [{ uri: 'https://www.linkedin.com/in/ada' }] },
			},
			{
				field: 'Tags',
				parameters: { updateFields: { tags: { tag: [{ id: tag }] } } },
				body: { tags: [{ id: tag }] },
			},
		],
		emptyGroups: { updateFields: { location: { location: {} }, socialProfiles: {}, tags: {} } },
	},
	{
		resource: 'candidate',
		operation: 'addTag',
		method: 'POST',
		segments: ['candidates', candidate, 'tags'],
		required: { candidateId: candidate, tagId: locator(tag) },
		requiredBody: { id: tag },
		optional: [],
	},
	{
		resource: 'candidate',
		operation: 'removeTag',
		method: 'PUT',
		segments: ['candidates', tagged.id],
		readsFirst: ['candidates', tagged.id],
		required: { candidateId: tagged.id, tagId: locator(tagged.tags[0].id) },
		requiredBody: { tags: tagged.tags.slice(1) },
		optional: [],
	},
	{
		resource: 'candidateNote',
		operation: 'update',
		method: 'PUT',
		segments: ['candidates', note.candidate_id, 'notes', note.id],
		required: { candidateId: note.candidate_id, noteId: note.id },
		refusedWithoutFields: NO_FIELDS,
		optional: [
			{
				field: 'Files',
				parameters: {
					updateFields: {
						files: {
							file: [
								{
									id: 'file_cv',
									contentType: 'application/pdf',
									downloadLink: 'https://files.example/cv.pdf',
									fileExtension: 'pdf',
									name: 'cv.pdf',
									originalName: 'Ada CV.pdf',
									sizeInKb: 120,
								},
							],
						},
					},
				},
				body: {
					files: [
						{
							id: 'file_cv',
							content_type: 'application/pdf',
							download_link: 'https://files.example/cv.pdf',
							file_extension: 'pdf',
							name: 'cv.pdf',
							original_name: 'Ada CV.pdf',
							size_in_kb: 120,
						},
					],
				},
			},
			{
				field: 'Mentioned User IDs',
				parameters: { updateFields: { mentionedUsers: `${organizer}, ${attendee}` } },
				body: { mentioned_users: [organizer, attendee] },
			},
			{ field: 'Restricted', parameters: { updateFields: { restricted: true } }, body: { restricted: true } },
			{ field: 'Text', parameters: { updateFields: { text: 'Strong call.' } }, body: { text: 'Strong call.' } },
		],
		emptyGroups: { updateFields: { files: {} } },
	},
	{
		resource: 'feedback',
		operation: 'update',
		method: 'PUT',
		segments: ['feedback', feedback.id],
		required: { feedbackId: feedback.id, applicationId: feedback.application_id, formId: feedback.form_id },
		requiredBody: { feedback_id: feedback.id, application_id: feedback.application_id, form_id: feedback.form_id },
		optional: [
			{
				field: 'Answers (text)',
				parameters: { answers: { answer: [{ questionId: question('textbox').id, text: 'Sharp.' }] } },
				body: { answers: [{ question_id: question('textbox').id, text: 'Sharp.' }] },
			},
			{
				field: 'Answers (ratings)',
				parameters: {
					answers: {
						answer: [
							{
								questionId: question('rating').id,
								ratings: { rating: question('rating').options.map((option, i) => ({ optionId: option.id, rating: i + 3 })) },
							},
						],
					},
				},
				body: {
					answers: [
						{
							question_id: question('rating').id,
							ratings: question('rating').options.map((option, i) => ({ option_id: option.id, rating: i + 3 })),
						},
					],
				},
			},
			{
				field: 'Answers (selected options)',
				parameters: {
					answers: { answer: [{ questionId: choice.id, selectedOptions: `${choice.options[0].id}, ${choice.options[2].id}` }] },
				},
				body: { answers: [{ question_id: choice.id, selected_options: [choice.options[0].id, choice.options[2].id] }] },
			},
			{
				field: 'Answers (selected option)',
				parameters: { answers: { answer: [{ questionId: choice.id, selectedOption: choice.options[1].id }] } },
				body: { answers: [{ question_id: choice.id, selected_option: choice.options[1].id }] },
			},
		],
		emptyGroups: { answers: {} },
	},
	{
		resource: 'applicationForm',
		operation: 'delete',
		method: 'DELETE',
		segments: ['forms', 'application', form],
		required: { formId: form },
		optional: [],
	},
	{
		resource: 'webhook',
		operation: 'update',
		method: 'PUT',
		segments: ['webhooks', 'wh_demo'],
		required: { webhookId: 'wh_demo' },
		refusedWithoutFields: NO_FIELDS,
		optional: [
			{ field: 'Description', parameters: { updateFields: { description: 'To n8n' } }, body: { description: 'To n8n' } },
			{
				field: 'Endpoint',
				parameters: { updateFields: { endpoint: 'https://example.com/hooks/recruiting' } },
				body: { endpoint: 'https://example.com/hooks/recruiting' },
			},
			{
				field: 'Events',
				parameters: { updateFields: { events: ['candidate.updated', 'job.created'] } },
				body: { events: ['candidate.updated', 'job.created'] },
			},
			{ field: 'Name', parameters: { updateFields: { name: 'n8n' } }, body: { name: 'n8n' } },
		],
	},
	{
		resource: 'candidateNote',
		operation: 'create',
		method: 'POST',
		segments: ['candidates', applicationRecord.candidate.id, 'notes'],
		required: { candidateId: locator(applicationRecord.candidate.id), text: 'AI screening: strong match.' },
		requiredBody: { text: 'AI screening: strong match.' },
		optional: [
			{
				field: 'Application ID',
				parameters: { additionalFields: { applicationId: picked(applicationRecord.id) } },
				body: {},
				query: { application_id: applicationRecord.id },
			},
			{
				field: 'Mentioned Users',
				parameters: { additionalFields: { mentionedUsers: [organizer, attendee] } },
				body: { mentioned_users: [organizer, attendee] },
			},
			{ field: 'Restricted', parameters: { additionalFields: { restricted: true } }, body: { restricted: true } },
		],
		emptyGroups: { additionalFields: { applicationId: locator(''), mentionedUsers: [] } },
	},
	{
		resource: 'application',
		operation: 'updateSource',
		method: 'PUT',
		segments: ['candidates', applicationRecord.candidate.id, 'applications', applicationRecord.id, 'source'],
		required: { applicationId: locator(applicationRecord.id), candidateId: locator(applicationRecord.candidate.id) },
		refusedWithoutFields: NO_FIELDS,
		optional: [
			{ field: 'Origin', parameters: { updateFields: { origin: 'referred' } }, body: { origin: 'referred' } },
			{ field: 'Source Name', parameters: { updateFields: { source: 'Employee referral' } }, body: { source: 'Employee referral' } },
			{
				field: 'Contact',
				parameters: { updateFields: { contact: { contact: { id: 'con_1', name: 'Dana Referrer' } } } },
				body: { contact: { id: 'con_1', name: 'Dana Referrer' } },
			},
			{ field: 'User ID (picked from the list)', parameters: { updateFields: { user: picked(attendee) } }, body: { user: { id: attendee } } },
			{
				field: 'Recruiter',
				parameters: { updateFields: { recruiter: { recruiter: { name: 'Agency X' } } } },
				body: { recruiter: { name: 'Agency X' } },
			},
		],
		emptyGroups: { updateFields: { contact: { contact: {} }, recruiter: { recruiter: {} }, source: '', user: locator('') } },
	},
	{
		resource: 'feedback',
		operation: 'complete',
		method: 'POST',
		segments: ['feedback'],
		setup: (sandbox) => sandbox.put('applicationForms', OPTIONAL_FORM),
		required: { applicationId: locator(application), formId: OPTIONAL_FORM.id },
		requiredBody: { application_id: application, form_id: OPTIONAL_FORM.id },
		optional: [
			{
				field: 'Answers (text)',
				parameters: { answers: { answer: [{ questionId: 'q_optional', text: 'Keen on the mission.' }] } },
				body: { answers: [{ question_id: 'q_optional', text: 'Keen on the mission.' }] },
			},
			{
				field: 'Answers (selected option)',
				parameters: { answers: { answer: [{ questionId: 'q_optional', selectedOption: 'opt_yes' }] } },
				body: { answers: [{ question_id: 'q_optional', selected_option: 'opt_yes' }] },
			},
		],
		emptyGroups: { answers: {} },
	},
];

/** Table 1's outcome for these parameters: the required body, or the refusal before any request. */
async function expectAsRequiredOnly(write: WriteOperation, parameters: JsonObject) {
	if (write.refusedWithoutFields) {
		const result = await fx.run({ resource: write.resource, operation: write.operation, ...parameters } as INodeParameters);
		expect(result.error?.message).toBe(write.refusedWithoutFields);
		expect(fx.sandbox.requests).toHaveLength(0);
		return;
	}
	await expectRequest(write, parameters, write.requiredBody);
}

/** The query the optional fields given add up to. */
const queryOf = (fields: OptionalField[]): Record<string, string> => Object.assign({}, ...fields.map((field) => field.query ?? {}));

/** Objects merged key by key, lists joined (so two attendees or two answers add up). */
function merge(target: JsonObject, source: JsonObject): JsonObject {
	const out: JsonObject = { ...target };
	for (const [key, value] of Object.entries(source)) {
		const current = out[key];
		if (Array.isArray(current) && Array.isArray(value)) out[key] = [...current, ...value];
		else if (isObject(current) && isObject(value)) out[key] = merge(current, value);
		else out[key] = value;
	}
	return out;
}
const isObject = (value: Json | undefined): value is JsonObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const mergeAll = (base: JsonObject, parts: JsonObject[]) => parts.reduce(merge, base);

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture();
});
afterAll(async () => await fx.close());
beforeEach(() => fx.sandbox.reset());

const name = (write: WriteOperation) => `${write.resource} ${write.operation}`;

/** Runs the operation and asserts the one request the sandbox received, whole, and its success. */
async function expectRequest(write: WriteOperation, parameters: JsonObject, body: JsonObject | undefined, query: Record<string, string> = {}) {
	write.setup?.(fx.sandbox);
	const result = await fx.run({ resource: write.resource, operation: write.operation, ...parameters } as INodeParameters);
	expect(result.error).toBeUndefined();
	const requests = fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
	const read = write.readsFirst && { method: 'GET', path: apiPath(fx.sandbox, ...write.readsFirst), query: {}, body: undefined };
	expect(requests).toStrictEqual([
		...(read ? [read] : []),
		{ method: write.method, path: apiPath(fx.sandbox, ...write.segments), query, body },
	]);
	for (const request of fx.sandbox.requests) {
		expect(request.status).toBeGreaterThanOrEqual(200);
		expect(request.status).toBeLessThan(300);
	}
}

test('the table holds every write operation of the node: fourteen of the 26', async () => {
	const { resources } = await import('../../nodes/Recruiting/actions/resources');
	const all = Object.entries(resources).flatMap(([resource, operations]) =>
		Object.keys(operations).map((operation) => `${resource} ${operation}`),
	);
	expect(all).toHaveLength(26);
	const reads = all.filter((operation) => operation.endsWith(' get') || operation.endsWith(' getMany'));
	expect(WRITES.map(name).sort()).toEqual(all.filter((operation) => !reads.includes(operation)).sort());
});

describe('1. only the required parameters', () => {
	test.each(WRITES.map((write) => [name(write), write] as const))('%s', async (_, write) => {
		await expectAsRequiredOnly(write, write.required);
	});
});

describe('2. every optional field set', () => {
	const withOptional = WRITES.filter((write) => write.optional.length > 0);
	test.each(withOptional.map((write) => [name(write), write.optional.length, write] as const))(
		'%s (%d fields)',
		async (_, __, write) => {
			await expectRequest(
				write,
				mergeAll(write.required, write.optional.map((o) => o.parameters)),
				mergeAll(write.requiredBody ?? {}, write.optional.map((o) => o.body)),
				queryOf(write.optional),
			);
		},
	);
});

describe('3. each optional field alone', () => {
	const rows = WRITES.flatMap((write) => write.optional.map((optional) => [name(write), optional.field, write, optional] as const));
	test.each(rows)('%s: %s', async (_, __, write, optional) => {
		await expectRequest(write, merge(write.required, optional.parameters), merge(write.requiredBody ?? {}, optional.body), optional.query);
	});
});

describe('4. groups and lists added with nothing set in them: as with only the required parameters', () => {
	const withGroups = WRITES.filter((write) => write.emptyGroups !== undefined);
	test.each(withGroups.map((write) => [name(write), write] as const))('%s', async (_, write) => {
		await expectAsRequiredOnly(write, merge(write.required, write.emptyGroups!));
	});
});
