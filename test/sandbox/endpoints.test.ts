/** Every endpoint (a success and a failure each), auth, routing, reserved characters, state round-trips. */
import { seededStore, useSandbox } from './helpers';

const { sb, call } = useSandbox();
const seeded = seededStore();
const firstOf = <C extends Parameters<typeof seeded.values>[0]>(c: C) => seeded.values(c)[0];

const PROBLEM_TYPE = /^https:\/\/tools\.ietf\.org\/html\/rfc/;

describe('authentication', () => {
	const path = '/tags';
	it.each([
		['no Authorization header', { token: null }],
		['a wrong token', { token: 'nope' }],
		['a lower-case scheme', { headers: { authorization: 'bearer sandbox-token' }, token: null }],
	])('answers 401 with a problem document for %s', async (_label, opts) => {
		const res = await call('GET', path, undefined, opts);
		expect(res.status).toBe(401);
		expect(res.headers.get('content-type')).toBe('application/problem+json');
		expect(res.body).toEqual({
			type: expect.stringMatching(PROBLEM_TYPE),
			title: 'Unauthorized',
			status: 401,
			detail: 'The access token is missing or invalid.',
			instance: '/v1.0/cmp_demo/tags',
		});
	});

	it('answers 401 naming the company when the company is not the sandbox one', async () => {
		const res = await call('GET', path, undefined, { company: 'cmp_other' });
		expect(res.status).toBe(401);
		expect(res.body.detail).toBe("The access token is not valid for company 'cmp_other'.");
		expect(res.body.instance).toBe('/v1.0/cmp_other/tags');
	});
});

describe('routing', () => {
	it('answers 404 for an unknown route and 405 (with Allow) for a wrong method', async () => {
		const unknown = await call('GET', '/nothing/here');
		expect(unknown.status).toBe(404);
		expect(unknown.body).toMatchObject({ title: 'Not Found', status: 404, instance: '/v1.0/cmp_demo/nothing/here' });
		const wrong = await call('PATCH', '/jobs/job_x');
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('GET, DELETE');
		expect(wrong.body).toMatchObject({ title: 'Method Not Allowed', status: 405 });
	});

	it('answers 404 outside /v1.0 and for a trailing slash', async () => {
		expect((await fetch(`${sb().url}/v2/cmp_demo/tags`)).status).toBe(404);
		expect((await call('GET', '/tags/')).status).toBe(404);
	});

	it('routes ids with reserved characters, encoded per segment, to exactly that record', async () => {
		const weird = 'job_a/b?c#d%e f ü';
		sb().put('jobs', { ...firstOf('jobs'), id: weird, title: 'Weird' });
		sb().put('jobs', { ...firstOf('jobs'), id: 'job_a', title: 'Decoy' });
		sb().clearRequests();
		const res = await call('GET', `/jobs/${encodeURIComponent(weird)}`);
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({ id: weird, title: 'Weird' });
		const [rec] = sb().requests;
		expect(rec.path).toBe('/v1.0/cmp_demo/jobs/job_a%2Fb%3Fc%23d%25e%20f%20%C3%BC');
		expect(rec.segments).toEqual(['v1.0', 'cmp_demo', 'jobs', weird]);

		const candidateId = 'can_x/y?z#1%2 ü';
		const noteId = 'note_ü/%?# 1';
		sb().put('candidates', { ...firstOf('candidates'), id: candidateId });
		sb().put('candidateNotes', { ...firstOf('candidateNotes'), id: noteId, candidate_id: candidateId });
		const note = await call('PUT', `/candidates/${encodeURIComponent(candidateId)}/notes/${encodeURIComponent(noteId)}`, { text: 'routed' });
		expect(note.status).toBe(200);
		expect(note.body.data).toMatchObject({ id: noteId, text: 'routed' });
	});
});

describe('bodies', () => {
	it.each([
		['text that is not JSON', 'title=Engineer'],
		['a JSON array', '[{"title":"Engineer"}]'],
		['an empty body', ''],
	])('rejects %s with 400', async (_label, raw) => {
		const res = await call('POST', '/jobs', undefined, { raw });
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual({ body: ['The request body must be a JSON object.'] });
	});
});

