import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { SEED_USERS, type Interview } from '../../sandbox';
import { apiPath, errorOf, expr, jsonOf, listDirect, startRecruitingFixture, type RecruitingFixture } from './fixture';

const SEED = { applications: 2, jobs: 1, candidates: 2, tags: 1 };
const WEIRD_ID = 'a/b?c#d%e+f&ü';
const USER = SEED_USERS[1].id;

let fx: RecruitingFixture;
let appId: string;
let seededInterview: Interview;
beforeAll(async () => {
	fx = await startRecruitingFixture(SEED);
	const withInterview = (await listDirect(fx.sandbox, ['applications'])).find(
		(application) => (application.interviews as string[]).length > 0,
	) as IDataObject;
	appId = String(withInterview.id);
	seededInterview = fx.sandbox.get('interviews', (withInterview.interviews as string[])[0]) as Interview;
});
afterAll(async () => await fx.close());
beforeEach(() => fx.sandbox.reset(SEED));

const summary = () => fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
const application = (value: string, mode = 'list') => ({ __rl: true, mode, value });
const create = async (parameters: INodeParameters = {}) =>
	await fx.run({
		resource: 'interview',
		operation: 'create',
		applicationId: application(appId),
		type: 'online',
		start: '2030-03-04T10:00:00Z',
		end: '2030-03-04T11:00:00Z',
		...parameters,
	});
const cancel = async (interviewId: string) => await fx.run({ resource: 'interview', operation: 'cancel', interviewId });

async function expectRejected(parameters: INodeParameters, message: string | RegExp) {
	const error = errorOf(await create(parameters));
	expect(error.message).toMatch(message);
	expect(error.itemIndex).toBe(0);
	expect(fx.sandbox.requests).toHaveLength(0);
}

