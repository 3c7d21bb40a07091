/**
 * Reliability, part 2: bad input, property-based (fast-check), over every operation's parameters.
 *
 * For each of the 26 operations (the specification's 19 and the 7 of the service's full API),
 * arbitrary values for every parameter (ids with / .. . ? # %, unicode, 10,000 characters, empty,
 * whitespace, numbers, objects, null, n8n expressions, broken expressions, resource locators) are
 * run through the node and n8n's engine against the sandbox (the full API). The property, for
 * every run:
 *
 *   - success: every request the sandbox received was accepted (2xx): exactly one, or for a list
 *     the pages 1..n in order; or
 *   - a NodeOperationError thrown before any request (sandbox.requests is empty); or
 *   - an id that does not exist: one request, a 404 NodeApiError whose message names the id; or
 *   - a reference in the body to a record that does not exist (a tag, an application, a
 *     question, a user), or a well-formed event name the service does not offer: one request, the
 *     service's 400 names it. The node cannot know which ids exist, and lets unknown event names
 *     through on purpose (new events appear); this case is counted separately.
 *
 * The full API's operations may send more, each checked exactly: Application Get / Update Source
 * without a candidate first read GET /applications pages 1..n to find it (an application not
 * there is a 404 naming it, with no request of the operation's own); after a 404 of its own
 * request, a full-API operation sends one GET (fullApi.ts: the candidate its request names, or
 * the list's first page) to tell an unknown ID from a missing endpoint. Against this sandbox the
 * error "uses … an endpoint of the service's full API" is always a finding.
 *
 * And always: no request reached another path than the operation's own (segment count, fixed
 * segments, ids each in their own segment). A 400 the node should have caught is a finding.
 *
 * A second property, per operation: every VALID generated input (validInputs.ts: existing IDs,
 * well-formed e-mails, https URLs, ISO dates, known options, not-blank text, directly or through
 * expressions) reaches the service: a request on the operation's own path, 0 refused. Without it a
 * check that wrongly refused valid values would still count as "refused before any request".
 *
 * Seed: RELIABILITY_SEED (default below), printed; runs per operation: RELIABILITY_RUNS.
 */
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { FULL_API_MISSING } from '../../nodes/Recruiting/actions/fullApi';
import type { RecordedRequest } from '../../sandbox';
import { startNodeFixture, writeCounts, type NodeFixture } from './helpers';
import { seededRecords } from './seeded';
import { validInputs } from './validInputs';

const SEED = Number(process.env.RELIABILITY_SEED ?? 20261122);
const RUNS = Number(process.env.RELIABILITY_RUNS ?? 120);
/** Valid inputs per operation: a third of RUNS. */
const VALID_RUNS = Math.max(1, Math.round(RUNS / 3));
const SIZES = { applications: 20, jobs: 4, candidates: 20, tags: 6, emailTemplates: 5, userCategories: 4, jobNotesPerJob: 3 };
const startedAt = Date.now();

const tally = {
	inputsTried: 0,
	succeeded: 0,
	rejectedBeforeRequest: 0,
	/** n8n's own check of required parameters (WorkflowHasIssuesError): the node never ran. */
	refusedByN8n: 0,
	notFound404: 0,
	unknownReference400: 0,
	requestsSent: 0,
	otherPathRequests: 0,
	/** GET /applications pages read to find an application's candidate (Application Get / Update Source). */
	candidateLookupRequests: 0,
	/** The one GET a full-API operation sends after a 404, to tell an unknown ID from a missing endpoint. */
	probesAfter404: 0,
	unexpected: 0,
	/** Valid generated inputs (the second property), and how many reached the service. */
	validInputsTried: 0,
	validInputsReached: 0,
};
const perOperation: Record<string, number> = {};
const engineRefusals = new Set<string>();

let fx: NodeFixture;
beforeAll(async () => {
	fx = await startNodeFixture({ seed: SIZES });
	process.stdout.write(`badInput: fast-check seed ${SEED}, ${RUNS} runs per operation (RELIABILITY_SEED / RELIABILITY_RUNS)\n`);
});
afterAll(async () => {
	writeCounts(
		'badInput',
		{ ...tally, operations: Object.keys(perOperation).length },
		{
			startedAt,
			seed: SEED,
			notes: [`${RUNS} runs per operation`, `n8n engine refusals seen: ${[...engineRefusals].join(', ') || 'none'}`],
		},
	);
	await fx?.close();
});

/* ---------- seeded records the generators draw valid values from ---------- */

const company = 'cmp_demo';
const rec = <T = { id: string }>(collection: Parameters<typeof seededRecords>[1]) =>
	seededRecords<T>(company, collection, SIZES);
