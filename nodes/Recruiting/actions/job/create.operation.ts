import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { checkLength, checkOneOf, invalidField, toIsoDateTime } from '../../../shared/validation';
import { fieldGroup, tagsCollection } from '../common.descriptions';
import { compact, groupEntries, nonEmpty } from '../helpers';

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

const label = (value: string) =>
	value
		.split('_')
		.map((word) => (word === 'na' ? 'N/A' : word.charAt(0).toUpperCase() + word.slice(1)))
		.join(' ');
const optionsOf = (values: readonly string[]) => values.map((value) => ({ name: label(value), value }));

const stringField = (
	displayName: string,
	name: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({ displayName, name, type: 'string', default: '', ...extra });

const properties: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		description: 'The job title, 1 to 100 characters',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			fieldGroup({
				displayName: 'Application Form',
				name: 'applicationForm',
				inner: 'form',
				values: [
					...BASE_FORM_KEYS.map((key) =>
						stringField(`${label(key)} Setting`, key, {
							placeholder: 'off',
							description: `Base form setting for the ${label(key).toLowerCase()} field; leave empty to keep the service default`,
						}),
					),
					stringField('Additional Form IDs', 'additionalFormIds', {
						description: 'Comma-separated IDs of additional application forms',
					}),
				],
			}),
			fieldGroup({
				displayName: 'Auto Responder',
				name: 'autoResponder',
				inner: 'responder',
				values: [
					stringField('ID', 'id'),
					stringField('Email Subject', 'emailSubject'),
					stringField('Email Body', 'emailBody', { typeOptions: { rows: 4 } }),
				],
			}),
			fieldGroup({
				displayName: 'Category',
				name: 'category',
				values: [stringField('ID', 'id'), stringField('Name', 'name')],
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
			stringField('Description', 'description', {
				typeOptions: { rows: 6 },
				description: 'The job description, at most 100,000 characters',
			}),
			{
				displayName: 'Experience',
				name: 'experience',
				type: 'options',
				options: optionsOf(JOB_EXPERIENCE),
				default: 'na',
			},
			stringField('Job Code', 'jobCode', { description: 'Internal code of the job' }),
			fieldGroup({
				displayName: 'Language',
				name: 'language',
				values: [
					stringField('Code', 'code', { placeholder: 'en' }),
					stringField('ID', 'id'),
					stringField('Name', 'name'),
				],
			}),
			fieldGroup({
				displayName: 'Location',
				name: 'location',
				values: [
					stringField('City', 'city'),
					stringField('Country Code', 'countryCode', { placeholder: 'IE' }),
					stringField('Country ID', 'countryId'),
					stringField('Country Name', 'countryName'),
					stringField('Remote', 'remote', {
						placeholder: 'not_remote',
						description: 'The remote setting, for example not_remote',
					}),
					stringField('State Code', 'stateCode'),
					stringField('State ID', 'stateId'),
					stringField('State Name', 'stateName'),
				],
			}),
			stringField('Owner ID', 'ownerId', { placeholder: 'usr_…', description: 'User ID of the job owner' }),
			stringField('Salary', 'salary'),
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['create'] } },
	properties,
);

/**
 * `compact` over text sub-fields: every value is sent as a string (the API's type for all of them;
 * an expression may give a number), and empty ones are left out.
 */
const compactText = (object: IDataObject): IDataObject =>
	compact(
		Object.fromEntries(
			Object.entries(object).map(([key, value]) => [key, value === undefined || value === null ? value : String(value)]),
		),
	);

/** The first (only) entry of a single-group field, if the user added it. */
const group = (fields: IDataObject, name: string, inner?: string): IDataObject | undefined =>
	groupEntries(fields, name, inner)[0];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const title = this.getNodeParameter('title', itemIndex) as string;
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	// Built with empty values allowed, then compacted: an optional field left empty is not sent.
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

	const deadline = group(fields, 'deadline');
	if (deadline) {
		body.deadline = compact({
			closes_at: deadline.closesAt ? toIsoDateTime(node, itemIndex, 'Closes At', deadline.closesAt) : undefined,
			auto_close: deadline.autoClose === true,
		});
	}
	const category = group(fields, 'category');
	if (category) body.category = nonEmpty(compactText({ id: category.id, name: category.name }));
	const language = group(fields, 'language');
	if (language) body.language = nonEmpty(compactText({ id: language.id, name: language.name, code: language.code }));
	const location = group(fields, 'location');
	if (location) {
		const state = compactText({ id: location.stateId, name: location.stateName, code: location.stateCode });
		const country = compactText({ id: location.countryId, name: location.countryName, code: location.countryCode });
		body.location = nonEmpty(
			compact({
				...compactText({ city: location.city, remote: location.remote }),
				state: nonEmpty(state),
				country: nonEmpty(country),
			}),
		);
	}
	const form = group(fields, 'applicationForm', 'form');
	if (form) {
		const baseForm = compactText(Object.fromEntries(BASE_FORM_KEYS.map((key) => [key, form[key]])));
		const additionalFormIds = String(form.additionalFormIds ?? '')
			.split(',')
			.map((id) => id.trim())
			.filter((id) => id !== '');
		body.application_form = nonEmpty(
			compact({
				base_form: nonEmpty(baseForm),
				additional_form_ids: additionalFormIds.length ? additionalFormIds : undefined,
			}),
		);
	}
	const responder = group(fields, 'autoResponder', 'responder');
	if (responder) {
		body.auto_responder = nonEmpty(
			compactText({ id: responder.id, email_subject: responder.emailSubject, email_body: responder.emailBody }),
		);
	}
	const tags = groupEntries(fields, 'tags', 'tag');
	if (tags.length) {
		body.tags = tags.map((tag) => {
			const value = compactText({ id: tag.id, name: tag.name });
			// As candidate update: an empty entry is refused here; a name without an ID is the service's call.
			if (Object.keys(value).length === 0) throw invalidField(node, itemIndex, 'Tags', 'each tag needs an ID or a name');
			return value;
		});
	}

	return await recruitingRequestData.call(this, {
		method: 'POST',
		path: resourcePath('jobs'),
		body: compact(body),
		itemIndex,
	});
}
