/**
 * Valid parameters for each of badInput.test.ts's 26 operations: existing IDs from the seed,
 * well-formed e-mails, https URLs, ISO dates with the end after the start, known option values,
 * text that is not blank, any subset of the optional fields (at least one where the node needs one
 * to write), each value given directly or through an n8n expression. The node must send every
 * one of them to the service: the property "0 refused" of badInput.test.ts.
 */
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';

import type { SeedSizes } from '../../sandbox';
import { seededRecords } from './seeded';

/** An n8n expression that evaluates to `value`. */
const expr = (value: unknown) => `={{ ${JSON.stringify(value)} }}`;

/** A valid value, given directly or through an expression. */
const v = <T>(valid: fc.Arbitrary<T>) => fc.oneof(valid, valid.map(expr));

/**
 * Text that is not blank. Not starting with "=" (n8n would read it as an expression) and without
 * "{{" or "}}" (n8n's expression delimiters, which an expression of it would contain).
 */
const text = v(
	fc
		.string({ minLength: 1, maxLength: 30 })
		.filter((s) => s.trim() !== '' && !s.startsWith('=') && !s.includes('{{') && !s.includes('}}')),
);
const date = fc
	.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
	.map((d) => d.toISOString());
const email = v(fc.emailAddress().filter((e) => e.length <= 254));
const url = v(fc.webUrl({ validSchemes: ['https'] }));
const bool = v(fc.boolean());
const oneOf = <T>(...values: T[]) => v(fc.constantFrom(...values));

/** Optional fields: any subset. */
const some = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T) => fc.record(model, { requiredKeys: [] });
/** Optional fields of which the node needs at least one (an update with nothing to change is refused). */
const atLeastOne = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T) =>
	some(model).filter((fields) => Object.keys(fields).length > 0);

const P = (a: fc.Arbitrary<unknown>) => a as fc.Arbitrary<INodeParameters>;