const ids = {
	jobs: rec('jobs').map((r) => r.id),
	candidates: rec('candidates').map((r) => r.id),
	applications: rec('applications').map((r) => r.id),
	interviews: rec('interviews').map((r) => r.id),
	tags: rec('tags').map((r) => r.id),
	forms: rec('applicationForms').map((r) => r.id),
	webhooks: rec('webhooks').map((r) => r.id),
	users: rec('users').map((r) => r.id),
};
const notes = rec<{ id: string; candidate_id: string }>('candidateNotes');
const feedback = rec<{ id: string; questions: Array<{ id: string; options?: Array<{ id: string }> }> }>('feedback');
/** Applications with their candidate, candidates with their applications, forms with their questions. */
const applications = rec<{ id: string; candidate: { id: string } }>('applications');
const candidates = rec<{ id: string; application_ids: string[] }>('candidates');
const forms = rec<{ id: string; questions: Array<{ id: string; required: boolean }> }>('applicationForms');

/* ---------- arbitraries ---------- */

/** An n8n expression that evaluates to `value`. */
const expr = (value: unknown) => `={{ ${JSON.stringify(value)} }}`;

const NASTY_STRINGS = [
	'',
	' ',
	'\t\n ',
	'.',
	'..',
	'/',
	'a/b',
	'../x',
	'a/../b',
	'./.',
	'?',
	'a?b=c&page=9',
	'#',
	'a#frag',
	'%',
	'%2F',
	'%2e%2e',
	'%00',
	'\u0000',
	'ünïcødé ✓ 日本 😀',
	'\u202Eevil',
	'a'.repeat(10_000),
	'日'.repeat(10_000),
	'/'.repeat(10_000),
	'😀'.repeat(5_000),
	'x'.repeat(101),
	'{{ $json.x }}',
	'=',
	'=={{1}}',
	'null',
	'undefined',
	'<script>alert(1)</script>',
	"' OR 1=1 --",
];

const BROKEN_EXPRESSIONS = [
	'={{ $json.missing.deep.path }}',
	'={{ 1 + }}',
	'={{ $("No such node").item.json.id }}',
	'={{ (() => { throw new Error("boom") })() }}',
	'={{ undefined }}',
	'={{ null }}',
	'={{ {} }}',
	'={{ [] }}',
	'={{ [1, 2] }}',
	'={{ NaN }}',
];

const anyString = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
	{ weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
	{ weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
	{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
);

/** Anything at all: strings, numbers, objects, arrays, null, booleans, expressions. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 4, arbitrary: anyString },
	{ weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1.5, 1e21, Number.MAX_SAFE_INTEGER)) },
	{ weight: 1, arbitrary: fc.oneof(fc.boolean(), fc.constant(null)) },
	{ weight: 1, arbitrary: fc.oneof(fc.object({ maxDepth: 1, maxKeys: 3 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 })) },
	{ weight: 2, arbitrary: anyString.map(expr) },
	{ weight: 1, arbitrary: fc.constantFrom(...BROKEN_EXPRESSIONS) },
);

/** A value for a field that takes `valid` values: valid ones half of the time, so requests happen. */
const field = <T>(valid: fc.Arbitrary<T>, weight = 2) =>
	fc.oneof({ weight, arbitrary: valid }, { weight: 1, arbitrary: valid.map(expr) }, { weight: 1, arbitrary: anything });

/** An id parameter: an existing id, the same through an expression or a number, or anything. */
const id = (existing: string[]) => field(fc.constantFrom(...existing), 3);

/** A resource locator parameter (`{ __rl, mode, value }`) around an id, or a bare value. */
const locator = (existing: string[]) =>
	fc.oneof(
		{ weight: 3, arbitrary: id(existing).map((value) => ({ __rl: true, mode: 'id', value })) },
		{ weight: 1, arbitrary: fc.constantFrom(...existing).map((value) => ({ __rl: true, mode: 'list', value })) },
		{ weight: 1, arbitrary: id(existing) },
		// By Name: a name is looked up in the tag list (only tags have this mode; the others ignore it).
		{ weight: 1, arbitrary: field(fc.string({ maxLength: 20 })).map((value) => ({ __rl: true, mode: 'name', value })) },
	);

const text = field(fc.string({ maxLength: 30 }));
const optional = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T) =>
	fc.record(model, { requiredKeys: [] });
const validDate = fc
	.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
	.map((d) => d.toISOString());
const dateish = field(
	fc.oneof(validDate, fc.constantFrom('2030-01-01 10:00', '2030-01-01T10:00', '2030-02-30T10:00:00Z', '2030-01-01', 'tomorrow')),
);
const email = field(fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'not an email', 'x@y.z ')));
const url = field(fc.oneof(fc.webUrl(), fc.constantFrom('ftp://x.y', 'http://', 'javascript:alert(1)', '/relative')));
const limit = field(fc.oneof(fc.integer({ min: 1, max: 250 }), fc.integer({ min: -5, max: 0 }), fc.constantFrom(1.5, 1e9)));
const returnAll = field(fc.boolean(), 4);
/** Request Options: the Timeout is only generated invalid or generous (a tiny one times out by design). */
const requestOptions = optional({
	timeout: fc.oneof(fc.integer({ min: 5_000, max: 60_000 }), fc.constantFrom(0, -1, 'abc', null, 1.5e-3)),
});
const additionalQuery = fc.array(
	fc.record({
		name: fc.oneof(fc.constantFrom('q', 'page', 'page_size', 'status', ''), fc.string({ maxLength: 8 })),
		value: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('1', '', 'a&b=c', '%')),
	}),
	{ maxLength: 3 },
);
const listParams = (extraOptions: Record<string, fc.Arbitrary<unknown>> = {}) => ({
	returnAll,
	limit,
	options: field(optional({ additionalQuery: additionalQuery.map((parameter) => ({ parameter })), ...extraOptions })),
});