describe('1 POST /interviews', () => {
	it('creates an interview (201) and links it to its application', async () => {
		const app = firstOf('applications');
		const res = await call('POST', '/interviews', {
			application_id: app.id,
			event: {
				title: 'Tech screen',
				type: 'online',
				start: '2030-05-01T10:00:00Z',
				end: '2030-05-01T11:00:00Z',
				time_zone: 'Europe/Dublin',
				attendees: [
					{ type: 'candidate', application_id: app.id, user_id: null },
					{ type: 'guest', email: 'guest@example.com' },
				],
			},
			meta: { online_meeting_type: 'teams_for_business', attach_resume_to_invite: true },
		});
		expect(res.status).toBe(201);
		const interview = res.body.data;
		expect(interview).toMatchObject({
			id: expect.stringMatching(/^int_[0-9a-z]+$/),
			application_id: app.id,
			candidate_id: app.candidate.id,
			job_id: app.job.id,
			event: { title: 'Tech screen', type: 'online', status: 'active', time_zone: 'Europe/Dublin' },
			meta: { online_meeting_type: 'teams_for_business', attach_resume_to_invite: true, meeting_url: '' },
		});
		expect(interview.event.attendees).toEqual([
			expect.objectContaining({ id: expect.stringMatching(/^attd_/), type: 'candidate', application_id: app.id, user_id: null, display_name: app.candidate.full_name, status: 'pending' }),
			expect.objectContaining({ type: 'guest', email: 'guest@example.com', application_id: null, user_id: null }),
		]);
		expect(sb().get('interviews', interview.id)).toEqual(interview);
		expect((sb().get('applications', app.id) as { interviews: string[] }).interviews).toContain(interview.id);
	});

	it('answers 400 when the application does not exist', async () => {
		const res = await call('POST', '/interviews', {
			application_id: 'app_missing',
			event: { type: 'phone', start: '2030-05-01T10:00:00Z', end: '2030-05-01T11:00:00Z' },
		});
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual({ application_id: ["Application 'app_missing' was not found."] });
	});
});

describe('2-4 jobs', () => {
	it('creates a job (201) that GET then returns, and that DELETE (204) removes', async () => {
		const created = await call('POST', '/jobs', {
			title: 'Platform Engineer',
			status: 'published',
			type: 'contract',
			location: { city: 'Galway' },
			tags: [{ id: 'tag_1', name: 'Urgent' }],
			unknown_property: 'ignored',
		});
		expect(created.status).toBe(201);
		const job = created.body.data;
		expect(job).toMatchObject({
			id: expect.stringMatching(/^job_[0-9a-z]+$/),
			title: 'Platform Engineer',
			status: 'published',
			type: 'contract',
			experience: 'na',
			published_date: expect.any(String),
			location: { city: 'Galway', remote: 'not_remote', country: { id: '', name: '', code: '' } },
			tags: [{ id: 'tag_1', name: 'Urgent' }],
		});
		expect(job).not.toHaveProperty('unknown_property');
		expect(job).not.toHaveProperty('custom_pipeline_id');

		const read = await call('GET', `/jobs/${job.id}`);
		expect(read.status).toBe(200);
		expect(read.body).toEqual({ data: job });

		const deleted = await call('DELETE', `/jobs/${job.id}`);
		expect(deleted.status).toBe(204);
		expect(deleted.text).toBe('');
		expect((await call('GET', `/jobs/${job.id}`)).status).toBe(404);
	});

	it('answers 400 without a title, 404 for an unknown job on GET and DELETE', async () => {
		expect((await call('POST', '/jobs', { description: 'x' })).body.errors).toEqual({ title: ["'title' is required."] });
		for (const method of ['GET', 'DELETE']) {
			const res = await call(method, '/jobs/job_x');
			expect(res.status).toBe(404);
			expect(res.body).toMatchObject({ title: 'Not Found', status: 404, detail: "Job 'job_x' was not found.", instance: '/v1.0/cmp_demo/jobs/job_x' });
		}
	});

	it('seeded jobs carry every field of the spec', async () => {
		const res = await call('GET', `/jobs/${firstOf('jobs').id}`);
		expect(Object.keys(res.body.data).sort()).toEqual(
			['id', 'title', 'description', 'owner_id', 'status', 'type', 'experience', 'salary', 'job_code', 'created_date', 'published_date', 'apply_url', 'category', 'language', 'location', 'deadline', 'assigned_team', 'notifications', 'application_form', 'auto_responder', 'tags', 'job_ads'].sort(),
		);
	});
});