describe('interview create', () => {
	test('POST /interviews with every field in the API shape; outputs the created interview', async () => {
		const result = await create({
			type: 'on_site',
			start: '2030-03-04T10:00:00',
			end: '2030-03-04T11:30:00',
			timeZone: 'Europe/Dublin',
			attendees: {
				attendee: [
					{ type: 'user', userId: USER, applicationId: '', email: '' },
					{ type: 'candidate', userId: '', applicationId: '', email: '' },
					{ type: 'guest', userId: '', applicationId: '', email: 'panel@partner.example' },
				],
			},
			additionalFields: {
				title: 'Final round',
				location: '1 Grand Canal Square, Dublin 2',
				organizerId: SEED_USERS[0].id,
				noteForCandidate: 'Bring a photo ID.',
				noteForAttendees: 'Focus on design.',
				attachResumeToInvite: true,
				onlineMeetingType: 'teams_for_business',
				meetingUrl: 'https://meet.example.com/final',
			},
		});
		expect(result.error).toBeUndefined();
		const body = {
			application_id: appId,
			event: {
				title: 'Final round',
				location: '1 Grand Canal Square, Dublin 2',
				type: 'on_site',
				start: '2030-03-04T10:00:00',
				end: '2030-03-04T11:30:00',
				time_zone: 'Europe/Dublin',
				organizer_id: SEED_USERS[0].id,
				attendees: [
					{ type: 'user', application_id: null, user_id: USER },
					{ type: 'candidate', application_id: appId, user_id: null },
					{ type: 'guest', application_id: null, user_id: null, email: 'panel@partner.example' },
				],
			},
			meta: {
				note_for_candidate: 'Bring a photo ID.',
				note_for_attendees: 'Focus on design.',
				attach_resume_to_invite: true,
				online_meeting_type: 'teams_for_business',
				meeting_url: 'https://meet.example.com/final',
			},
		};
		expect(summary()).toEqual([{ method: 'POST', path: apiPath(fx.sandbox, 'interviews'), query: {}, body }]);
		expect(fx.sandbox.requests[0].status).toBe(201);
		expect(result.items).toHaveLength(1);
		const [interview] = jsonOf(result);
		expect(interview).toMatchObject({
			application_id: appId,
			event: { title: 'Final round', type: 'on_site', status: 'active', time_zone: 'Europe/Dublin' },
			meta: body.meta,
		});
		expect(String(interview.id)).toMatch(/^int_/);
		expect(((interview.event as IDataObject).attendees as IDataObject[]).map((a) => [a.type, a.user_id, a.application_id])).toEqual([
			['user', USER, null],
			['candidate', null, appId],
			['guest', null, null],
		]);
		expect(fx.sandbox.get('interviews', String(interview.id))).toEqual(interview);
	});

	test('only the required fields: no empty optional property, no meta, time zone UTC by default', async () => {
		const result = await create({ applicationId: application(appId, 'id') });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].body).toEqual({
			application_id: appId,
			event: { type: 'online', start: '2030-03-04T10:00:00Z', end: '2030-03-04T11:00:00Z', time_zone: 'UTC' },
		});
	});

	test('a candidate attendee can name another application', async () => {
		await create({ attendees: { attendee: [{ type: 'candidate', applicationId: 'app_other' }] } });
		expect((fx.sandbox.requests[0].body as { event: IDataObject }).event.attendees).toEqual([
			{ type: 'candidate', application_id: 'app_other', user_id: null },
		]);
	});

	test.each([
		['an empty application', { applicationId: application(expr(''), 'id') }, 'Invalid "Application": a value is required'],
		['a start that is no date', { start: expr('next tuesday') }, 'Invalid "Start": "next tuesday" is not a valid ISO 8601 date and time'],
		['an impossible end time', { end: '2030-03-04T25:00:00Z' }, 'Invalid "End": "2030-03-04T25:00:00Z" is not a valid ISO 8601 date and time'],
		['an end before the start', { end: '2030-03-04T09:00:00Z' }, 'Invalid "End": must be after the start (2030-03-04T10:00:00Z)'],
		['an end equal to the start', { end: '2030-03-04T10:00:00Z' }, /^Invalid "End": must be after the start/],
		['an unknown time zone', { timeZone: expr('Mars/Olympus_Mons') }, 'Invalid "Time Zone": "Mars/Olympus_Mons" is not a known IANA time zone'],
		['an empty time zone', { timeZone: expr('') }, /^Invalid "Time Zone": /],
		['an unknown interview type', { type: expr('video') }, 'Invalid "Type": must be one of phone, online, on_site'],
		[
			'a guest without a valid email',
			{ attendees: { attendee: [{ type: 'guest', email: 'panel at partner' }] } },
			'Invalid "Email": "panel at partner" is not a valid email address',
		],
		['a user attendee without a user ID', { attendees: { attendee: [{ type: 'user', userId: '' }] } }, 'Invalid "User ID": a user attendee needs a user ID'],
		['a meeting URL that is no URL', { additionalFields: { meetingUrl: 'meet.example.com/x' } }, /^Invalid "Meeting URL": /],
	])('%s is rejected before any request', async (_, parameters, message) => {
		await expectRejected(parameters, message);
	});

	describe('end after start, as instants in the interview\'s Time Zone (issue 27, point 11)', () => {
		const posts = () => fx.sandbox.requests.filter((request) => request.method === 'POST');

		test('a zone-less start in the Time Zone against an end with an offset', async () => {
			// 10:00 in Los Angeles is 18:00Z: an end at 10:30Z is before it.
			await expectRejected(
				{ start: '2030-03-04T10:00:00', end: '2030-03-04T10:30:00Z', timeZone: 'America/Los_Angeles' },
				'Invalid "End": must be after the start (2030-03-04T10:00:00)',
			);
			// 10:00 in Tokyo is 01:00Z: an end at 05:00Z (14:00 there) is after it, and is sent as written.
			const result = await create({ start: '2030-03-04T10:00:00', end: '2030-03-04T05:00:00Z', timeZone: 'Asia/Tokyo' });
			expect(result.error).toBeUndefined();
			expect((posts()[0].body as { event: IDataObject }).event).toMatchObject({ start: '2030-03-04T10:00:00', end: '2030-03-04T05:00:00Z' });
		});

		test('offsets are compared as instants: 11:00+02:00 is before 10:00Z', async () => {
			await expectRejected({ start: '2030-03-04T10:00:00Z', end: '2030-03-04T11:00:00+02:00' }, /^Invalid "End": must be after the start/);
		});

		test('across a DST change of the interview\'s own zone: 01:30 to 01:20 after New York\'s clocks go back is 50 minutes', async () => {
			// 2030-11-03 in New York: 01:30-04:00 (EDT), then the clock goes back and 01:20-05:00 (EST) follows.
			const result = await create({ start: '2030-11-03T01:30:00-04:00', end: '2030-11-03T01:20:00-05:00', timeZone: 'America/New_York' });
			expect(result.error).toBeUndefined();
			// Berlin's clocks went forward at 01:00Z that day: 03:00 there (CEST) is 01:00Z, before an end at 02:00Z.
			const berlin = await create({ start: '2030-03-31T03:00:00', end: '2030-03-31T02:00:00Z', timeZone: 'Europe/Berlin' });
			expect(berlin.error).toBeUndefined();
			// The day before, 03:00 there (CET) is 02:00Z: an end at 02:00Z is not after it.
			fx.sandbox.clearRequests();
			await expectRejected(
				{ start: '2030-03-30T03:00:00', end: '2030-03-30T02:00:00Z', timeZone: 'Europe/Berlin' },
				/^Invalid "End": must be after the start/,
			);
		});
	});

	test('a server-only rejection (an unknown application) surfaces title, detail and the field error', async () => {
		const error = errorOf(await create({ applicationId: application('app_missing', 'id') }));
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([400]);
		expect(error.message).toBe('One or more validation errors occurred. (HTTP 400)');
		expect(error.description).toContain('The request is invalid; see errors for each field.');
		expect(error.description).toContain("application_id: Application 'app_missing' was not found.");
	});

	test('a 404 names the application', async () => {
		fx.sandbox.setFaults([{ kind: 'status', status: 404, method: 'POST', path: '/interviews' }]);
		const error = errorOf(await create());
		expect(error.message).toBe(`The application "${appId}" was not found`);
		expect(fx.sandbox.requests).toHaveLength(1);
	});
});