/** A users dropdown (multiOptions): seeded user IDs, as a list or as comma-separated text (an expression), or anything. */
const userIds = field(fc.oneof(fc.subarray(ids.users), fc.subarray(ids.users).map((list) => list.join(', '))));

/** An application's ID and its candidate: the right one, none (found from the application), another, or anything. */
const applicationWithCandidate = fc.constantFrom(...applications).chain((app) =>
	fc.record(
		{
			applicationId: fc.oneof({ weight: 3, arbitrary: locator([app.id]) }, { weight: 1, arbitrary: locator(ids.applications) }),
			candidateId: fc.oneof(
				{ weight: 2, arbitrary: fc.constant(0).map(() => ({ __rl: true, mode: 'id', value: '' })) },
				{ weight: 2, arbitrary: locator([app.candidate.id]) },
				{ weight: 1, arbitrary: locator(ids.candidates) },
			),
		},
		{ requiredKeys: ['applicationId'] },
	),
);

const EVENTS = ['job.created', 'candidate.updated', 'interview.cancelled', 'application.created'];

/* ---------- the 26 operations (the spec's 19, the full API's 7): path template, method, parameter arbitrary ---------- */

type Segment = string | { param: string };
interface OperationSpec {
	resource: string;
	operation: string;
	method: string;
	path: Segment[];
	list?: boolean;
	/** May read the tag list first to find a tag given by name (GET /tags, any page). */
	tagLookup?: boolean;
	/** Reads its own path (GET) before the write: Remove Tag. */
	readsFirst?: boolean;
	/**
	 * Without a candidate, reads GET /applications pages 1..n to find the application's candidate,
	 * before its own request (application/fields.ts).
	 */
	applicationLookup?: boolean;
	/**
	 * A full-API operation: after a 404 of its own request, one GET (fullApi.ts) tells an unknown ID
	 * from a missing endpoint: the candidate its request names, or the first page of a list.
	 */
	probe?: 'candidate' | { list: string[] };
	params: fc.Arbitrary<INodeParameters>;
}

const P = (param: string) => ({ param });

const noteIds = fc.constantFrom(...notes).chain((note) =>
	fc.record({ candidateId: field(fc.constant(note.candidate_id), 4), noteId: field(fc.constant(note.id), 4) }),
);