export function validInputs(companyId: string, sizes: SeedSizes): Record<string, fc.Arbitrary<INodeParameters>> {
	const rec = <T = { id: string }>(collection: Parameters<typeof seededRecords>[1]) => seededRecords<T>(companyId, collection, sizes);
	const ids = (collection: Parameters<typeof seededRecords>[1]) => rec(collection).map((r) => r.id);
	const id = (existing: string[]) => oneOf(...existing);
	/** A resource locator from the list or by ID, or the bare ID. */
	const locator = (existing: string[]) =>
		fc.oneof(
			id(existing).map((value) => ({ __rl: true, mode: 'id', value })),
			fc.constantFrom(...existing).map((value) => ({ __rl: true, mode: 'list', value })),
			id(existing),
		);
	const users = ids('users');
	const userList = v(fc.subarray(users, { minLength: 1 }));
	const tags = rec<{ id: string; name: string }>('tags');
	/** A tag by ID, from the list, or by its name. */
	const tag = fc.oneof(
		locator(tags.map((t) => t.id)),
		v(fc.constantFrom(...tags.map((t) => t.name))).map((value) => ({ __rl: true, mode: 'name', value })),
	);
	const list = (extra: Record<string, fc.Arbitrary<unknown>> = {}) => ({ returnAll: bool, limit: v(fc.integer({ min: 1, max: 250 })), ...extra });
	const applications = rec<{ id: string; candidate: { id: string } }>('applications');
	/** An application and its candidate: the candidate's ID, or none (the node finds it). */
	const applicationWithCandidate = fc.constantFrom(...applications).chain((app) =>
		fc.record({
			applicationId: locator([app.id]),
			candidateId: fc.oneof(fc.constant({ __rl: true, mode: 'id', value: '' }), locator([app.candidate.id])),
		}),
	);
	const candidates = rec<{ id: string; application_ids: string[] }>('candidates');
	const notes = rec<{ id: string; candidate_id: string }>('candidateNotes');
	const feedback = rec<{ id: string; application_id: string; form_id: string; questions: Array<{ id: string }> }>('feedback');
	const forms = rec<{ id: string; questions: Array<{ id: string; required: boolean }> }>('applicationForms');
	const interviewTimes = fc
		.tuple(date, fc.integer({ min: 15, max: 240 }))
		.chain(([start, minutes]) => fc.record({ start: v(fc.constant(start)), end: v(fc.constant(new Date(Date.parse(start) + minutes * 60_000).toISOString())) }));
	const EVENTS = ['job.created', 'candidate.updated', 'interview.cancelled', 'application.created'];

	return {
		'application getMany': P(
			some({
				...list(),
				options: some({ sort: oneOf('applied_at', '-applied_at') }),
				filters: some({
					candidateId: id(ids('candidates')),
					jobId: id(ids('jobs')),
					parentStage: oneOf('rejected', 'new', 'screening', 'interviewing', 'offered', 'hired'),
				}),
			}),
		),
		'application get': P(fc.tuple(applicationWithCandidate, some({ simplify: bool })).map(([a, b]) => ({ ...a, ...b }))),
		'application updateSource': P(
			fc
				.tuple(
					applicationWithCandidate,
					atLeastOne({
						// The spec's origins (../shared/service-facts.md).
						origin: oneOf('added', 'applied', 'interested', 'referred', 'candidate_pool', 'hire_hive_import', 'agency_submission'),
						source: oneOf('LinkedIn', 'Referral', 'Careers page'),
						user: locator(users),
					}),
				)
				.map(([a, updateFields]) => ({ ...a, updateFields })),
		),
		'applicationForm delete': P(fc.record({ formId: id(ids('applicationForms')) })),
		'candidate get': P(fc.record({ candidateId: id(ids('candidates')) })),
		'candidate update': P(
			fc.record({
				candidateId: id(ids('candidates')),
				updateFields: atLeastOne({
					company: text,
					email,
					firstName: text,
					lastName: text,
					imageUrl: url,
					phoneNumber: v(fc.stringMatching(/^\+?[0-9]{1,3}( ?[0-9]{2,4}){2,4}$/)),
					rating: v(fc.integer({ min: 1, max: 5 })),
					title: text,
					tags: fc.record({ tag: fc.array(fc.record({ id: id(tags.map((t) => t.id)) }), { minLength: 1, maxLength: 2 }) }),
				}),
			}),
		),
		'candidate addTag': P(fc.record({ candidateId: id(ids('candidates')), tagId: tag })),
		'candidate removeTag': P(fc.record({ candidateId: id(ids('candidates')), tagId: tag })),
		'candidateNote create': P(
			fc.constantFrom(...candidates).chain((candidate) =>
				fc.record(
					{
						candidateId: locator([candidate.id]),
						text,
						additionalFields: some({
							...(candidate.application_ids.length ? { applicationId: locator(candidate.application_ids) } : {}),
							mentionedUsers: userList,
							restricted: bool,
						}),
					},
					{ requiredKeys: ['candidateId', 'text'] },
				),
			),
		),
		'candidateNote update': P(
			fc.constantFrom(...notes).chain((note) =>
				fc.record({
					candidateId: id([note.candidate_id]),
					noteId: id([note.id]),
					updateFields: atLeastOne({ text, restricted: bool }),
				}),
			),
		),
		'emailTemplate getMany': P(some(list())),
		'feedback update': P(
			fc.constantFrom(...feedback).chain((fb) =>
				fc.record({
					feedbackId: id([fb.id]),
					applicationId: id([fb.application_id]),
					formId: id([fb.form_id]),
					answers: fc.record({
						answer: fc.array(fc.record({ questionId: id(fb.questions.map((q) => q.id)), text }), { minLength: 1, maxLength: 2 }),
					}),
				}),
			),
		),
		'feedback getMany': P(some({ ...list(), filters: some({ formId: id(ids('applicationForms')), status: oneOf('pending', 'complete') }) })),
		'feedback complete': P(
			fc.constantFrom(...forms).chain((form) =>
				fc.record({
					applicationId: locator(applications.map((a) => a.id)),
					formId: id([form.id]),
					answers: fc.constant({ answer: form.questions.filter((q) => q.required).map((q) => ({ questionId: q.id, text: 'Keen on the mission' })) }),
				}),
			),
		),
		'interview create': P(
			fc
				.tuple(
					fc.record(
						{
							applicationId: locator(applications.map((a) => a.id)),
							type: oneOf('phone', 'online', 'on_site'),
							timeZone: oneOf('UTC', 'Europe/Dublin', 'America/New_York'),
							attendees: fc.record({ attendee: fc.array(fc.record({ type: fc.constant('user'), userId: id(users) }), { maxLength: 2 }) }),
							additionalFields: some({ title: text, location: text, meetingUrl: url, organizerId: locator(users), attachResumeToInvite: bool }),
						},
						{ requiredKeys: ['applicationId', 'type'] },
					),
					interviewTimes,
				)
				.map(([fields, times]) => ({ ...fields, ...times })),
		),
		'interview cancel': P(fc.record({ interviewId: id(ids('interviews')) })),
		'job create': P(
			fc.record(
				{
					title: text,
					additionalFields: some({
						description: text,
						status: oneOf('drafted', 'published', 'closed', 'internal'),
						type: oneOf('full_time', 'part_time', 'contract'),
						experience: oneOf('na', 'senior'),
						salary: text,
						jobCode: text,
						ownerId: locator(users),
					}),
				},
				{ requiredKeys: ['title'] },
			),
		),
		'job get': P(fc.record({ jobId: id(ids('jobs')) })),
		'job delete': P(fc.record({ jobId: id(ids('jobs')) })),
		'jobNote getMany': P(fc.record({ jobId: id(ids('jobs')), ...list() }, { requiredKeys: ['jobId'] })),
		'tag getMany': P(some(list())),
		'user getMany': P(some(list())),
		'user get': P(fc.record({ userId: locator(users) })),
		'userCategory getMany': P(some(list())),
		'webhook get': P(fc.record({ webhookId: id(ids('webhooks')) })),
		'webhook update': P(
			fc.record({
				webhookId: id(ids('webhooks')),
				updateFields: atLeastOne({ description: text, name: text, endpoint: url, events: v(fc.subarray(EVENTS, { minLength: 1 })) }),
			}),
		),
	};
}
