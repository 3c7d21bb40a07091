import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import { checkLength, checkOneOf, toIsoDateTime } from '../../../shared/validation';

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
			{
				displayName: 'Application Form',
				name: 'applicationForm',
				type: 'fixedCollection',
				default: {},
				options: [
					{
						displayName: 'Form',
						name: 'form',
						values: [
							...BASE_FORM_KEYS.map(
								(key): INodeProperties => ({
									displayName: `${label(key)} Setting`,
									name: key,
									type: 'string',
									default: '',
									placeholder: 'off',
									description: `Base form setting for the ${label(key).toLowerCase()} field; leave empty to keep the service default`,
								}),
							),
							{
								displayName: 'Additional Form IDs',
								name: 'additionalFormIds',
								type: 'string',
								default: '',
								description: 'Comma-separated IDs of additional application forms',
							},
						],
					},
				],
			},
			{
				displayName: 'Auto Responder',
				name: 'autoResponder',
				type: 'fixedCollection',
				default: {},
				options: [
					{
						displayName: 'Auto Responder',
						name: 'responder',
						values: [
							{ displayName: 'ID', name: 'id', type: 'string', default: '' },
							{ displayName: 'Email Subject', name: 'emailSubject', type: 'string', default: '' },
							{
								displayName: 'Email Body',
								name: 'emailBody',
								type: 'string',
								typeOptions: { rows: 4 },
								default: '',
							},
						],
					},
				],
			},
			{
				displayName: 'Category',
				name: 'category',
				type: 'fixedCollection',
				default: {},
				options: [
					{
						displayName: 'Category',
						name: 'category',
						values: [
							{ displayName: 'ID', name: 'id', type: 'string', default: '' },
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Deadline',
				name: 'deadline',
				type: 'fixedCollection',
				default: {},
				options: [
					{
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
					},
				],
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				typeOptions: { rows: 6 },
				default: '',
				description: 'The job description, at most 100,000 characters',
			},
			{
				displayName: 'Experience',
				name: 'experience',
				type: 'options',
				options: optionsOf(JOB_EXPERIENCE),
				default: 'na',
			},
			{ displayName: 'Job Code', name: 'jobCode', type: 'string', default: '', description: 'Internal code of the job' },
			{
				displayName: 'Language',
				name: 'language',
				type: 'fixedCollection',
				default: {},
				options: [
					{
						displayName: 'Language',
						name: 'language',
						values: [
							{ displayName: 'Code', name: 'code', type: 'string', default: '', placeholder: 'en' },
							{ displayName: 'ID', name: 'id', type: 'string', default: '' },
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Location',
				name: 'location',
				type: 'fixedCollection',
				default: {},
				options: [
					{
						displayName: 'Location',
						name: 'location',
						values: [
							{ displayName: 'City', name: 'city', type: 'string', default: '' },
							{ displayName: 'Country Code', name: 'countryCode', type: 'string', default: '', placeholder: 'IE' },
							{ displayName: 'Country ID', name: 'countryId', type: 'string', default: '' },
							{ displayName: 'Country Name', name: 'countryName', type: 'string', default: '' },
							{
								displayName: 'Remote',
								name: 'remote',
								type: 'string',
								default: '',
								placeholder: 'not_remote',
								description: 'The remote setting, for example not_remote',
							},
							{ displayName: 'State Code', name: 'stateCode', type: 'string', default: '' },
							{ displayName: 'State ID', name: 'stateId', type: 'string', default: '' },
							{ displayName: 'State Name', name: 'stateName', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Owner ID',
				name: 'ownerId',
				type: 'string',
				default: '',
				placeholder: 'usr_…',
				description: 'User ID of the job owner',
			},
			{ displayName: 'Salary', name: 'salary', type: 'string', default: '' },
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: optionsOf(JOB_STATUSES),
				default: 'drafted',
			},
			{
				displayName: 'Tags',
				name: 'tags',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [
					{
						displayName: 'Tag',
						name: 'tag',
						values: [
							{ displayName: 'ID', name: 'id', type: 'string', default: '' },
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
						],
					},
				],
			},
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

/** Drops empty strings so an untouched sub-field is not sent. */
function compact(object: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(object).filter(([, value]) => value !== '' && value !== undefined && value !== null),
	);
}

function group(fields: IDataObject, name: string, inner: string): IDataObject | undefined {
	const value = (fields[name] as IDataObject | undefined)?.[inner];
	return value && typeof value === 'object' ? (value as IDataObject) : undefined;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const title = this.getNodeParameter('title', itemIndex) as string;
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
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

	const deadline = group(fields, 'deadline', 'deadline');
	if (deadline) {
		body.deadline = compact({
			closes_at: deadline.closesAt ? toIsoDateTime(node, itemIndex, 'Closes At', deadline.closesAt) : undefined,
			auto_close: deadline.autoClose === true,
		});
	}
	const category = group(fields, 'category', 'category');
	if (category) body.category = compact({ id: category.id, name: category.name });
	const language = group(fields, 'language', 'language');
	if (language) body.language = compact({ id: language.id, name: language.name, code: language.code });
	const location = group(fields, 'location', 'location');
	if (location) {
		const state = compact({ id: location.stateId, name: location.stateName, code: location.stateCode });
		const country = compact({ id: location.countryId, name: location.countryName, code: location.countryCode });
		body.location = compact({
			city: location.city,
			remote: location.remote,
			state: Object.keys(state).length ? state : undefined,
			country: Object.keys(country).length ? country : undefined,
		});
	}
	const form = group(fields, 'applicationForm', 'form');
	if (form) {
		const baseForm = compact(Object.fromEntries(BASE_FORM_KEYS.map((key) => [key, form[key]])));
		const additionalFormIds = String(form.additionalFormIds ?? '')
			.split(',')
			.map((id) => id.trim())
			.filter((id) => id !== '');
		body.application_form = { base_form: baseForm, additional_form_ids: additionalFormIds };
	}
	const responder = group(fields, 'autoResponder', 'responder');
	if (responder) {
		body.auto_responder = compact({
			id: responder.id,
			email_subject: responder.emailSubject,
			email_body: responder.emailBody,
		});
	}
	const tags = (fields.tags as IDataObject | undefined)?.tag as IDataObject[] | undefined;
	if (tags?.length) body.tags = tags.map((tag) => compact({ id: tag.id, name: tag.name }));

	return await recruitingRequestData.call(this, {
		method: 'POST',
		path: resourcePath('jobs'),
		body,
		itemIndex,
	});
}