const OPERATIONS: OperationSpec[] = [
	{
		resource: 'application',
		operation: 'getMany',
		method: 'GET',
		path: ['applications'],
		list: true,
		params: optional({
			...listParams({ sort: field(fc.constantFrom('applied_at', '-applied_at')) }),
			filters: field(
				optional({
					candidateId: id(ids.candidates),
					jobId: id(ids.jobs),
					customPipelineId: text,
					parentStage: field(fc.constantFrom('rejected', 'new', 'screening', 'interviewing', 'offered', 'hired')),
				}),
			),
		}) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'application',
		operation: 'get',
		method: 'GET',
		path: ['candidates', P('candidateId'), 'applications', P('applicationId')],
		applicationLookup: true,
		probe: 'candidate',
		params: fc
			.tuple(applicationWithCandidate, optional({ simplify: field(fc.boolean()) }))
			.map(([ids_, rest]) => ({ ...ids_, ...rest })) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'application',
		operation: 'updateSource',
		method: 'PUT',
		path: ['candidates', P('candidateId'), 'applications', P('applicationId'), 'source'],
		applicationLookup: true,
		probe: 'candidate',
		params: fc
			.tuple(
				applicationWithCandidate,
				fc.record({
					updateFields: field(
						fc
							.record({
								origin: field(
									fc.constantFrom('added', 'applied', 'interested', 'referred', 'candidate_pool', 'hire_hive_import', 'agency_submission', 'poached'),
								),
								source: field(fc.constantFrom('LinkedIn', 'Referral', 'Careers page'), 3),
								contact: field(optional({ contact: optional({ id: text, name: text }) })),
								recruiter: field(optional({ recruiter: optional({ id: text, name: text }) })),
								user: locator(ids.users),
							})
							// Any subset of the fields, the empty one included (refused before any request).
							.chain((all) => fc.subarray(Object.keys(all)).map((keys) => Object.fromEntries(keys.map((k) => [k, all[k as keyof typeof all]])))),
						3,
					),
				}),
			)
			.map(([ids_, rest]) => ({ ...ids_, ...rest })) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'applicationForm',
		operation: 'delete',
		method: 'DELETE',
		path: ['forms', 'application', P('formId')],
		params: fc.record({ formId: id(ids.forms) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'candidate',
		operation: 'get',
		method: 'GET',
		path: ['candidates', P('candidateId')],
		params: fc.record({ candidateId: id(ids.candidates) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'candidate',
		operation: 'update',
		method: 'PUT',
		path: ['candidates', P('candidateId')],
		tagLookup: true,
		params: fc.record({
			candidateId: id(ids.candidates),
			updateFields: field(
				optional({
					company: text,
					email,
					firstName: text,
					lastName: text,
					imageUrl: url,
					phoneNumber: text,
					rating: field(fc.integer({ min: 1, max: 5 })),
					title: text,
					location: field(optional({ location: optional({ address: text, countryCode: text, countryName: text }) })),
					socialProfiles: field(optional({ profile: fc.array(optional({ uri: url }), { maxLength: 2 }) })),
					tags: field(optional({ tag: fc.array(optional({ id: id(ids.tags), name: text }), { maxLength: 2 }) })),
				}),
			),
		}) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'candidate',
		operation: 'addTag',
		method: 'POST',
		path: ['candidates', P('candidateId'), 'tags'],
		tagLookup: true,
		params: fc.record({ candidateId: id(ids.candidates), tagId: locator(ids.tags) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'candidate',
		operation: 'removeTag',
		method: 'PUT',
		path: ['candidates', P('candidateId')],
		tagLookup: true,
		readsFirst: true,
		params: fc.record({ candidateId: id(ids.candidates), tagId: locator(ids.tags) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'candidateNote',
		operation: 'create',
		method: 'POST',
		path: ['candidates', P('candidateId'), 'notes'],
		probe: 'candidate',
		params: fc.constantFrom(...candidates).chain((candidate) =>
			fc.record(
				{
					candidateId: locator([candidate.id]),
					text: field(fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom('Screened by AI: strong match', ' ', '')), 3),
					additionalFields: field(
						optional({
							// One of this candidate's applications, or another's (the service refuses that).
							applicationId: locator(candidate.application_ids.length ? candidate.application_ids : ids.applications),
							mentionedUsers: userIds,
							restricted: field(fc.boolean()),
						}),
					),
				},
				{ requiredKeys: ['candidateId', 'text'] },
			),
		) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'candidateNote',
		operation: 'update',
		method: 'PUT',
		path: ['candidates', P('candidateId'), 'notes', P('noteId')],
		params: fc
			.tuple(
				noteIds,
				optional({
					updateFields: field(
						optional({
							text,
							restricted: field(fc.boolean()),
							mentionedUsers: field(fc.oneof(fc.constantFrom('usr_1, usr_2', ''), fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }))),
							files: field(
								optional({
									file: fc.array(
										optional({
											id: text,
											name: text,
											downloadLink: url,
											contentType: text,
											fileExtension: text,
											originalName: text,
											sizeInKb: field(fc.integer({ min: 0, max: 10_000 })),
										}),
										{ maxLength: 2 },
									),
								}),
							),
						}),
					),
				}),
			)
			.map(([ids_, rest]) => ({ ...ids_, ...rest })) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'emailTemplate',
		operation: 'getMany',
		method: 'GET',
		path: ['emailtemplates'],
		list: true,
		params: optional(listParams()) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'feedback',
		operation: 'update',
		method: 'PUT',
		path: ['feedback', P('feedbackId')],
		params: fc.constantFrom(...feedback).chain((fb) => {
			const questionIds = fb.questions.map((q) => q.id);
			const optionIds = fb.questions.flatMap((q) => (q.options ?? []).map((o) => o.id)).concat(['opt_x']);
			return fc.record({
				feedbackId: field(fc.constant(fb.id), 4),
				applicationId: id(ids.applications),
				formId: id(ids.forms),
				answers: field(
					optional({
						answer: fc.array(
							optional({
								questionId: field(fc.constantFrom(...questionIds), 4),
								text,
								selectedOption: field(fc.constantFrom(...optionIds)),
								selectedOptions: field(fc.constantFrom(optionIds.slice(0, 2).join(','), '')),
								ratings: field(
									optional({
										rating: fc.array(
											optional({ optionId: field(fc.constantFrom(...optionIds)), rating: field(fc.integer({ min: 0, max: 10 })) }),
											{ maxLength: 2 },
										),
									}),
								),
							}),
							{ maxLength: 2 },
						),
					}),
				),
			});
		}) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'feedback',
		operation: 'getMany',
		method: 'GET',
		path: ['feedback'],
		list: true,
		params: optional({
			...listParams(),
			filters: field(
				optional({
					formId: field(fc.constantFrom(...ids.forms)),
					status: field(fc.constantFrom('pending', 'complete', 'completed')),
				}),
			),
		}) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'feedback',
		operation: 'complete',
		method: 'POST',
		path: ['feedback'],
		probe: { list: ['feedback'] },
		params: fc.constantFrom(...forms).chain((form) =>
			fc.record(
				{
					applicationId: locator(ids.applications),
					formId: field(fc.constant(form.id), 4),
					answers: fc.oneof(
						// The form's required questions answered: the service completes the form.
						fc.constant(0).map(() => ({
							answer: form.questions.filter((q) => q.required).map((q) => ({ questionId: q.id, text: 'Keen on the mission' })),
						})),
						field(
							optional({
								answer: fc.array(
									optional({
										questionId: field(fc.constantFrom(...form.questions.map((q) => q.id)), 4),
										text,
										selectedOption: field(fc.constantFrom('yes', 'no')),
									}),
									{ maxLength: 2 },
								),
							}),
						),
					),
				},
				{ requiredKeys: ['applicationId', 'formId'] },
			),
		) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'interview',
		operation: 'create',
		method: 'POST',
		path: ['interviews'],
		params: fc
			.record({
				applicationId: locator(ids.applications),
				type: field(fc.constantFrom('phone', 'online', 'on_site')),
				start: dateish,
				end: dateish,
				timeZone: field(fc.constantFrom('UTC', 'Europe/Dublin', 'America/New_York', 'Mars/Olympus', '')),
				attendees: field(
					optional({
						attendee: fc.array(
							optional({
								type: field(fc.constantFrom('user', 'candidate', 'guest')),
								userId: id(ids.users),
								applicationId: id(ids.applications),
								email,
							}),
							{ maxLength: 2 },
						),
					}),
				),
				additionalFields: field(
					optional({
						title: text,
						location: text,
						meetingUrl: url,
						noteForAttendees: text,
						noteForCandidate: text,
						organizerId: locator(ids.users),
						attachResumeToInvite: field(fc.boolean()),
						onlineMeetingType: field(fc.constantFrom('hangouts_meet', 'teams_for_business', 'unknown')),
					}),
				),
			})
			// Valid start/end pairs often enough for the service to be reached.
			.chain((p) =>
				fc.oneof(
					fc.constant(p),
					validDate.map((start) => ({ ...p, start, end: new Date(Date.parse(start) + 3_600_000).toISOString() })),
				),
			) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'interview',
		operation: 'cancel',
		method: 'PUT',
		path: ['interviews', P('interviewId'), 'cancel'],
		params: fc.record({ interviewId: id(ids.interviews) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'job',
		operation: 'create',
		method: 'POST',
		path: ['jobs'],
		tagLookup: true,
		params: fc.record({
			title: field(fc.string({ minLength: 1, maxLength: 100 }), 3),
			additionalFields: field(
				optional({
					description: field(fc.oneof(fc.string({ maxLength: 50 }), fc.constant('d'.repeat(100_001)))),
					status: field(fc.constantFrom('drafted', 'published', 'closed', 'internal')),
					type: field(fc.constantFrom('full_time', 'part_time', 'contract')),
					experience: field(fc.constantFrom('na', 'senior')),
					salary: text,
					jobCode: text,
					ownerId: locator(ids.users),
					assignedTeam: field(optional({ team: optional({ assignedUsers: userIds, recruiterIds: userIds }) })),
					// The list takes users or e-mail addresses.
					notifications: field(
						optional({
							notifications: optional({
								newApplicationEmail: fc.oneof(userIds, field(fc.constant(['hiring@acme-recruiting.example', ids.users[0]]))),
							}),
						}),
					),
					deadline: field(optional({ deadline: optional({ closesAt: dateish, autoClose: field(fc.boolean()) }) })),
					category: field(optional({ category: optional({ id: text, name: text }) })),
					language: field(optional({ language: optional({ id: text, name: text, code: text }) })),
					location: field(optional({ location: optional({ city: text, remote: text, countryCode: text, stateName: text }) })),
					applicationForm: field(optional({ form: optional({ resume: text, phone: text, additionalFormIds: text }) })),
					autoResponder: field(optional({ responder: optional({ id: text, emailSubject: text, emailBody: text }) })),
					tags: field(optional({ tag: fc.array(optional({ id: text, name: text }), { maxLength: 2 }) })),
				}),
			),
		}) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'job',
		operation: 'get',
		method: 'GET',
		path: ['jobs', P('jobId')],
		params: fc.record({ jobId: id(ids.jobs) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'job',
		operation: 'delete',
		method: 'DELETE',
		path: ['jobs', P('jobId')],
		params: fc.record({ jobId: id(ids.jobs) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'jobNote',
		operation: 'getMany',
		method: 'GET',
		path: ['jobs', P('jobId'), 'notes'],
		list: true,
		params: fc.record({ jobId: id(ids.jobs), ...listParams() }, { requiredKeys: ['jobId'] }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'tag',
		operation: 'getMany',
		method: 'GET',
		path: ['tags'],
		list: true,
		params: optional(listParams()) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'user',
		operation: 'getMany',
		method: 'GET',
		path: ['users'],
		list: true,
		params: optional(listParams()) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'user',
		operation: 'get',
		method: 'GET',
		path: ['users', P('userId')],
		probe: { list: ['users'] },
		params: fc.record({ userId: locator(ids.users) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'userCategory',
		operation: 'getMany',
		method: 'GET',
		path: ['users', 'categories'],
		list: true,
		params: optional(listParams()) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'webhook',
		operation: 'get',
		method: 'GET',
		path: ['webhooks', P('webhookId')],
		params: fc.record({ webhookId: id(ids.webhooks) }) as fc.Arbitrary<INodeParameters>,
	},
	{
		resource: 'webhook',
		operation: 'update',
		method: 'PUT',
		path: ['webhooks', P('webhookId')],
		params: fc.record({
			webhookId: id(ids.webhooks),
			updateFields: field(
				optional({
					description: text,
					name: text,
					endpoint: url,
					events: field(fc.oneof(fc.subarray(EVENTS), fc.constant(EVENTS.join(',')), fc.constant(['job.exploded']))),
				}),
			),
		}) as fc.Arbitrary<INodeParameters>,
	},
];

/* ---------- the property ---------- */

/** Why a request went to an unexpected path, or undefined when it went to the operation's own. */
function wrongPath(spec: OperationSpec, request: RecordedRequest): string | undefined {
	const expected = ['v1.0', fx.sandbox.companyId, ...spec.path];
	if (request.method !== spec.method && !(spec.readsFirst && request.method === 'GET')) return `method ${request.method}`;
	if (request.segments.length !== expected.length) return `${request.segments.length} segments: ${request.path.slice(0, 200)}`;
	for (let i = 0; i < expected.length; i++) {
		const want = expected[i];
		const got = request.segments[i];
		if (typeof want === 'string' && got !== want) return `segment ${i} is ${JSON.stringify(got.slice(0, 50))}`;
		if (typeof want !== 'string' && (got === '' || got === '.' || got === '..')) return `id segment ${JSON.stringify(got)}`;
	}
	return undefined;
}

/**
 * The operation's requests without the candidate lookup's GET /applications pages (first, pages
 * 1..n in order) and without the one probe GET after its own request's 404 (on the exact path
 * fullApi.ts uses: the candidate its request names, or the list's first page of one item).
 * Anything else stays among its own requests, where the path check catches it.
 */
function splitLookupAndProbe(
	spec: OperationSpec,
	requests: RecordedRequest[],
): { lookup: RecordedRequest[]; own: RecordedRequest[]; probe?: RecordedRequest } {
	const base = ['v1.0', fx.sandbox.companyId];
	const same = (request: RecordedRequest, segments: string[]) =>
		request.method === 'GET' && request.segments.length === segments.length && segments.every((s, i) => request.segments[i] === s);
	let n = 0;
	if (spec.applicationLookup) {
		while (n < requests.length && same(requests[n], [...base, 'applications'])) {
			const page = requests[n];
			if (page.query.page !== String(n + 1) || page.status < 200 || page.status > 299) {
				throw new Error(`candidate lookup: page ${page.query.page} answered ${page.status} as request ${n + 1}`);
			}
			n++;
		}
	}
	const lookup = requests.slice(0, n);
	let own = requests.slice(n);
	let probe: RecordedRequest | undefined;
	if (spec.probe && own.length === 2 && own[0].status === 404) {
		const [first, second] = own;
		const path =
			spec.probe === 'candidate' ? [...base, 'candidates', first.segments[3]] : [...base, ...spec.probe.list];
		const query =
			spec.probe === 'candidate' ? {} : { page: '1', page_size: '1' };
		if (same(second, path) && JSON.stringify(second.query) === JSON.stringify(query)) {
			probe = second;
			own = [first];
		}
	}
	return { lookup, own, probe };
}

/**
 * A 400 for what only the service can know: a referenced record (tag, application, question, user)
 * that does not exist, an application that is another candidate's (Candidate Note Create), a form's
 * required question left unanswered (Feedback Complete: no endpoint reads a form's questions), or a
 * well-formed event name it does not offer (the node lets those through on purpose: new events
 * appear over time).
 */
function isUnknownReference(request: RecordedRequest | undefined, message: string, description: string): boolean {
	if (!request || request.status !== 400) return false;
	return /was not found|is not part of (?:this feedback|form '[^']*')|is not an application of candidate '|Question '[^']*' is required to complete the form|'events\[\d+\]' must be one of|'tags\[\d+\]\.id' is required/.test(
		`${message}\n${description}`,
	);
}

type Outcome = 'success' | 'rejected' | 'refusedByN8n' | 'notFound' | 'unknownReference';

async function runOnce(spec: OperationSpec, params: INodeParameters): Promise<Outcome> {
	fx.sandbox.clearRequests();
	let result: Awaited<ReturnType<NodeFixture['run']>>;
	try {
		result = await fx.run({ resource: spec.resource, operation: spec.operation, ...params });
	} catch (error) {
		// n8n's engine refused the workflow before the node ran: a required parameter is empty
		// (WorkflowHasIssuesError, as the editor would say), or a stored parameter has a shape the
		// editor never writes (a resource locator that is null: a TypeError inside n8n).
		if (fx.sandbox.requests.length === 0) {
			engineRefusals.add((error as Error).name);
			return 'refusedByN8n';
		}
		throw error;
	}
	const all = [...fx.sandbox.requests];
	tally.requestsSent += all.length;
	// A tag given by name is looked up in the tag list first: those GETs are not the operation's own.
	const isTagLookup = (r: RecordedRequest) =>
		spec.tagLookup === true && r.method === 'GET' && r.segments.length === 3 && r.segments[2] === 'tags';
	const { lookup, own: requests, probe } = splitLookupAndProbe(spec, all.filter((r) => !isTagLookup(r)));
	tally.candidateLookupRequests += lookup.length;
	if (probe) tally.probesAfter404++;
	const off = requests.map((r) => wrongPath(spec, r)).filter((why): why is string => why !== undefined);
	if (off.length) {
		tally.otherPathRequests += off.length;
		throw new Error(`request(s) outside the operation's path: ${off.join('; ')}`);
	}
	const error = result.error as (Error & { httpCode?: string; description?: string | null }) | undefined;
	const summary = () =>
		`error ${error?.constructor?.name}: ${error?.message?.slice(0, 300)} | ${String(error?.description ?? '').slice(0, 300)} | statuses ${requests.map((r) => r.status).join(',')}`;

	if (!error) {
		const bad = all.filter((r) => r.status < 200 || r.status > 299);
		if (requests.length === 0 || bad.length) throw new Error(`succeeded but ${summary()}`);
		if (spec.list) {
			const pages = requests.map((r) => r.query.page);
			if (pages.some((p, i) => p !== String(i + 1))) throw new Error(`pages out of order: ${pages.join(',')}`);
		} else if (requests.length !== 1 && !(spec.readsFirst && requests.length === 2 && requests[0].method === 'GET')) {
			throw new Error(`${requests.length} requests for one item`);
		}
		return 'success';
	}
	// Against the full sandbox every endpoint exists: this message would be a finding.
	if (error.message?.includes(FULL_API_MISSING)) throw new Error(`a full-API endpoint reported missing: ${summary()}`);
	if (requests.length === 0 && lookup.length > 0) {
		// The candidate lookup went through the application list without finding the application.
		const named = /^The application "([^]*)" was not found$/.exec(error.message)?.[1];
		if (error instanceof NodeApiError && error.httpCode === '404' && named !== undefined && !fx.sandbox.get('applications', named)) {
			return 'notFound';
		}
		throw new Error(`the candidate lookup ended without a 404 naming an unknown application: ${summary()}`);
	}
	if (requests.length === 0) {
		if (!(error instanceof NodeOperationError)) throw new Error(`no request, but not a NodeOperationError: ${summary()}`);
		return 'rejected';
	}
	if (probe && !(error instanceof NodeApiError && error.httpCode === '404')) {
		throw new Error(`a probe after the 404, but the error is not that 404: ${summary()}`);
	}
	if (error instanceof NodeApiError && error.httpCode === '404') {
		// fullApi.ts asks once whether the ID exists before it calls a 404 an unknown ID.
		if (spec.probe && !probe) throw new Error(`a 404 of a full-API operation without its probe GET: ${summary()}`);
		const idSegments = spec.path.flatMap((s, i) => (typeof s === 'string' ? [] : [requests[0].segments[i + 2]]));
		if (requests.length === 1 && idSegments.some((segment) => error.message.includes(`"${segment}"`))) return 'notFound';
		throw new Error(`a 404 that does not name the id: ${summary()}`);
	}
	if (requests.length === 1 && isUnknownReference(requests[0], error.message, String(error.description ?? ''))) {
		return 'unknownReference';
	}
	throw new Error(`unexpected outcome: ${summary()}`);
}

describe.each(OPERATIONS.map((spec) => [`${spec.resource} ${spec.operation}`, spec] as const))('%s', (name, spec) => {
	// Each operation starts from the seed: an earlier one's deletes (the forms, the jobs) would
	// otherwise leave it no valid record to reach the service with.
	beforeAll(() => fx.sandbox.reset(SIZES));
	test(`${RUNS} generated parameter sets: accepted, refused before any request, or a 404 naming the id`, async () => {
		const outcomes: Record<Outcome, number> = { success: 0, rejected: 0, refusedByN8n: 0, notFound: 0, unknownReference: 0 };
		await fc.assert(
			fc.asyncProperty(spec.params, requestOptions, async (params, options) => {
				tally.inputsTried++;
				const all = Object.keys(options).length ? { ...params, requestOptions: options as INodeParameters } : params;
				const outcome = await runOnce(spec, all);
				outcomes[outcome]++;
			}),
			{ seed: SEED, numRuns: RUNS, endOnFailure: false },
		).catch((error: Error) => {
			tally.unexpected++;
			throw error;
		});
		tally.succeeded += outcomes.success;
		tally.rejectedBeforeRequest += outcomes.rejected;
		tally.refusedByN8n += outcomes.refusedByN8n;
		tally.notFound404 += outcomes.notFound;
		tally.unknownReference400 += outcomes.unknownReference;
		perOperation[name] = RUNS;
		process.stdout.write(`badInput ${name}: ${JSON.stringify(outcomes)}\n`);
		// Every operation must also have reached the service with some of its inputs.
		expect(outcomes.success + outcomes.notFound + outcomes.unknownReference).toBeGreaterThan(0);
	}, 120_000);

	test(`${VALID_RUNS} valid generated parameter sets: every one reaches the service (0 refused)`, async () => {
		// From the seed again: the first property's deletes would leave no record to reach.
		fx.sandbox.reset(SIZES);
		const valid = VALID[name];
		expect(valid).toBeDefined();
		let reached = 0;
		await fc.assert(
			fc.asyncProperty(valid, async (params) => {
				tally.validInputsTried++;
				const refusal = await refusedBeforeTheService(spec, params);
				if (refusal !== undefined) throw new Error(`a valid input was refused before any request of its own: ${refusal}`);
				reached++;
			}),
			{ seed: SEED, numRuns: VALID_RUNS },
		);
		tally.validInputsReached += reached;
		expect(reached).toBe(VALID_RUNS);
	}, 120_000);
});

const VALID = validInputs(company, SIZES);

/**
 * Why a run sent no request on the operation's own path (n8n refused the workflow, or the node's
 * error), or undefined when one went out; what the service answered does not matter here.
 */
async function refusedBeforeTheService(spec: OperationSpec, params: INodeParameters): Promise<string | undefined> {
	fx.sandbox.clearRequests();
	let result: Awaited<ReturnType<NodeFixture['run']>>;
	try {
		result = await fx.run({ resource: spec.resource, operation: spec.operation, ...params });
	} catch (error) {
		return `n8n refused the workflow: ${(error as Error).name}: ${(error as Error).message}`;
	}
	if (fx.sandbox.requests.some((request) => wrongPath(spec, request) === undefined)) return undefined;
	const error = result.error as (Error & { description?: string | null }) | undefined;
	return error ? `${error.constructor.name}: ${error.message} | ${String(error.description ?? '')}` : 'no request and no error';
}
