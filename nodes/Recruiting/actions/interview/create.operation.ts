import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import {
	checkEmail,
	checkHttpUrl,
	checkOneOf,
	checkTimeZone,
	instantIn,
	invalidField,
	requireId,
	toIsoDateTime,
} from '../../../shared/validation';
import { optionsOf } from '../../../shared/options';
import { applicationLocator } from '../application/fields';
import { additionalFields, byName } from '../common.descriptions';
import { enteredText } from '../../../shared/text';
import { asText, locatorValue, readCollection, readGroups } from '../helpers';
import { userLocator } from '../user/fields';
import type { OperationOption } from '../types';

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

/** Every IANA zone the runtime knows, plus UTC, as picker options. */
function timeZoneOptions(): Array<{ name: string; value: string }> {
	const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
	const zones = new Set(intl.supportedValuesOf?.('timeZone') ?? []);
	zones.add('UTC');
	return [...zones].sort().map((zone) => ({ name: zone, value: zone }));
}

export const option: OperationOption = {
	name: 'Create',
	value: 'create',
	description:
		'Schedules an interview for an application: type, start and end, time zone, attendees. Returns the created interview.',
	action: 'Schedule an interview for an application',
	toolDescription: 'Schedule an interview for an application (app_…)',
};

export const properties: INodeProperties[] = [
	applicationLocator(
		'The ID (app_…) of the application the interview is for, or pick one from the list; e.g. the ID of an Application → Get Many item or of an application.* trigger item\'s object',
	),
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		required: true,
		options: optionsOf(INTERVIEW_TYPES).sort(byName),
		default: 'online',
		description: 'How the interview takes place: phone, online or on_site',
	},
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			'When the interview starts: ISO 8601 date and time, e.g. 2030-01-31T09:30:00+01:00; without an offset it is read in the Time Zone below',
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			'When the interview ends: ISO 8601 date and time, e.g. 2030-01-31T10:30:00+01:00; must be after the start',
	},
	{
		displayName: 'Time Zone',
		name: 'timeZone',
		type: 'options',
		options: timeZoneOptions(),
		default: 'UTC',
		description: 'The IANA time zone name of the start and end, e.g. Europe/Dublin or UTC',
	},
	{
		displayName: 'Attendees',
		name: 'attendees',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Attendee',
		default: {},
		description: 'Who is invited: company users, the candidate, or outside guests by e-mail',
		options: [
			{
				displayName: 'Attendee',
				name: 'attendee',
				values: [
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: optionsOf(ATTENDEE_TYPES, {
							guest: { description: 'Someone outside the company, invited by email' },
							user: { description: 'A user of the company account' },
						}).sort(byName),
						default: 'user',
						description: 'The kind of attendee: user (a company user), candidate, or guest (invited by e-mail)',
					},
					{
						displayName: 'User Name or ID',
						name: 'userId',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getUsers' },
						default: '',
						description:
							'The company user (usr_…) to invite. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						displayOptions: { show: { type: ['user'] } },
					},
					{
						displayName: 'Application ID',
						name: 'applicationId',
						type: 'string',
						default: '',
						placeholder: 'app_…',
						description:
							'The ID (app_…) of the candidate\'s application; leave empty for the interview\'s own application',
						displayOptions: { show: { type: ['candidate'] } },
					},
					{
						displayName: 'Email',
						name: 'email',
						type: 'string',
						default: '',
						placeholder: 'name@email.com',
						description: 'The guest\'s e-mail address, e.g. name@example.com',
						displayOptions: { show: { type: ['guest'] } },
					},
				],
			},
		],
	},
	additionalFields([
		{
			displayName: 'Attach Resume to Invite',
			name: 'attachResumeToInvite',
			type: 'boolean',
			default: false,
			description: 'Whether the invitation carries the candidate\'s resume',
		},
		{
			displayName: 'Location',
			name: 'location',
			type: 'string',
			default: '',
			description: 'Where the interview takes place, as plain text (the address, for on-site interviews)',
		},
		{
			displayName: 'Meeting URL',
			name: 'meetingUrl',
			type: 'string',
			default: '',
			placeholder: 'https://meet.example.com/abc-defg-hij',
			description: 'Absolute http:// or https:// URL of the online meeting',
		},
		{
			displayName: 'Note for Attendees',
			name: 'noteForAttendees',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'A note about the interview for the other attendees (users and guests)',
		},
		{
			displayName: 'Note for Candidate',
			name: 'noteForCandidate',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'A note about the interview for the candidate, e.g. what to prepare',
		},
		{
			displayName: 'Online Meeting Type',
			name: 'onlineMeetingType',
			type: 'options',
			options: optionsOf(ONLINE_MEETING_TYPES, {
				hangouts_meet: 'Google Meet',
				teams_for_business: 'Microsoft Teams for Business',
				skype_for_business: 'Skype for Business',
				skype_for_consumer: 'Skype for Consumer',
			}).sort(byName),
			default: 'hangouts_meet',
			description: 'The meeting service of an online interview, e.g. Google Meet or Microsoft Teams',
		},
		userLocator(
			'organizerId',
			'Organizer',
			'The company user who organizes the interview: pick one from the list (searched by name and e-mail), or give their ID (usr_…)',
			false,
		),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			placeholder: 'Interview with …',
			description: 'The interview\'s title, as plain text, e.g. Interview with Jane Doe',
		},
	]),
];

