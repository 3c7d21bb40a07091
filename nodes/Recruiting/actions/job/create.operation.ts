import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { checkLength, checkOneOf, toIsoDateTime } from '../../../shared/validation';
import { labelOf, optionsOf } from '../../../shared/options';
import { additionalFields, fieldGroup, idNameGroup, tagsCollection, textField } from '../common.descriptions';
import { asText, compact, locatorValue, nested, readCollection, readGroup, splitList, tagReferences, textObject } from '../helpers';
import { userLocator, usersField } from '../user/fields';
import type { OperationOption } from '../types';

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
export const JOB_EXPERIENCE = ['na', 'intern', 'entry_level', 'mid_level', 'senior'] as const;
const BASE_FORM_KEYS = [
	'current_title',
	'current_company',
	'location',
	'phone',
	'resume',
	'cover_letter',
] as const;

export const option: OperationOption = {
	name: 'Create',
	value: 'create',
	description: 'Creates a job from a title and optional details. Returns the created job.',
	action: 'Create a job',
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		description: 'The job title as plain text, 1 to 100 characters, e.g. Senior Backend Engineer',
	},
	additionalFields([
		fieldGroup({
			displayName: 'Application Form',
			name: 'applicationForm',
			inner: 'form',
			description: 'Which fields the job\'s application form asks for, and extra forms to add',
			values: [
				...BASE_FORM_KEYS.map((key) =>
					textField(`${labelOf(key)} Setting`, key, {
						placeholder: 'off',
						description: `Whether the application form asks for the ${labelOf(key).toLowerCase()}: off, optional or required; leave empty to keep the service default`,
					}),
				),
				textField('Additional Form IDs', 'additionalFormIds', {
					description: 'Comma-separated IDs (form_…) of additional application forms to attach, e.g. form_a1, form_b2',
				}),
			],
		}),
		fieldGroup({
			displayName: 'Assigned Team',
			name: 'assignedTeam',
			inner: 'team',
			description: 'Who works on the job: its team and its recruiters (a field of the service\'s full API)',
			values: [
				usersField('Assigned User Names or IDs', 'assignedUsers', 'The users (usr_…) on the job\'s team'),
				usersField('Recruiter Names or IDs', 'recruiterIds', 'The users (usr_…) who recruit for the job'),
			],
		}),
		fieldGroup({
			displayName: 'Auto Responder',
			name: 'autoResponder',
			inner: 'responder',
			description: 'The e-mail sent automatically to each applicant of the job',
			values: [
				{
					displayName: 'Email Template Name or ID',
					name: 'id',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getEmailTemplates' },
					default: '',
					description:
						'The email template the auto-response is based on. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				textField('Email Subject', 'emailSubject', { description: 'The subject line of the auto-response e-mail' }),
				textField('Email Body', 'emailBody', {
					typeOptions: { rows: 4 },
					description: 'The body text of the auto-response e-mail',
				}),
			],
		}),
		idNameGroup('Category', 'category', 'The job\'s category, by ID and/or name as the service defines it', {
			id: 'The ID of the job category as the service defines it',
			name: 'The name of the job category, e.g. Engineering',
		}),
		fieldGroup({
			displayName: 'Deadline',
			name: 'deadline',
			description: 'When applications close',
			values: [
				{
					displayName: 'Closes At',
					name: 'closesAt',
					type: 'dateTime',
					default: '',
					description: 'When the job stops taking applications: ISO 8601 date and time, best with a time zone offset, e.g. 2030-01-31T17:00:00Z',
				},
				{
					displayName: 'Auto Close',
					name: 'autoClose',
					type: 'boolean',
					default: false,
					description: 'Whether the job closes by itself at the deadline',
				},
			],
		}),
		textField('Description', 'description', {
			typeOptions: { rows: 6 },
			description: 'The job description (the ad text), at most 100,000 characters',
		}),
		{
			displayName: 'Experience',
			name: 'experience',
			type: 'options',
			options: optionsOf(JOB_EXPERIENCE, { na: 'N/A' }),
			default: 'na',
			description: 'The experience level asked for: na, intern, entry_level, mid_level or senior',
		},
		textField('Job Code', 'jobCode', { description: 'The company\'s internal code for the job, as plain text' }),
		idNameGroup(
			'Language',
			'language',
			'The language the job ad is written in',
			{ id: 'The ID of the language as the service defines it', name: 'The language\'s name in English, e.g. English' },
			[textField('Code', 'code', { placeholder: 'en', description: 'The language code, e.g. en' })],
		),
		fieldGroup({
			displayName: 'Location',
			name: 'location',
			description: 'Where the job is, and whether it can be done remotely',
			values: [
				textField('City', 'city', { description: 'The city of the job, at most 150 characters, e.g. Dublin' }),
				textField('Country Code', 'countryCode', {
					placeholder: 'IE',
					description: 'Two-letter ISO 3166-1 country code, e.g. IE',
				}),
				textField('Country ID', 'countryId', { description: 'The ID of the country as the service defines it' }),
				textField('Country Name', 'countryName', { description: 'The country\'s name in English, e.g. Ireland' }),
				textField('Remote', 'remote', {
					placeholder: 'not_remote',
					description: 'The remote setting: not_remote, wfh_flexible, fully_remote or covid_remote',
				}),
				textField('State Code', 'stateCode', { description: 'The state or region code, e.g. CA' }),
				textField('State ID', 'stateId', { description: 'The ID of the state or region as the service defines it' }),
				textField('State Name', 'stateName', { description: 'The state or region name, e.g. California' }),
			],
		}),
		fieldGroup({
			displayName: 'Notifications',
			name: 'notifications',
			description: 'Who is told about the job\'s applications (a field of the service\'s full API)',
			values: [
				usersField(
					'New Application Email Names or IDs',
					'newApplicationEmail',
					'The users (usr_…) e-mailed about each new application; an expression may also give e-mail addresses',
				),
			],
		}),
		userLocator(
			'ownerId',
			'Owner',
			'The company user who owns the job: pick one from the list (searched by name and e-mail), or give their ID (usr_…)',
			false,
		),
		textField('Salary', 'salary', { description: 'The salary as free text, e.g. €60,000–€70,000 a year' }),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: optionsOf(JOB_STATUSES),
			default: 'drafted',
			description: 'The job\'s status: drafted, published, closed or internal',
		},
		tagsCollection('Tags to put on the job, each picked from the account\'s tags, by ID or by name'),
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: optionsOf(JOB_TYPES),
			default: 'full_time',
			description: 'The employment type, e.g. full_time, part_time or contract',
		},
	]),
];

