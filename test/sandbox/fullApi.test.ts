/**
 * The endpoints of the service's full API that service-facts.md lists beyond the 18 of the spec:
 * each one's success, its validation (problem documents), its paging envelope, the state it leaves;
 * and a spec-only sandbox, which answers all of them 404 like any unknown route.
 */
import type { Application, Candidate, Feedback, Note, User } from '../../sandbox';
import { SEED_USERS, startSandbox } from '../../sandbox';
import { request, seededStore, useSandbox } from './helpers';

const { sb, call } = useSandbox();
const seeded = seededStore();
const firstOf = <C extends Parameters<typeof seeded.values>[0]>(c: C) => seeded.values(c)[0];

beforeEach(() => sb().reset());

const candidateOf = (app: Application): Candidate => seeded.get('candidates', app.candidate.id)!;

describe('GET /users, GET /users/{id}', () => {
	it('lists the seeded users in the paging envelope, with the fields of the reference', async () => {
		const res = await call('GET', '/users?page_size=2&page=2');
		expect(res.status).toBe(200);
		expect(res.body.meta).toEqual({ page_size: 2, page: 2, total_items: 5, total_pages: 3, has_next_page: true, has_previous_page: true });
		expect(res.body.links.next).toMatch(/\/v1\.0\/cmp_demo\/users\?page=3&page_size=2$/);
		expect(res.body.items.map((u: User) => u.id)).toEqual(SEED_USERS.slice(2, 4).map((u) => u.id));
		const all = (await call('GET', '/users')).body.items as User[];
		expect(all.map((u) => u.type)).toEqual(['primary_admin', 'admin', 'recruiter', 'user', 'reviewer']);
		for (const user of all) {
			expect(Object.keys(user).sort()).toEqual(
				['id', 'first_name', 'last_name', 'email', 'assigned_job_ids', 'type', 'category', 'permissions', 'reviewer_statuses', 'linked_user_candidates'].sort(),
			);
			expect(user.id).toMatch(/^usr_/);
			expect(user.email).toMatch(/^[a-z]+@acme-recruiting\.example$/);
			expect(seeded.get('userCategories', user.category.id)?.name).toBe(user.category.name);
		}
		expect(all[4].reviewer_statuses.map((s) => s.parent_stage)).toEqual(['interviewing', 'offered']);
		expect(all[2].linked_user_candidates).toEqual([
			{ user_id: all[2].id, candidate_id: firstOf('candidates').id, full_name: firstOf('candidates').full_name, email: firstOf('candidates').email },
		]);
	});

	it('reads one user; an unknown one is a 404 naming it; bad paging is a 400', async () => {
		const [user] = (await call('GET', '/users')).body.items as User[];
		expect((await call('GET', `/users/${user.id}`)).body).toEqual({ data: user });
		const missing = await call('GET', '/users/usr_nope');
		expect(missing.status).toBe(404);
		expect(missing.body).toMatchObject({ status: 404, detail: "User 'usr_nope' was not found.", instance: '/v1.0/cmp_demo/users/usr_nope' });
		const bad = await call('GET', '/users?page_size=101');
		expect(bad.status).toBe(400);
		expect(bad.body.errors).toEqual({ page_size: ["'page_size' must be an integer from 1 to 100."] });
	});

	it('GET /users/categories is still the spec\'s list of user categories', async () => {
		const res = await call('GET', '/users/categories');
		expect(res.body.items).toEqual(seeded.values('userCategories'));
	});

	it("assigned_job_ids are the jobs whose team holds the user, a new job at once", async () => {
		const user = SEED_USERS[4];
		const before = (await call('GET', `/users/${user.id}`)).body.data as User;
		const expected = seeded.values('jobs').filter((j) => j.owner_id === user.id || j.assigned_team.assigned_users.includes(user.id));
		expect([...before.assigned_job_ids].sort()).toEqual(expected.map((j) => j.id).sort());
		const job = (await call('POST', '/jobs', { title: 'Team job', assigned_team: { assigned_users: [user.id] } })).body.data;
		expect((await call('GET', `/users/${user.id}`)).body.data.assigned_job_ids).toContain(job.id);
	});
});

