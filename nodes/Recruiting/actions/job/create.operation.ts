import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { checkLength, checkOneOf, toIsoDateTime } from '../../../shared/validation';
import { additionalFields, fieldGroup, labelOf, optionsOf, tagsCollection, textField } from '../common.descriptions';
import { asText, compact, nested, readCollection, readGroup, splitList, tagReferences, textObject } from '../helpers';

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

const properties: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		description: 'The job title, 1 to 100 characters',
	},
	additionalFields([
		fieldGroup({
			displayName: 'Application Form',
			name: 'applicationForm',
			inner: 'form',
			values: [
				...BASE_FORM_KEYS.map((key) =>
					textField(`${labelOf(key)} Setting`, key, {
						placeholder: 'off',
						description: `Base form setting for the ${labelOf(key).toLowerCase()} field; leave empty to keep the service default`,
					}),
				),
				textField('Additional Form IDs', 'additionalFormIds', {
					description: 'Comma-separated IDs of additional application forms',
				}),
			],
		}),
		fieldGroup({
			displayName: 'Auto Responder',
			name: 'autoResponder',
			inner: 'responder',
			values: [
				textField('ID', 'id'),
				textField('Email Subject', 'emailSubject'),
				textField('Email Body', 'emailBody', { typeOptions: { rows: 4 } }),
			],
		}),
		fieldGroup({
			displayName: 'Category',
			name: 'category',
			values: [textField('ID', 'id'), textField('Name', 'name')],
		}),
		fieldGroup({
			displayName: 'Deadline',
			name: 'deadline',
			values: [
				{ displayName: 'Closes At', name: 'closesAt', type: 'dateTime', default: '' },
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
			description: 'The job description, at most 100,000 characters',
		}),
		{
			displayName: 'Experience',
			name: 'experience',
			type: 'options',
			options: optionsOf(JOB_EXPERIENCE, { na: 'N/A' }),
			default: 'na',
		},
		textField('Job Code', 'jobCode', { description: 'Internal code of the job' }),
		fieldGroup({
			displayName: 'Language',
			name: 'language',
			values: [
				textField('Code', 'code', { placeholder: 'en' }),
				textField('ID', 'id'),
				textField('Name', 'name'),
			],
		}),
		fieldGroup({
			displayName: 'Location',
			name: 'location',
			values: [
				textField('City', 'city'),
				textField('Country Code', 'countryCode', { placeholder: 'IE' }),
				textField('Country ID', 'countryId'),
				textField('Country Name', 'countryName'),
				textField('Remote', 'remote', {
					placeholder: 'not_remote',
					description: 'The remote setting, for example not_remote',
				}),
				textField('State Code', 'stateCode'),
				textField('State ID', 'stateId'),
				textField('State Name', 'stateName'),
			],
		}),
		textField('Owner ID', 'ownerId', { placeholder: 'usr_…', description: 'User ID of the job owner' }),
		textField('Salary', 'salary'),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: optionsOf(JOB_STATUSES),
			default: 'drafted',
		},
		tagsCollection('Tags to put on the job'),
		{
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: optionsOf(JOB_TYPES),
			default: 'full_time',
			description: 'The employment type',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['create'] } },
	properties,
);

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
	if (fields.ownerId !== undefined) body.owner_id = String(fields.ownerId);

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
	body.tags = await tagReferences.call(this, itemIndex, fields.tags, asText);

	return await recruitingRequestData.call(this, {
		method: 'POST',
		path: resourcePath('jobs'),
		body: compact(body),
		itemIndex,
	});
}