/** The attendee shape the service expects: both ids always present (null where they do not apply). */
function attendeeBody(
	this: IExecuteFunctions,
	itemIndex: number,
	attendee: IDataObject,
	applicationId: string,
): IDataObject {
	const node = this.getNode();
	const type = checkOneOf(node, itemIndex, 'Attendees', attendee.type, ATTENDEE_TYPES);
	if (type === 'user') {
		const userId = enteredText(attendee.userId);
		if (userId === '') throw invalidField(node, itemIndex, 'User ID', 'a user attendee needs a user ID');
		return { type, application_id: null, user_id: userId };
	}
	if (type === 'candidate') {
		return { type, application_id: enteredText(attendee.applicationId) || applicationId, user_id: null };
	}
	return {
		type,
		application_id: null,
		user_id: null,
		email: checkEmail(node, itemIndex, 'Email', attendee.email),
	};
}

/** Built field by field: the service rejects unknown properties, and empty optional ones are left out. */
export const output = 'interview';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const applicationId = requireId.call(this, 'applicationId', itemIndex, 'Application');
	const type = checkOneOf(node, itemIndex, 'Type', this.getNodeParameter('type', itemIndex), INTERVIEW_TYPES);
	const start = toIsoDateTime(node, itemIndex, 'Start', this.getNodeParameter('start', itemIndex, ''));
	const end = toIsoDateTime(node, itemIndex, 'End', this.getNodeParameter('end', itemIndex, ''));
	const timeZone = checkTimeZone(node, itemIndex, 'Time Zone', this.getNodeParameter('timeZone', itemIndex, 'UTC'));
	// Instants: a time without an offset is meant in the interview's Time Zone, not in n8n's.
	if (instantIn(end, timeZone) <= instantIn(start, timeZone)) {
		throw invalidField(node, itemIndex, 'End', `must be after the start (${start})`);
	}
	const attendees = readGroups(readCollection.call(this, 'attendees', itemIndex), 'attendee');
	const fields = readCollection.call(this, 'additionalFields', itemIndex);

	const event: IDataObject = {};
	if (enteredText(fields.title)) event.title = enteredText(fields.title);
	if (enteredText(fields.location)) event.location = enteredText(fields.location);
	event.type = type;
	event.start = start;
	event.end = end;
	event.time_zone = timeZone;
	const organizerId = enteredText(locatorValue(fields.organizerId));
	if (organizerId) event.organizer_id = organizerId;
	if (attendees.length) {
		event.attendees = attendees.map((attendee) => attendeeBody.call(this, itemIndex, attendee, applicationId));
	}

	const meta: IDataObject = {};
	if (enteredText(fields.noteForCandidate)) meta.note_for_candidate = asText(fields.noteForCandidate);
	if (enteredText(fields.noteForAttendees)) meta.note_for_attendees = asText(fields.noteForAttendees);
	if (fields.attachResumeToInvite !== undefined) {
		meta.attach_resume_to_invite = fields.attachResumeToInvite === true;
	}
	if (fields.onlineMeetingType !== undefined) {
		meta.online_meeting_type = checkOneOf(
			node,
			itemIndex,
			'Online Meeting Type',
			fields.onlineMeetingType,
			ONLINE_MEETING_TYPES,
		);
	}
	if (enteredText(fields.meetingUrl)) meta.meeting_url = checkHttpUrl(node, itemIndex, 'Meeting URL', fields.meetingUrl);

	const body: IDataObject = { application_id: applicationId, event };
	if (Object.keys(meta).length) body.meta = meta;

	return await recruitingRequestData.call(this, {
		method: 'POST',
		path: resourcePath('interviews'),
		body,
		itemIndex,
		notFound: `application "${applicationId}"`,
	});
}