describe('POST /jobs: the team and notification fields of the reference', () => {
	it('takes assigned users, recruiters and who to notify, and checks the user IDs', async () => {
		const [a, b, c] = SEED_USERS.map((u) => u.id);
		const res = await call('POST', '/jobs', {
			title: 'With a team',
			assigned_team: { assigned_users: [a, b], recruiter_ids: [c] },
			notifications: { new_application_email: [a, 'hiring@acme.example'] },
		});
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			assigned_team: { assigned_users: [a, b], recruiter_ids: [c] },
			notifications: { new_application_email: [a, 'hiring@acme.example'] },
		});
		const bad = await call('POST', '/jobs', {
			title: 'Bad team',
			assigned_team: { assigned_users: ['usr_ghost'], recruiter_ids: [''] },
			notifications: { new_application_email: ['nobody'] },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.errors).toEqual({
			'assigned_team.recruiter_ids[0]': ["'assigned_team.recruiter_ids[0]' must be a non-empty string."],
		});
		const unknown = await call('POST', '/jobs', {
			title: 'Bad team',
			assigned_team: { assigned_users: ['usr_ghost'] },
			notifications: { new_application_email: ['nobody'] },
		});
		expect(unknown.body.errors).toEqual({
			'assigned_team.assigned_users[0]': ["User 'usr_ghost' was not found."],
			'notifications.new_application_email[0]': ["User 'nobody' was not found (and it is not an e-mail address)."],
		});
	});
});

describe('POST /candidates/{id}/notes', () => {
	const app = firstOf('applications');
	const candidate = candidateOf(app);

	it('creates a note (201) with its share, that then is the candidate\'s and can be updated', async () => {
		const res = await call('POST', `/candidates/${candidate.id}/notes?application_id=${app.id}`, {
			text: 'AI screening: strong match.',
			mentioned_users: [SEED_USERS[1].id],
			restricted: true,
		});
		expect(res.status).toBe(201);
		const note = res.body.data as Note;
		expect(note).toEqual({
			id: expect.stringMatching(/^note_/),
			date_created: expect.any(String),
			text: 'AI screening: strong match.',
			creator: { name: 'Maeve Brennan', user_id: SEED_USERS[0].id, guest_id: '', recruiter: '' },
			files: [],
			mentioned_users: [SEED_USERS[1].id],
			restricted: true,
			share: expect.objectContaining({ id: expect.stringMatching(/^shr_/), application_id: app.id }),
		});
		expect(sb().get('candidateNotes', note.id)).toEqual({ ...note, candidate_id: candidate.id });
		const updated = await call('PUT', `/candidates/${candidate.id}/notes/${note.id}`, { text: 'Edited.' });
		expect(updated.body.data).toMatchObject({ id: note.id, text: 'Edited.', restricted: true });
		// Another candidate's path does not reach it.
		const other = seeded.values('candidates')[7].id;
		expect((await call('PUT', `/candidates/${other}/notes/${note.id}`, { text: 'x' })).status).toBe(404);
	});

	it('emits candidate.note.created to a webhook that listens to it', async () => {
		sb().put('webhooks', { ...seeded.get('webhooks', 'wh_demo')!, endpoint: 'http://127.0.0.1:9/none', subscribed_events: ['candidate.note.created'] });
		await call('POST', `/candidates/${candidate.id}/notes`, { text: 'Hello' });
		await sb().settleDeliveries();
		expect(sb().deliveries.map((d) => d.event)).toEqual(['candidate.note.created']);
	});

	it.each([
		['no text', {}, { text: ["'text' is required."] }],
		['an empty text', { text: '' }, { text: ["'text' must be a non-empty string."] }],
		['an unknown mentioned user', { text: 'x', mentioned_users: ['usr_ghost'] }, { 'mentioned_users[0]': ["User 'usr_ghost' was not found."] }],
		['a restricted that is not a boolean', { text: 'x', restricted: 'yes' }, { restricted: ["'restricted' must be a boolean."] }],
	])('answers 400 for %s, and creates nothing', async (_, body, errors) => {
		const notes = async () => (await call('GET', '/__sandbox/info')).body.counts.candidateNotes;
		const before = await notes();
		const res = await call('POST', `/candidates/${candidate.id}/notes`, body);
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ status: 400, errors });
		expect(await notes()).toBe(before);
	});

	it('answers 400 for an application of another candidate, 404 for an unknown candidate', async () => {
		const otherApp = seeded.values('applications')[3];
		const res = await call('POST', `/candidates/${candidate.id}/notes?application_id=${otherApp.id}`, { text: 'x' });
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual({ application_id: [`Application '${otherApp.id}' is not an application of candidate '${candidate.id}'.`] });
		const missing = await call('POST', '/candidates/can_nope/notes', { text: 'x' });
		expect(missing.status).toBe(404);
		expect(missing.body.detail).toBe("Candidate 'can_nope' was not found.");
	});
});

