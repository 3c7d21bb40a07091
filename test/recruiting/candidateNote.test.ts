import type { INodeParameters } from 'n8n-workflow';
import type { Candidate, Note } from '../../sandbox';
import { apiPath, errorOf, expr, jsonOf, useRecruitingFixture } from './fixture';

const SEED = { applications: 1, jobs: 1, candidates: 1, tags: 1 };
const WEIRD_ID = 'a/b?c#d%e+f&ü';

const candidate = (id: string): Candidate => ({
	id,
	first_name: 'Grace',
	last_name: 'Hopper',
	full_name: 'Grace Hopper',
	email: 'grace@example.com',
	phone_number: '',
	title: '',
	company: '',
	location: { address: '', country: { name: '', code: '' } },
	image_url: '',
	rating: 4,
	tags: [],
	application_ids: [],
	social_profiles: [],
});
const NOTE: Note = {
	id: 'note_1',
	candidate_id: 'can_grace',
	date_created: '2025-01-02T10:00:00Z',
	text: 'First call went well.',
	creator: { name: 'Rita Recruiter', user_id: 'usr_rita', guest_id: '', recruiter: 'usr_rita' },
	files: [
		{
			id: 'file_cv',
			type: 'inbound_email_attachment',
			size_in_kb: 120,
			download_link: 'https://files.example/cv.pdf',
			name: 'cv.pdf',
			original_name: 'Grace CV.pdf',
			content_type: 'application/pdf',
			file_extension: 'pdf',
		},
	],
	mentioned_users: [],
	restricted: false,
};

const fx = useRecruitingFixture(SEED, (sandbox) => {
	sandbox.put('candidates', candidate('can_grace'));
	sandbox.put('candidates', candidate('can_other'));
	sandbox.put('candidateNotes', NOTE);
});

const run = async (parameters: INodeParameters) =>
	await fx.run({ resource: 'candidateNote', operation: 'update', candidateId: 'can_grace', noteId: 'note_1', ...parameters });
const storedNote = (id = 'note_1') => fx.sandbox.get('candidateNotes', id) as Note;

describe('candidateNote update', () => {
	test('PUT /candidates/{candidateId}/notes/{noteId} with every field in the API shape; outputs the note', async () => {
		const result = await run({
			updateFields: {
				text: 'Second call: strong on compilers.',
				files: {
					file: [
						{
							id: 'file_cv',
							sizeInKb: 130,
							downloadLink: 'https://files.example/cv-v2.pdf',
							name: 'cv-v2.pdf',
							originalName: 'Grace CV v2.pdf',
							contentType: 'application/pdf',
							fileExtension: 'pdf',
						},
						{ id: 'file_new', name: 'notes.txt' },
					],
				},
				mentionedUsers: 'usr_1, usr_2,,',
				restricted: true,
			},
		});
		expect(result.error).toBeUndefined();
		const body = {
			text: 'Second call: strong on compilers.',
			files: [
				{
					id: 'file_cv',
					size_in_kb: 130,
					download_link: 'https://files.example/cv-v2.pdf',
					name: 'cv-v2.pdf',
					original_name: 'Grace CV v2.pdf',
					content_type: 'application/pdf',
					file_extension: 'pdf',
				},
				{ id: 'file_new', name: 'notes.txt' },
			],
			mentioned_users: ['usr_1', 'usr_2'],
			restricted: true,
		};
		expect(fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
			{ method: 'PUT', path: apiPath(fx.sandbox, 'candidates', 'can_grace', 'notes', 'note_1'), query: {}, body },
		]);
		expect(result.items).toHaveLength(1);
		const [note] = jsonOf(result);
		expect(note).toMatchObject({
			id: 'note_1',
			text: 'Second call: strong on compilers.',
			mentioned_users: ['usr_1', 'usr_2'],
			restricted: true,
			files: [{ ...body.files[0], type: 'inbound_email_attachment' }, { id: 'file_new', name: 'notes.txt' }],
		});
		expect(storedNote()).toMatchObject({ text: 'Second call: strong on compilers.', restricted: true });
	});

	test('only the fields added are sent; an array of user IDs from an expression is accepted', async () => {
		const result = await run({ updateFields: { mentionedUsers: '={{ ["usr_a", " usr_b "] }}' } });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].body).toEqual({ mentioned_users: ['usr_a', 'usr_b'] });
		expect(storedNote()).toMatchObject({ text: NOTE.text, files: NOTE.files, mentioned_users: ['usr_a', 'usr_b'] });
	});

	test('IDs with reserved characters each reach exactly one path segment', async () => {
		fx.sandbox.put('candidates', candidate(WEIRD_ID));
		fx.sandbox.put('candidateNotes', { ...NOTE, id: `${WEIRD_ID}_note`, candidate_id: WEIRD_ID });
		const result = await run({ candidateId: WEIRD_ID, noteId: `${WEIRD_ID}_note`, updateFields: { restricted: true } });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].path).toBe(apiPath(fx.sandbox, 'candidates', WEIRD_ID, 'notes', `${WEIRD_ID}_note`));
		expect(fx.sandbox.requests[0].segments).toEqual([
			'v1.0',
			fx.sandbox.companyId,
			'candidates',
			WEIRD_ID,
			'notes',
			`${WEIRD_ID}_note`,
		]);
		expect(storedNote(`${WEIRD_ID}_note`).restricted).toBe(true);
	});

	test.each([
		['an empty candidate ID', { candidateId: expr(''), updateFields: { text: 'x' } }, 'Invalid "Candidate": a value is required'],
		['an empty note ID', { noteId: expr(''), updateFields: { text: 'x' } }, 'Invalid "Note ID": a value is required'],
		['no fields at all', { updateFields: {} }, 'Invalid "Update Fields": add at least one field to update'],
		['a file without an ID', { updateFields: { files: { file: [{ name: 'a.pdf' }] } } }, 'Invalid "Files": each file needs an ID'],
		['a negative file size', { updateFields: { files: { file: [{ id: 'f', sizeInKb: -1 }] } } }, /^Invalid "Size \(KB\)": /],
		['a fractional file size', { updateFields: { files: { file: [{ id: 'f', sizeInKb: 1.5 }] } } }, /^Invalid "Size \(KB\)": /],
	])('%s is rejected before any request', async (_, parameters, message) => {
		const error = errorOf(await run(parameters));
		expect(error.message).toMatch(message);
		expect(error.itemIndex).toBe(0);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('an unknown note is a 404 that names both ids', async () => {
		const error = errorOf(await run({ noteId: 'note_missing', updateFields: { text: 'x' } }));
		expect(error.message).toBe('The note "note_missing" of candidate "can_grace" was not found');
		expect(error.httpCode).toBe('404');
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([404]);
	});

	test("another candidate's note is a 404 and stays unchanged", async () => {
		const error = errorOf(await run({ candidateId: 'can_other', updateFields: { text: 'hijack' } }));
		expect(error.message).toBe('The note "note_1" of candidate "can_other" was not found');
		expect(storedNote().text).toBe(NOTE.text);
	});

	test('a 400 problem document from the service surfaces its title and detail', async () => {
		fx.sandbox.setFaults([{ kind: 'status', status: 400, method: 'PUT', path: '/notes/' }]);
		const error = errorOf(await run({ updateFields: { text: 'x' } }));
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([400]);
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe('Bad Request (HTTP 400)');
		expect(error.description).toBe('Injected fault: the sandbox was told to fail this request.');
		expect(storedNote().text).toBe(NOTE.text);
	});
});