describe('interview cancel', () => {
	test('PUT /interviews/{interviewId}/cancel without a body; outputs { success: true }; the interview is cancelled', async () => {
		fx.sandbox.put('interviews', { ...seededInterview, event: { ...seededInterview.event, status: 'active' } });
		const result = await cancel(seededInterview.id);
		expect(result.error).toBeUndefined();
		expect(summary()).toEqual([
			{ method: 'PUT', path: apiPath(fx.sandbox, 'interviews', seededInterview.id, 'cancel'), query: {}, body: undefined },
		]);
		expect(fx.sandbox.requests[0].status).toBe(204);
		expect(jsonOf(result)).toEqual([{ success: true }]);
		expect((fx.sandbox.get('interviews', seededInterview.id) as Interview).event.status).toBe('cancelled');
	});

	test('a created interview can be cancelled', async () => {
		const [created] = jsonOf(await create());
		const result = await cancel(String(created.id));
		expect(result.error).toBeUndefined();
		expect((fx.sandbox.get('interviews', String(created.id)) as Interview).event.status).toBe('cancelled');
	});

	test('an ID with reserved characters reaches exactly one path segment', async () => {
		fx.sandbox.put('interviews', { ...seededInterview, id: WEIRD_ID });
		const result = await cancel(WEIRD_ID);
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].path).toBe(apiPath(fx.sandbox, 'interviews', WEIRD_ID, 'cancel'));
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'interviews', WEIRD_ID, 'cancel']);
		expect((fx.sandbox.get('interviews', WEIRD_ID) as Interview).event.status).toBe('cancelled');
	});

	test.each(['', '.', '..'])('interview ID %j is rejected before any request', async (interviewId) => {
		const error = errorOf(await cancel(expr(interviewId)));
		expect(error.message).toMatch(/^Invalid "Interview ID": /);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('an unknown interview is a 404 that names the id', async () => {
		const error = errorOf(await cancel('int_missing'));
		expect(error.message).toBe('The interview "int_missing" was not found');
		expect(error.httpCode).toBe('404');
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([404]);
	});

	test('a 400 problem document surfaces its title and detail, and nothing is cancelled', async () => {
		fx.sandbox.put('interviews', { ...seededInterview, event: { ...seededInterview.event, status: 'active' } });
		fx.sandbox.setFaults([{ kind: 'status', status: 400, method: 'PUT', path: '/cancel' }]);
		const error = errorOf(await cancel(seededInterview.id));
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe('Bad Request (HTTP 400)');
		expect(error.description).toBe('Injected fault: the sandbox was told to fail this request.');
		expect((fx.sandbox.get('interviews', seededInterview.id) as Interview).event.status).toBe('active');
	});
});
