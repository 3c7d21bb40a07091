import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { checkIntegerInRange, checkSomeFields, invalidField, requireId } from '../../../shared/validation';
import { candidateIdField } from '../candidate/fields';
import { idField, updateFields } from '../common.descriptions';
import { readCollection, readGroups, splitList, textObject } from '../helpers';
import { usersField } from '../user/fields';
import type { OperationOption } from '../types';

/** Editor name → API name of a file object's text fields. */
const FILE_TEXT_FIELDS: Record<string, string> = {
	id: 'id',
	downloadLink: 'download_link',
	name: 'name',
	originalName: 'original_name',
	contentType: 'content_type',
	fileExtension: 'file_extension',
};

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	description:
		'Overwrites the fields given of a note on a candidate (files and mentions given replace the current ones). Returns the updated note.',
	action: 'Update a note on a candidate',
	toolDescription: 'Update a note on a candidate (can_…)',
};

export const properties: INodeProperties[] = [
	{
		...candidateIdField,
		description:
			'The ID (can_…) of the candidate the note belongs to, or pick the candidate from the list; on candidate.note.* trigger events it is in the trigger item\'s object',
	},
	idField(
		'Note ID',
		'noteId',
		'note_…',
		'The ID of the note to update, e.g. from a Recruiting Trigger item\'s object on candidate.note.created or candidate.note.updated',
	),
	updateFields([
		{
			displayName: 'Files',
			name: 'files',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add File',
			default: {},
			description: 'Replaces all files attached to the note with the ones given; each file needs its ID',
			options: [
				{
					displayName: 'File',
					name: 'file',
					values: [
						{
							displayName: 'Content Type',
							name: 'contentType',
							type: 'string',
							default: '',
							placeholder: 'application/pdf',
							description: 'The file\'s MIME type, e.g. application/pdf',
						},
						{
							displayName: 'Download Link',
							name: 'downloadLink',
							type: 'string',
							default: '',
							placeholder: 'https://…',
							description: 'The URL the file can be downloaded from, as the note\'s files list it',
						},
						{
							displayName: 'File Extension',
							name: 'fileExtension',
							type: 'string',
							default: '',
							placeholder: 'pdf',
							description: 'The file name extension without the dot, e.g. pdf',
						},
						{
							displayName: 'ID',
							name: 'id',
							type: 'string',
							default: '',
							description: 'The ID of the file, as the note\'s files list it (required for each file)',
						},
						{
							displayName: 'Name',
							name: 'name',
							type: 'string',
							default: '',
							description: 'The file\'s stored name, as the note\'s files list it',
						},
						{
							displayName: 'Original Name',
							name: 'originalName',
							type: 'string',
							default: '',
							description: 'The file name as it was uploaded, e.g. resume.pdf',
						},
						{
							displayName: 'Size (KB)',
							name: 'sizeInKb',
							type: 'number',
							typeOptions: { minValue: 0, numberPrecision: 0 },
							default: 0,
							description: 'The size in kilobytes, a whole number; 0 leaves it out of the request',
						},
					],
				},
			],
		},
		usersField(
			'Mentioned User Names or IDs',
			'mentionedUsers',
			'The users (usr_…) to mention, replacing the current mentions; an expression may give an array or comma-separated IDs',
		),
		{
			displayName: 'Restricted',
			name: 'restricted',
			type: 'boolean',
			default: false,
			description: 'Whether only privileged users may see the note',
		},
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: 'The note\'s new text; replaces the current text',
		},
	]),
];

function fileObject(this: IExecuteFunctions, itemIndex: number, file: IDataObject): IDataObject {
	const node = this.getNode();
	const values = Object.entries(FILE_TEXT_FIELDS).map(([name, apiName]) => [apiName, file[name]]);
	const out = textObject(Object.fromEntries(values)) ?? {};
	if (out.id === undefined) throw invalidField(node, itemIndex, 'Files', 'each file needs an ID');
	// n8n fills every value of a file entry with its default: 0 means "not given".
	if (file.sizeInKb !== undefined && file.sizeInKb !== '' && file.sizeInKb !== 0) {
		out.size_in_kb = checkIntegerInRange(
			node,
			itemIndex,
			'Size (KB)',
			file.sizeInKb,
			0,
			Number.MAX_SAFE_INTEGER,
		);
	}
	return out;
}

export const output = 'note';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const candidateId = requireId.call(this, 'candidateId', itemIndex, candidateIdField.displayName);
	const noteId = requireId.call(this, 'noteId', itemIndex, 'Note ID');
	const fields = readCollection.call(this, 'updateFields', itemIndex);
	const body: IDataObject = {};

	if (fields.text !== undefined) body.text = String(fields.text);
	// Files added with no file entry are not sent (as tags and social profiles of a candidate).
	const files = readGroups(fields.files, 'file');
	if (files.length) body.files = files.map((file) => fileObject.call(this, itemIndex, file));
	if (fields.mentionedUsers !== undefined) body.mentioned_users = splitList(fields.mentionedUsers);
	if (fields.restricted !== undefined) body.restricted = fields.restricted === true;

	return await recruitingRequestData.call(this, {
		method: 'PUT',
		path: resourcePath('candidates', candidateId, 'notes', noteId),
		body: checkSomeFields(this.getNode(), itemIndex, body),
		itemIndex,
		notFound: `note "${noteId}" of candidate "${candidateId}"`,
	});
}