describe('GET /candidates/{id}/applications/{id}, PUT …/source', () => {
	const app = firstOf('applications');
	const candidate = candidateOf(app);
	const path = `/candidates/${candidate.id}/applications/${app.id}`;

	it('reads one application of the candidate, as the list shows it', async () => {
		const res = await call('GET', path);
		expect(res.status).toBe(200);
		const listed = (await call('GET', `/applications?candidate_id=${candidate.id}`)).body.items.find((a: Application) => a.id === app.id);
		expect(res.body).toEqual({ data: listed });
	});

	it('answers 404 for an unknown application, another candidate\'s, or an unknown candidate', async () => {
		const other = seeded.values('candidates')[9].id;
		expect((await call('GET', `/candidates/${candidate.id}/applications/app_nope`)).body.detail).toBe("Application 'app_nope' was not found.");
		expect((await call('GET', `/candidates/${other}/applications/${app.id}`)).body.detail).toBe(`Application '${app.id}' was not found.`);
		expect((await call('GET', `/candidates/can_nope/applications/${app.id}`)).body.detail).toBe("Candidate 'can_nope' was not found.");
	});

	it('updates the source field by field and answers the source; the user\'s name is the service\'s', async () => {
		const user = SEED_USERS[3];
		const res = await call('PUT', `${path}/source`, {
			origin: 'referred',
			source: 'Employee referral',
			user: { id: user.id, name: 'whatever' },
			recruiter: { name: 'Agency X' },
		});
		expect(res.status).toBe(200);
		const source = {
			...app.source,
			origin: 'referred',
			source: 'Employee referral',
			user: { id: user.id, name: `${user.first_name} ${user.last_name}` },
			recruiter: { ...app.source.recruiter, name: 'Agency X' },
		};
		expect(res.body).toEqual({ data: source });
		expect((await call('GET', path)).body.data.source).toEqual(source);
	});

	it.each([
		['an unknown origin', { origin: 'linkedin' }, { origin: ["'origin' must be one of: added, applied, interested, referred, candidate_pool, hire_hive_import, agency_submission."] }],
		['an unknown user', { user: { id: 'usr_ghost' } }, { 'user.id': ["User 'usr_ghost' was not found."] }],
		['a contact that is not an object', { contact: 'Bob' }, { contact: ["'contact' must be an object."] }],
	])('answers 400 for %s and leaves the source as it was', async (_, body, errors) => {
		const res = await call('PUT', `${path}/source`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual(errors);
		expect((await call('GET', path)).body.data.source).toEqual(app.source);
	});
});

describe('GET /feedback, POST /feedback', () => {
	const form = seeded.values('applicationForms')[0];
	const app = seeded.values('applications')[10];
	const [required, optional] = form.questions;

	it('lists the feedback in the paging envelope', async () => {
		const res = await call('GET', '/feedback?page_size=2');
		expect(res.status).toBe(200);
		expect(res.body.meta).toMatchObject({ total_items: 3, page_size: 2, has_next_page: true });
		expect(res.body.items).toEqual(seeded.values('feedback').slice(0, 2));
	});

	it('completes a form for an application (201): it is in the list, on the application, and emitted', async () => {
		sb().put('webhooks', { ...seeded.get('webhooks', 'wh_demo')!, endpoint: 'http://127.0.0.1:9/none', subscribed_events: ['feedback.submitted'] });
		const res = await call('POST', '/feedback', {
			application_id: app.id,
			form_id: form.id,
			answers: [{ question_id: required.id, text: 'Keen on the mission.' }, { question_id: optional.id, selected_option: 'no' }],
		});
		expect(res.status).toBe(201);
		const feedback = res.body.data as Feedback;
		expect(feedback).toMatchObject({
			id: expect.stringMatching(/^fdbk_/),
			application_id: app.id,
			form_id: form.id,
			name: form.name,
			candidate: { id: app.candidate.id, name: app.candidate.full_name },
			status: 'complete',
			date_complete: expect.any(String),
		});
		expect(feedback.questions.map((q) => [q.id, q.answer.text, q.answer.selected_option])).toEqual([
			[required.id, 'Keen on the mission.', ''],
			[optional.id, '', 'no'],
		]);
		const list = (await call('GET', '/feedback')).body;
		expect(list.meta.total_items).toBe(4);
		expect(list.items[3]).toEqual(feedback);
		expect((sb().get('applications', app.id) as Application).feedback).toContain(feedback.id);
		await sb().settleDeliveries();
		expect(sb().deliveries.map((d) => d.event)).toEqual(['feedback.submitted']);
	});

	it.each([
		['no application or form', { answers: [] }, { application_id: ["'application_id' is required."], form_id: ["'form_id' is required."] }],
		['an unknown application and form', { application_id: 'app_nope', form_id: 'form_nope' }, { application_id: ["Application 'app_nope' was not found."], form_id: ["Form 'form_nope' was not found."] }],
		[
			'an answer to a question of another form, and a required question left out',
			{ application_id: app.id, form_id: form.id, answers: [{ question_id: 'q_other', text: 'x' }] },
			{ 'answers[0].question_id': [`Question 'q_other' is not part of form '${form.id}'.`], answers: [`Question '${required.id}' is required to complete the form.`] },
		],
		[
			'an answer without a question ID',
			{ application_id: app.id, form_id: form.id, answers: [{ text: 'x' }] },
			{ 'answers[0].question_id': ["'answers[0].question_id' is required."] },
		],
	])('answers 400 for %s, and adds nothing', async (_, body, errors) => {
		const res = await call('POST', '/feedback', body);
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual(errors);
		expect((await call('GET', '/feedback')).body.meta.total_items).toBe(3);
	});
});

describe('a service that implements only the spec', () => {
	it('answers every endpoint of the full API 404 like an unknown route, and the 18 as before', async () => {
		const specOnly = await startSandbox({ port: 0, specOnly: true });
		try {
			const app = firstOf('applications');
			const base = `${specOnly.url}/v1.0/${specOnly.companyId}`;
			const send = (method: string, path: string, body?: unknown) =>
				request(`${base}${path}`, {
					method,
					headers: { authorization: `Bearer ${specOnly.token}`, 'content-type': 'application/json' },
					body: body === undefined ? undefined : JSON.stringify(body),
				});
			const fullApi: Array<[string, string, unknown?]> = [
				['GET', '/users'],
				['GET', `/users/${SEED_USERS[0].id}`],
				['POST', `/candidates/${app.candidate.id}/notes`, { text: 'x' }],
				['GET', `/candidates/${app.candidate.id}/applications/${app.id}`],
				['PUT', `/candidates/${app.candidate.id}/applications/${app.id}/source`, { origin: 'added' }],
				['GET', '/feedback'],
				['POST', '/feedback', { application_id: app.id, form_id: 'form_x' }],
			];
			for (const [method, path, body] of fullApi) {
				const res = await send(method, path, body);
				expect({ method, path, status: res.status, detail: res.body?.detail }).toEqual({
					method,
					path,
					status: 404,
					detail: `No endpoint matches ${method} /v1.0/${specOnly.companyId}${path}.`,
				});
			}
			expect((await send('GET', '/users/categories')).status).toBe(200);
			expect((await send('GET', `/candidates/${app.candidate.id}`)).status).toBe(200);
			expect((await send('PUT', `/feedback/${firstOf('feedback').id}`, {})).status).toBe(200);
		} finally {
			await specOnly.close();
		}
	});
});
