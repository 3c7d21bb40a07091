/**
 * Feedback → Get Many (GET /feedback) and Complete (POST /feedback), the service's full API. The
 * reference does not publish the list's filter names, so Status and Form are the node's own
 * filters on the feedback it fetched; Complete takes Feedback Update's answer fields.
 */
import type { Application, ApplicationForm, Feedback } from '../../sandbox';
import { apiPath, describeListContract, errorOf, jsonOf, listDirect, useRecruitingFixture } from './fixture';

const SEED = { applications: 6, jobs: 2, candidates: 6 };
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Feedback of two forms and both statuses; the seed's three come first. */
const extra = (i: number): Feedback => ({
	id: `fdbk_extra${String(i).padStart(2, '0')}`,
	application_id: 'app_x',
	form_id: i % 3 === 0 ? 'form_culture' : 'form_tech',
	name: 'Scorecard',
	candidate: { id: 'can_x', name: 'Ada Lovelace' },
	creator: { id: 'usr_x', name: 'Rita' },
	reviewer: { id: 'usr_y', name: 'Rob' },
	status: i % 2 === 0 ? 'complete' : 'pending',
	date_created: '2025-01-09T09:00:00Z',
	date_complete: null,
	questions: [],
});
const EXTRA = 40;

const fx = useRecruitingFixture(SEED, (sandbox) => {
	for (let i = 0; i < EXTRA; i++) sandbox.put('feedback', extra(i));
});

describeListContract(() => fx, { resource: 'feedback', segments: ['feedback'], size: 3 + EXTRA });

const getMany = (parameters: Record<string, unknown>, options?: { asTool?: boolean }) =>
	fx.run({ resource: 'feedback', operation: 'getMany', ...parameters }, options?.asTool ? { asTool: true, typeVersion: 1.1 } : {});

describe('feedback getMany: Status and Form, applied after fetching', () => {
	test('Return All: the whole list fetched, then only the feedback matching both filters', async () => {
		const all = await listDirect(fx.sandbox, ['feedback']);
		const result = await getMany({ returnAll: true, filters: { status: 'complete', formId: 'form_culture' } });
		expect(jsonOf(result)).toEqual(all.filter((f) => f.status === 'complete' && f.form_id === 'form_culture'));
		expect(jsonOf(result).length).toBeGreaterThan(2);
		// Nothing about the filters reaches the service: their names there are not published.
		expect(fx.sandbox.requests.map((r) => r.query)).toEqual([{ page: '1', page_size: '100' }]);
	});

	test('Limit counts the feedback fetched: Limit 10 gives those of the first 10 that match', async () => {
		const all = await listDirect(fx.sandbox, ['feedback']);
		const result = await getMany({ limit: 10, filters: { status: 'pending' } });
		expect(jsonOf(result)).toEqual(all.slice(0, 10).filter((f) => f.status === 'pending'));
		expect(fx.sandbox.requests.map((r) => r.query)).toEqual([{ page: '1', page_size: '10' }]);
	});

	test('as a tool: the page is filtered, and the last item says how many of it matched and where to look next', async () => {
		const all = await listDirect(fx.sandbox, ['feedback']);
		const items = jsonOf(await getMany({ pageSize: 20, filters: { status: 'complete' } }, { asTool: true }));
		const matching = all.slice(0, 20).filter((f) => f.status === 'complete');
		expect(items.slice(0, -1).map((item) => item.id)).toEqual(matching.map((f) => f.id));
		expect(items[items.length - 1]).toEqual({
			note: `Page 1: ${matching.length} of its 20 feedback match the filters (applied per page). More: page 2.`,
			page: 1,
			next_page: 2,
			total_items: 3 + EXTRA,
		});
		const last = jsonOf(await getMany({ pageSize: 20, page: 3, filters: { formId: 'form_nothing' } }, { asTool: true }));
		expect(last).toEqual([
			{
				note: 'Page 3: 0 of its 3 feedback match the filters (applied per page). No more pages.',
				page: 3,
				total_items: 3 + EXTRA,
			},
		]);
	});

	test('without filters a tool page has the usual note', async () => {
		const items = jsonOf(await getMany({}, { asTool: true }));
		expect(items[items.length - 1]).toMatchObject({ note: 'feedback 1–20 of 43. More: page 2.' });
	});

	test('a Form filter added empty is refused before any request', async () => {
		const error = errorOf(await getMany({ limit: 5, filters: { formId: ' ' } }));
		expect(error.message).toBe('Invalid "Form ID": a value is required, or remove the filter');
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});

describe('feedback complete', () => {
	let app: Application;
	let form: ApplicationForm;
	beforeEach(async () => {
		[app] = (await listDirect(fx.sandbox, ['applications'])) as unknown as Application[];
		form = fx.sandbox.get('applicationForms', (await import('../reliability/seeded')).seededIds('cmp_demo', SEED).applicationForms[0]) as ApplicationForm;
	});

	test('POST /feedback with the application, the form and answers in the Answer shape; it is then in the list', async () => {
		const [required, optional] = form.questions;
		const result = await fx.run({
			resource: 'feedback',
			operation: 'complete',
			applicationId: byId(app.id),
			formId: form.id,
			answers: { answer: [{ questionId: required.id, text: 'Keen on the mission.' }, { questionId: optional.id, selectedOptions: 'opt_a, opt_b' }] },
		});
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
			{
				method: 'POST',
				path: apiPath(fx.sandbox, 'feedback'),
				query: {},
				body: {
					application_id: app.id,
					form_id: form.id,
					answers: [
						{ question_id: required.id, text: 'Keen on the mission.' },
						{ question_id: optional.id, selected_options: ['opt_a', 'opt_b'] },
					],
				},
			},
		]);
		const [feedback] = jsonOf(result);
		expect(feedback).toMatchObject({ id: expect.stringMatching(/^fdbk_/), status: 'complete', application_id: app.id, form_id: form.id });
		const listed = jsonOf(await getMany({ returnAll: true, filters: { status: 'complete', formId: form.id } }));
		expect(listed[listed.length - 1]).toEqual(feedback);
		expect(jsonOf(await getMany({ returnAll: true }))).toHaveLength(3 + EXTRA + 1);
	});

	test('a required question left unanswered is the service\'s 400 naming it', async () => {
		const error = errorOf(await fx.run({ resource: 'feedback', operation: 'complete', applicationId: byId(app.id), formId: form.id }));
		expect(error.httpCode).toBe('400');
		expect(error.description).toContain(`answers: Question '${form.questions[0].id}' is required to complete the form.`);
	});

	test.each([
		['an answer without a question ID', { answers: { answer: [{ text: 'x' }] } }, 'Invalid "Question ID": every answer needs a question ID'],
		['an empty form ID', { formId: '={{ "" }}' }, 'Invalid "Form ID": a value is required'],
	])('%s is refused before any request', async (_, parameters, message) => {
		const error = errorOf(
			await fx.run({ resource: 'feedback', operation: 'complete', applicationId: byId(app.id), formId: form.id, ...parameters }),
		);
		expect(error.message).toBe(message);
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});
