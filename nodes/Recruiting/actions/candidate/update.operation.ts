import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import {
	checkEmail,
	checkSomeFields,
	checkHttpUrl,
	checkIntegerInRange,
	invalidField,
	requireId,
} from '../../../shared/validation';
import { tagsCollection } from '../common.descriptions';
import { groupEntries } from '../helpers';
import { candidateIdField, candidateNotFound } from './fields';

const properties: INodeProperties[] = [
	candidateIdField,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Company',
				name: 'company',
				type: 'string',
				default: '',
				description: 'The company the candidate works for now',
			},
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
			},
			{ displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
			{
				displayName: 'Image URL',
				name: 'imageUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/photo.jpg',
				description: 'Absolute http(s) URL of a profile picture',
			},
			{ displayName: 'Last Name', name: 'lastName', type: 'string', default: '' },
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
							{ displayName: 'Address', name: 'address', type: 'string', default: '' },
							{
								displayName: 'Country Code',
								name: 'countryCode',
								type: 'string',
								default: '',
								placeholder: 'IE',
							},
							{
								displayName: 'Country Name',
								name: 'countryName',
								type: 'string',
								default: '',
								placeholder: 'Ireland',
							},
						],
					},
				],
			},
			{
				displayName: 'Phone Number',
				name: 'phoneNumber',
				type: 'string',
				default: '',
				placeholder: '+353 1 234 5678',
			},
			{
				displayName: 'Rating',
				name: 'rating',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 5, numberPrecision: 0 },
				default: 1,
				description: 'Star rating from 1 to 5',
			},
			{
				displayName: 'Social Profiles',
				name: 'socialProfiles',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				description: 'Replaces the candidate\'s social profiles',
				options: [
					{
						displayName: 'Profile',
						name: 'profile',
						values: [
							{
								displayName: 'URI',
								name: 'uri',
								type: 'string',
								default: '',
								placeholder: 'https://www.linkedin.com/in/…',
							},
						],
					},
				],
			},
			tagsCollection('Replaces the candidate\'s tags; to add one tag, use the Add Tag operation'),
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'The candidate\'s current job title',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['candidate'], operation: ['update'] } },
	properties,
);

/** Editor name → API name of the plain text fields. */
const TEXT_FIELDS: Record<string, string> = {
	firstName: 'first_name',
	lastName: 'last_name',
	phoneNumber: 'phone_number',
	title: 'title',
	company: 'company',
};

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value).trim());

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const candidateId = requireId.call(this, 'candidateId', itemIndex, 'Candidate ID');
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};

	for (const [name, apiName] of Object.entries(TEXT_FIELDS)) {
		if (fields[name] !== undefined) body[apiName] = text(fields[name]);
	}
	if (fields.email !== undefined) body.email = checkEmail(node, itemIndex, 'Email', fields.email);
	if (fields.imageUrl !== undefined) {
		body.image_url = checkHttpUrl(node, itemIndex, 'Image URL', fields.imageUrl);
	}
	if (fields.rating !== undefined) {
		body.rating = checkIntegerInRange(node, itemIndex, 'Rating', fields.rating, 1, 5);
	}
	const [location] = groupEntries(fields, 'location', 'location');
	if (location) {
		const country: IDataObject = {};
		if (text(location.countryName)) country.name = text(location.countryName);
		if (text(location.countryCode)) country.code = text(location.countryCode);
		const value: IDataObject = {};
		if (text(location.address)) value.address = text(location.address);
		if (Object.keys(country).length) value.country = country;
		if (Object.keys(value).length) body.location = value;
	}
	const tags = groupEntries(fields, 'tags', 'tag');
	if (tags.length) {
		body.tags = tags.map((tag) => {
			if (!text(tag.id) && !text(tag.name)) {
				throw invalidField(node, itemIndex, 'Tags', 'each tag needs an ID or a name');
			}
			const value: IDataObject = {};
			if (text(tag.id)) value.id = text(tag.id);
			if (text(tag.name)) value.name = text(tag.name);
			return value;
		});
	}
	const profiles = groupEntries(fields, 'socialProfiles', 'profile');
	if (profiles.length) {
		body.social_profiles = profiles.map((profile) => ({
			uri: checkHttpUrl(node, itemIndex, 'Social Profiles', profile.uri),
		}));
	}

	return await recruitingRequestData.call(this, {
		method: 'PUT',
		path: resourcePath('candidates', candidateId),
		body: checkSomeFields(node, itemIndex, body),
		itemIndex,
		notFound: candidateNotFound(candidateId),
	});
}
