import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import {
	checkEmail,
	checkSomeFields,
	checkHttpUrl,
	checkIntegerInRange,
	requireId,
} from '../../../shared/validation';
import { fieldGroup, tagsCollection, textField, updateFields } from '../common.descriptions';
import { enteredText } from '../../../shared/text';
import { nested, readCollection, readGroup, readGroups, tagReferences, textObject } from '../helpers';
import { candidateIdField, candidateNotFound } from './fields';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	description:
		'Overwrites the candidate fields given (others stay as they are); tags given replace the candidate\'s whole tag list. Returns the updated candidate.',
	action: 'Update a candidate',
	toolDescription: 'Update a candidate (can_…)',
};

export const properties: INodeProperties[] = [
	candidateIdField,
	updateFields([
		{
			displayName: 'Company',
			name: 'company',
			type: 'string',
			default: '',
			description: 'The company the candidate works for now, as plain text; overwrites the current value',
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'The candidate\'s e-mail address, e.g. name@example.com; an invalid address is refused before sending',
		},
		{
			displayName: 'First Name',
			name: 'firstName',
			type: 'string',
			default: '',
			description: 'The candidate\'s first (given) name, as plain text',
		},
		{
			displayName: 'Image URL',
			name: 'imageUrl',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/photo.jpg',
			description: 'Absolute http:// or https:// URL of a profile picture',
		},
		{
			displayName: 'Last Name',
			name: 'lastName',
			type: 'string',
			default: '',
			description: 'The candidate\'s last (family) name, as plain text',
		},
		fieldGroup({
			displayName: 'Location',
			name: 'location',
			description: 'Where the candidate lives; replaces the candidate\'s location',
			values: [
				textField('Address', 'address', {
					description: 'The candidate\'s address or city, as plain text, e.g. Dublin',
				}),
				textField('Country Code', 'countryCode', {
					placeholder: 'IE',
					description: 'Two-letter ISO 3166-1 country code, e.g. IE',
				}),
				textField('Country Name', 'countryName', {
					placeholder: 'Ireland',
					description: 'The country\'s name in English, e.g. Ireland',
				}),
			],
		}),
		{
			displayName: 'Phone Number',
			name: 'phoneNumber',
			type: 'string',
			default: '',
			placeholder: '+353 1 234 5678',
			description: 'The candidate\'s phone number as text, best in international format, e.g. +353 1 234 5678',
		},
		{
			displayName: 'Rating',
			name: 'rating',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 5, numberPrecision: 0 },
			default: 1,
			description: 'Star rating: a whole number from 1 to 5',
		},
		{
			displayName: 'Social Profiles',
			name: 'socialProfiles',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Profile',
			default: {},
			description: 'Replaces all of the candidate\'s social profiles with the ones given',
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
							description: 'Absolute http:// or https:// URL of a social profile, e.g. a LinkedIn profile',
						},
					],
				},
			],
		},
		tagsCollection(
			'Replaces the candidate\'s whole tag list with these tags; to add or remove one tag, use Add Tag or Remove Tag',
		),
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			description: 'The candidate\'s current job title, as plain text',
		},
	]),
];

/** Editor name → API name of the plain text fields. */
const TEXT_FIELDS: Record<string, string> = {
	firstName: 'first_name',
	lastName: 'last_name',
	phoneNumber: 'phone_number',
	title: 'title',
	company: 'company',
};

export const output = 'candidate';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const candidateId = requireId.call(this, 'candidateId', itemIndex, candidateIdField.displayName);
	const fields = readCollection.call(this, 'updateFields', itemIndex);
	const body: IDataObject = {};

	for (const [name, apiName] of Object.entries(TEXT_FIELDS)) {
		if (fields[name] !== undefined) body[apiName] = enteredText(fields[name]);
	}
	if (fields.email !== undefined) body.email = checkEmail(node, itemIndex, 'Email', fields.email);
	if (fields.imageUrl !== undefined) {
		body.image_url = checkHttpUrl(node, itemIndex, 'Image URL', fields.imageUrl);
	}
	if (fields.rating !== undefined) {
		body.rating = checkIntegerInRange(node, itemIndex, 'Rating', fields.rating, 1, 5);
	}
	const location = readGroup(fields.location, 'location');
	if (location) {
		const value = nested({
			address: enteredText(location.address),
			country: textObject({ name: location.countryName, code: location.countryCode }),
		});
		if (value) body.location = value;
	}
	const tags = await tagReferences.call(this, itemIndex, fields.tags);
	if (tags) body.tags = tags;
	const profiles = readGroups(fields.socialProfiles, 'profile');
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