/** The IDs of a users dropdown (or an expression's list or comma-separated text); undefined when none. */
function nonEmptyList(value: unknown): string[] | undefined {
	const list = splitList(value);
	return list.length ? list : undefined;
}

export const output = 'job';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const title = this.getNodeParameter('title', itemIndex) as string;
	const fields = readCollection.call(this, 'additionalFields', itemIndex);
	// Text goes as typed, spaces kept (asText), where the other writes trim: trimming here would change
	// requests that workflows already send. Empty values are compacted away at the end.
	const body: IDataObject = { title: checkLength(node, itemIndex, 'Title', title, 1, 100) };

	if (fields.description !== undefined) {
		body.description = checkLength(node, itemIndex, 'Description', String(fields.description), 0, 100000);
	}
	if (fields.status !== undefined) body.status = checkOneOf(node, itemIndex, 'Status', fields.status, JOB_STATUSES);
	if (fields.type !== undefined) body.type = checkOneOf(node, itemIndex, 'Type', fields.type, JOB_TYPES);
	if (fields.experience !== undefined) {
		body.experience = checkOneOf(node, itemIndex, 'Experience', fields.experience, JOB_EXPERIENCE);
	}
	if (fields.salary !== undefined) body.salary = String(fields.salary);
	if (fields.jobCode !== undefined) body.job_code = String(fields.jobCode);
	if (fields.ownerId !== undefined) body.owner_id = asText(locatorValue(fields.ownerId));

	const deadline = readGroup(fields.deadline, 'deadline');
	if (deadline) {
		body.deadline = compact({
			closes_at: deadline.closesAt ? toIsoDateTime(node, itemIndex, 'Closes At', deadline.closesAt) : undefined,
			auto_close: deadline.autoClose === true,
		});
	}
	const category = readGroup(fields.category, 'category');
	if (category) body.category = textObject({ id: category.id, name: category.name }, asText);
	const language = readGroup(fields.language, 'language');
	if (language) body.language = textObject({ id: language.id, name: language.name, code: language.code }, asText);
	const location = readGroup(fields.location, 'location');
	if (location) {
		body.location = nested({
			...textObject({ city: location.city, remote: location.remote }, asText),
			state: textObject({ id: location.stateId, name: location.stateName, code: location.stateCode }, asText),
			country: textObject({ id: location.countryId, name: location.countryName, code: location.countryCode }, asText),
		});
	}
	const form = readGroup(fields.applicationForm, 'form');
	if (form) {
		const additionalFormIds = splitList(form.additionalFormIds);
		body.application_form = nested({
			base_form: textObject(Object.fromEntries(BASE_FORM_KEYS.map((key) => [key, form[key]])), asText),
			additional_form_ids: additionalFormIds.length ? additionalFormIds : undefined,
		});
	}
	const responder = readGroup(fields.autoResponder, 'responder');
	if (responder) {
		body.auto_responder = textObject(
			{ id: responder.id, email_subject: responder.emailSubject, email_body: responder.emailBody },
			asText,
		);
	}
	const team = readGroup(fields.assignedTeam, 'team');
	if (team) {
		body.assigned_team = nested({ assigned_users: nonEmptyList(team.assignedUsers), recruiter_ids: nonEmptyList(team.recruiterIds) });
	}
	const notifications = readGroup(fields.notifications, 'notifications');
	if (notifications) body.notifications = nested({ new_application_email: nonEmptyList(notifications.newApplicationEmail) });
	body.tags = await tagReferences.call(this, itemIndex, fields.tags, asText);

	return await recruitingRequestData.call(this, {
		method: 'POST',
		path: resourcePath('jobs'),
		body: compact(body),
		itemIndex,
	});
}
