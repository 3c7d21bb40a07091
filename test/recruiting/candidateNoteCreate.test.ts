/**
 * Candidate Note → Create (POST /candidates/{id}/notes, the service's full API): the text, who is
 * mentioned, whether it is restricted, and the application it is about (query `application_id`).
 * The note becomes the candidate's: Candidate Note → Update then changes it.
 */
import type { Application, Note } from '../../sandbox';
import { SEED_USERS } from '../../sandbox';
import { apiPath, errorOf, expr, jsonOf, listDirect, useRecruitingFixture } from './fixture';

const fx = useRecruitingFixture({ applications: 4, jobs: 2, candidates: 4 });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const picked = (value: string) => ({ __rl: true, mode: 'list', value, cachedResultName: 'Picked' });

let app: Application;
beforeEach(async () => {
	[app] = (await listDirect(fx.sandbox, ['applications'])) as unknown as Application[];
});

const create = async (parameters: Record<string, unknown>) =>
	await fx.run({ resource: 'candidateNote', operation: 'create', candidateId: byId(app.candidate.id), text: 'AI screening: strong match.', ...parameters });

describe('candidateNote create', () => {
	test('POST with the text, mentions picked from the users dropdown, restricted, about an application; outputs the note', async () => {
		const [maeve, tomas] = SEED_USERS;
		const result = await create({
			candidateId: picked(app.candidate.id),
			additionalFields: { applicationId: picked(app.id), mentionedUsers: [maeve.id, tomas.id], restricted: true },
		});
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
			{
				method: 'POST',
				path: apiPath(fx.sandbox, 'candidates', app.candidate.id, 'notes'),
				query: { application_id: app.id },
				body: { text: 'AI screening: strong match.', mentioned_users: [maeve.id, tomas.id], restricted: true },
			},
		]);
		const [note] = jsonOf(result);
		expect(note).toMatchObject({
			id: expect.stringMatching(/^note_/),
			text: 'AI screening: strong match.',
			mentioned_users: [maeve.id, tomas.id],
			restricted: true,
			share: expect.objectContaining({ application_id: app.id }),
		});
		expect(fx.sandbox.get('candidateNotes', String(note.id))).toMatchObject({ candidate_id: app.candidate.id, text: note.text });
	});

	test('the created note is the candidate\'s: Candidate Note → Update changes it', async () => {
		const [note] = jsonOf(await create({}));
		const updated = await fx.run({
			resource: 'candidateNote',
			operation: 'update',
			candidateId: app.candidate.id,
			noteId: String(note.id),
			updateFields: { text: 'Edited after the call.' },
		});
		expect(updated.error).toBeUndefined();
		expect((fx.sandbox.get('candidateNotes', String(note.id)) as Note).text).toBe('Edited after the call.');
	});

	test('only the text when nothing else is added; the text goes as written, and mentions by expression too', async () => {
		await create({ text: '  Two spaces in front.\nSecond line.' });
		expect(fx.sandbox.requests[0].body).toEqual({ text: '  Two spaces in front.\nSecond line.' });
		fx.sandbox.clearRequests();
		await create({ additionalFields: { mentionedUsers: `={{ "${SEED_USERS[2].id}, ${SEED_USERS[3].id}" }}` } });
		expect(fx.sandbox.requests[0].body).toMatchObject({ mentioned_users: [SEED_USERS[2].id, SEED_USERS[3].id] });
	});

	test.each([
		['an empty text', { text: expr('') }, 'Invalid "Text": a note needs some text'],
		['a text of spaces', { text: '   \n ' }, 'Invalid "Text": a note needs some text'],
		['an empty candidate ID', { candidateId: byId(expr('')) }, 'Invalid "Candidate": a value is required'],
	])('%s is refused before any request', async (_, parameters, message) => {
		const error = errorOf(await create(parameters));
		expect(error.message).toBe(message);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('a mention of an unknown user is the service\'s 400 naming the field; nothing is created', async () => {
		const error = errorOf(await create({ additionalFields: { mentionedUsers: ['usr_ghost'] } }));
		expect(error.httpCode).toBe('400');
		expect(error.description).toMatch(/mentioned_users\[0\]: User 'usr_ghost' was not found\./);
	});

	test('as a tool: the note in the small note shape', async () => {
		const result = await create({ additionalFields: { mentionedUsers: [SEED_USERS[1].id] } });
		const [raw] = jsonOf(result);
		const tool = await fx.run(
			{ resource: 'candidateNote', operation: 'create', candidateId: byId(app.candidate.id), text: 'From an agent.' },
			{ asTool: true, typeVersion: 1.1 },
		);
		expect(Object.keys(jsonOf(tool)[0]).sort()).toEqual(['creator_name', 'date_created', 'file_names', 'id', 'mentioned_users', 'restricted', 'text']);
		expect(raw.share).toBeDefined();
	});
});