describe('5 GET /jobs/{id}/notes', () => {
	it('lists the notes of the job (without share) oldest first', async () => {
		const job = seeded.values('jobs')[1];
		const res = await call('GET', `/jobs/${job.id}/notes`);
		expect(res.status).toBe(200);
		expect(res.body.meta).toMatchObject({ total_items: 3, page: 1, page_size: 30 });
		const items = res.body.items;
		expect(items).toHaveLength(3);
		for (const note of items) {
			expect(note).not.toHaveProperty('share');
			expect(note).not.toHaveProperty('job_id');
			expect(note.id).toMatch(/^note_/);
		}
		const dates = items.map((n: { date_created: string }) => n.date_created);
		expect([...dates].sort()).toEqual(dates);
	});

	it('answers 404 for an unknown job', async () => {
		expect((await call('GET', '/jobs/job_nope/notes')).body.detail).toBe("Job 'job_nope' was not found.");
	});
});

describe('6-7 candidates', () => {
	it('reads a candidate; an update answers the full candidate and reads back', async () => {
		const candidate = seeded.values('candidates')[1];
		expect((await call('GET', `/candidates/${candidate.id}`)).body.data).toEqual(candidate);
		const res = await call('PUT', `/candidates/${candidate.id}`, {
			first_name: 'Renamed',
			rating: 5,
			location: { address: '1 New Street' },
			social_profiles: [{ uri: 'https://github.com/renamed' }],
			full_name: 'ignored (response only)',
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({
			...candidate,
			first_name: 'Renamed',
			full_name: `Renamed ${candidate.last_name}`,
			rating: 5,
			location: { ...candidate.location, address: '1 New Street' },
			social_profiles: [{ type: 'github', uri: 'https://github.com/renamed' }],
		});
		expect((await call('GET', `/candidates/${candidate.id}`)).body).toEqual(res.body);
		const apps = await call('GET', `/applications?candidate_id=${candidate.id}`);
		expect(apps.body.items[0].candidate.first_name).toBe('Renamed');
	});

	it('answers 404 for an unknown candidate and 400 for a bad update', async () => {
		expect((await call('GET', '/candidates/can_nope')).body.detail).toBe("Candidate 'can_nope' was not found.");
		expect((await call('PUT', '/candidates/can_nope', { first_name: 'x' })).status).toBe(404);
		const bad = await call('PUT', `/candidates/${firstOf('candidates').id}`, { rating: 6 });
		expect(bad.status).toBe(400);
		expect(bad.body.errors).toEqual({ rating: ["'rating' must be an integer from 1 to 5."] });
	});
});

describe('8 PUT /candidates/{id}/notes/{note_id}', () => {
	const note = seeded.values('candidateNotes')[2];
	const candidateId = note.candidate_id!;

	it('updates the note and answers it with its share', async () => {
		const file = { id: 'file_new', size_in_kb: 12, download_link: 'https://x.example/f', name: 'f.pdf', original_name: 'f.pdf', content_type: 'application/pdf', file_extension: 'pdf' };
		const res = await call('PUT', `/candidates/${candidateId}/notes/${note.id}`, {
			text: 'Updated text',
			restricted: true,
			mentioned_users: ['usr_a'],
			files: [file],
		});
		expect(res.status).toBe(200);
		const { candidate_id: _hidden, ...visible } = note;
		expect(res.body.data).toEqual({
			...visible,
			text: 'Updated text',
			restricted: true,
			mentioned_users: ['usr_a'],
			files: [{ ...file, type: 'inbound_email_attachment' }],
		});
		expect(res.body.data.share).toMatchObject({ id: expect.stringMatching(/^shr_/), metadata: { expired: false } });
		expect(sb().get('candidateNotes', note.id)).toMatchObject({ text: 'Updated text', candidate_id: candidateId });
	});

	it('answers 404 for a note of another candidate, an unknown note or candidate', async () => {
		const other = seeded.values('candidates')[5].id;
		expect((await call('PUT', `/candidates/${other}/notes/${note.id}`, { text: 'x' })).body.detail).toBe(`Note '${note.id}' was not found.`);
		expect((await call('PUT', `/candidates/${candidateId}/notes/note_nope`, { text: 'x' })).status).toBe(404);
		expect((await call('PUT', `/candidates/can_nope/notes/${note.id}`, { text: 'x' })).body.detail).toBe("Candidate 'can_nope' was not found.");
	});
});

describe('9 POST /candidates/{id}/tags', () => {
	it('adds an existing tag once (204), however often it is posted', async () => {
		const candidate = seeded.values('candidates')[3];
		const tag = seeded.values('tags').find((t) => !candidate.tags.some((c) => c.id === t.id))!;
		for (let i = 0; i < 2; i++) {
			const res = await call('POST', `/candidates/${candidate.id}/tags`, { id: tag.id });
			expect(res.status).toBe(204);
			expect(res.text).toBe('');
		}
		const tags = (await call('GET', `/candidates/${candidate.id}`)).body.data.tags;
		expect(tags.filter((t: { id: string }) => t.id === tag.id)).toEqual([{ id: tag.id, name: tag.name }]);
		expect(tags).toHaveLength(candidate.tags.length + 1);
	});

	it('answers 400 for an unknown tag or a missing id, 404 for an unknown candidate', async () => {
		const id = firstOf('candidates').id;
		expect((await call('POST', `/candidates/${id}/tags`, { id: 'tag_nope' })).body).toMatchObject({ status: 400, errors: { id: ["Tag 'tag_nope' was not found."] } });
		expect((await call('POST', `/candidates/${id}/tags`, {})).body.errors).toEqual({ id: ["'id' is required."] });
		expect((await call('POST', '/candidates/can_nope/tags', { id: firstOf('tags').id })).status).toBe(404);
	});
});

describe('10 GET /applications', () => {
	it('lists applications with the full resource', async () => {
		const res = await call('GET', '/applications?page_size=2');
		expect(res.status).toBe(200);
		expect(res.body.meta.total_items).toBe(50);
		expect(Object.keys(res.body.items[0]).sort()).toEqual(
			['id', 'candidate', 'applied_at', 'job', 'cover_letter', 'stage', 'resume', 'source', 'interviews', 'feedback', 'potential_duplicate', 'compliance'].sort(),
		);
	});

	it('answers 400 for an unknown sort', async () => {
		const res = await call('GET', '/applications?sort=name');
		expect(res.body.errors).toEqual({ sort: ["'sort' must be one of: applied_at, -applied_at."] });
	});
});

describe('11 PUT /feedback/{id}', () => {
	const feedback = firstOf('feedback');

	it('stores the answers and answers the full feedback', async () => {
		const [q0, q1] = feedback.questions;
		const res = await call('PUT', `/feedback/${feedback.id}`, {
			feedback_id: feedback.id,
			form_id: 'form_other',
			answers: [
				{ question_id: q0.id, text: 'Strong candidate' },
				{ question_id: q1.id, ratings: [{ option_id: q1.options[0].id, rating: 4 }] },
			],
		});
		expect(res.status).toBe(200);
		expect(res.body.data.form_id).toBe('form_other');
		expect(res.body.data.questions[0].answer).toEqual({ ...q0.answer, text: 'Strong candidate' });
		expect(res.body.data.questions[1].answer.ratings).toEqual([{ option_id: q1.options[0].id, rating: 4 }]);
		expect(sb().get('feedback', feedback.id)).toEqual(res.body.data);
	});

	it('answers 400 for a question of another form and 404 for an unknown feedback', async () => {
		const bad = await call('PUT', `/feedback/${feedback.id}`, { answers: [{ question_id: 'q_nope' }] });
		expect(bad.body.errors).toEqual({ 'answers[0].question_id': ["Question 'q_nope' is not part of this feedback."] });
		expect((await call('PUT', '/feedback/fb_nope', {})).body.detail).toBe("Feedback 'fb_nope' was not found.");
	});
});

describe('12-14 simple lists', () => {
	it.each([
		['/emailtemplates', 5, /^tmpl_/],
		['/tags', 12, /^tag_/],
		['/users/categories', 4, /^ucat_/],
	])('GET %s lists the seeded records', async (path, count, prefix) => {
		const res = await call('GET', path);
		expect(res.status).toBe(200);
		expect(res.body.meta).toMatchObject({ total_items: count, total_pages: 1 });
		expect(res.body.items).toHaveLength(count);
		for (const item of res.body.items) expect(item.id).toMatch(prefix);
	});

	it.each(['/emailtemplates', '/tags', '/users/categories'])('GET %s answers 400 for page_size=0', async (path) => {
		expect((await call('GET', `${path}?page_size=0`)).status).toBe(400);
	});

	it('email templates and tags carry every field', async () => {
		expect(Object.keys((await call('GET', '/emailtemplates')).body.items[0]).sort()).toEqual(
			['id', 'company_id', 'name', 'subject', 'body', 'type_id', 'sub_stage_id', 'stage', 'user_id', 'language', 'private', 'auto_response_default'].sort(),
		);
		expect(Object.keys((await call('GET', '/tags')).body.items[0]).sort()).toEqual(['color', 'id', 'name', 'status', 'type']);
	});
});

describe('15 DELETE /forms/application/{id}', () => {
	it('deletes a form (204), then 404', async () => {
		const form = firstOf('applicationForms');
		expect((await call('DELETE', `/forms/application/${form.id}`)).status).toBe(204);
		const again = await call('DELETE', `/forms/application/${form.id}`);
		expect(again.status).toBe(404);
		expect(again.body.detail).toBe(`Application form '${form.id}' was not found.`);
	});
});

describe('16 PUT /interviews/{id}/cancel', () => {
	it('cancels (204) and the interview reads back cancelled', async () => {
		const interview = seeded.values('interviews')[1];
		const res = await call('PUT', `/interviews/${interview.id}/cancel`);
		expect(res.status).toBe(204);
		expect(sb().get('interviews', interview.id)).toMatchObject({ event: { status: 'cancelled', start: interview.event.start } });
		expect((await call('PUT', `/interviews/${interview.id}/cancel`)).status).toBe(204);
	});

	it('answers 404 for an unknown interview', async () => {
		expect((await call('PUT', '/interviews/int_nope/cancel')).body.detail).toBe("Interview 'int_nope' was not found.");
	});
});

describe('17-18 webhooks', () => {
	it('reads the seeded demo webhook', async () => {
		const res = await call('GET', '/webhooks/wh_demo');
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({
			id: 'wh_demo',
			name: expect.any(String),
			version: 1,
			endpoint: 'https://hooks.example.invalid/recruiting',
			description: expect.any(String),
			signing_key: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
			status: 'enabled',
			source: 'dashboard',
			subscribed_events: expect.arrayContaining(['job.created']),
		});
		expect(Buffer.from(res.body.data.signing_key.slice(6), 'base64')).toHaveLength(24);
	});

	it('updates: events become subscribed_events, the version goes up, GET reads it back', async () => {
		const res = await call('PUT', '/webhooks/wh_second', {
			endpoint: 'http://127.0.0.1:9/hook',
			events: ['job.created', 'interview.cancelled'],
			name: 'n8n',
			description: 'Points at n8n',
		});
		expect(res.status).toBe(200);
		expect(res.body.data).toMatchObject({
			id: 'wh_second',
			endpoint: 'http://127.0.0.1:9/hook',
			subscribed_events: ['job.created', 'interview.cancelled'],
			name: 'n8n',
			description: 'Points at n8n',
			version: 4,
		});
		expect(res.body.data).not.toHaveProperty('events');
		expect((await call('GET', '/webhooks/wh_second')).body).toEqual(res.body);
	});

	it('answers 404 for an unknown webhook (GET and PUT) and 400 for a relative endpoint', async () => {
		expect((await call('GET', '/webhooks/wh_nope')).body.detail).toBe("Webhook 'wh_nope' was not found.");
		expect((await call('PUT', '/webhooks/wh_nope', { name: 'x' })).status).toBe(404);
		expect((await call('PUT', '/webhooks/wh_demo', { endpoint: '/relative' })).body.errors).toEqual({
			endpoint: ["'endpoint' must be an absolute http or https URL."],
		});
	});
});
