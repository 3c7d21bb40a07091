import type { INodeParameters } from 'n8n-workflow';
import type { Feedback, Question } from '../../sandbox';
import { apiPath, errorOf, expr, jsonOf, useRecruitingFixture } from './fixture';

const SEED = { applications: 1, jobs: 1, candidates: 1, tags: 1 };
const WEIRD_ID = 'a/b?c#d%e+f&ü';

const question = (id: string, type: string, options: string[]): Question => ({
	id,
	type,
	question: `Question ${id}`,
	description: '',
	required: false,
	restricted: false,
	display_order: 1,
	options: options.map((option) => ({ id: option, label: option, description: '' })),
	answer: { question_id: id, text: '', ratings: [], selected_options: [], selected_option: '' },
});
const feedback = (id: string): Feedback => ({
	id,
	application_id: 'app_1',
	form_id: 'form_1',
	name: 'Engineer scorecard',
	candidate: { id: 'can_1', name: 'Alan Turing' },
	creator: { id: 'usr_1', name: 'Rita Recruiter' },
	reviewer: { id: 'usr_2', name: 'Rob Reviewer' },
	status: 'pending',
	date_created: '2025-01-09T09:00:00Z',
	date_complete: null,
	questions: [
		question('q_text', 'textbox', []),
		question('q_rate', 'rating', ['opt_tech', 'opt_comm']),
		question('q_multi', 'multiple_choice', ['opt_a', 'opt_b', 'opt_c']),
		question('q_single', 'yes_no', ['opt_yes', 'opt_no']),
	],
});

const fx = useRecruitingFixture(SEED, (sandbox) => {
	sandbox.put('feedback', feedback('fb_1'));
});

const run = async (parameters: INodeParameters) =>
	await fx.run({
		resource: 'feedback',
		operation: 'update',
		feedbackId: 'fb_1',
		applicationId: 'app_1',
		formId: 'form_1',
		...parameters,
	});
const answersOf = (id = 'fb_1') =>
	Object.fromEntries((fx.sandbox.get('feedback', id) as Feedback).questions.map((q) => [q.id, q.answer]));

describe('feedback update', () => {
	test('PUT /feedback/{feedbackId} with the whole body in the API shape; outputs the feedback with its answers', async () => {
		const result = await run({
			answers: {
				answer: [
					{ questionId: 'q_text', text: 'Sharp and thorough.' },
					{
						questionId: 'q_rate',
						ratings: { rating: [{ optionId: 'opt_tech', rating: 5 }, { optionId: 'opt_comm', rating: 4 }] },
					},
					{ questionId: 'q_multi', selectedOptions: 'opt_a, opt_c' },
					{ questionId: 'q_single', selectedOption: 'opt_yes' },
				],
			},
		});
		expect(result.error).toBeUndefined();
		const body = {
			feedback_id: 'fb_1',
			application_id: 'app_1',
			form_id: 'form_1',
			answers: [
				{ question_id: 'q_text', text: 'Sharp and thorough.' },
				{
					question_id: 'q_rate',
					ratings: [
						{ option_id: 'opt_tech', rating: 5 },
						{ option_id: 'opt_comm', rating: 4 },
					],
				},
				{ question_id: 'q_multi', selected_options: ['opt_a', 'opt_c'] },
				{ question_id: 'q_single', selected_option: 'opt_yes' },
			],
		};
		expect(fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
			{ method: 'PUT', path: apiPath(fx.sandbox, 'feedback', 'fb_1'), query: {}, body },
		]);
		expect(result.items).toHaveLength(1);
		const [output] = jsonOf(result);
		expect(output).toMatchObject({ id: 'fb_1', application_id: 'app_1', form_id: 'form_1' });
		const answers = answersOf();
		expect(answers.q_text.text).toBe('Sharp and thorough.');
		expect(answers.q_rate.ratings).toEqual(body.answers[1].ratings);
		expect(answers.q_multi.selected_options).toEqual(['opt_a', 'opt_c']);
		expect(answers.q_single.selected_option).toBe('opt_yes');
		expect((output.questions as Question[]).map((q) => q.answer)).toEqual(Object.values(answers));
	});

	test('without answers, the body has no answers key (only fields added are sent) and the stored answers stay', async () => {
		const result = await run({});
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].body).toEqual({
			feedback_id: 'fb_1',
			application_id: 'app_1',
			form_id: 'form_1',
		});
		expect(answersOf()).toEqual(Object.fromEntries(feedback('fb_1').questions.map((q) => [q.id, q.answer])));
	});

	test('an ID with reserved characters reaches exactly one path segment (and is the body feedback_id)', async () => {
		fx.sandbox.put('feedback', feedback(WEIRD_ID));
		const result = await run({ feedbackId: WEIRD_ID, answers: { answer: [{ questionId: 'q_text', text: 'ok' }] } });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].path).toBe(apiPath(fx.sandbox, 'feedback', WEIRD_ID));
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'feedback', WEIRD_ID]);
		expect(fx.sandbox.requests[0].body).toMatchObject({ feedback_id: WEIRD_ID });
		expect(answersOf(WEIRD_ID).q_text.text).toBe('ok');
	});

	test.each([
		['an empty feedback ID', { feedbackId: expr('') }, 'Invalid "Feedback ID": a value is required'],
		['an empty application ID', { applicationId: expr('') }, 'Invalid "Application ID": a value is required'],
		['an empty form ID', { formId: expr('') }, 'Invalid "Form ID": a value is required'],
		[
			'an answer without a question ID',
			{ answers: { answer: [{ questionId: '', text: 'x' }] } },
			'Invalid "Question ID": every answer needs a question ID',
		],
		[
			'a rating without an option ID',
			{ answers: { answer: [{ questionId: 'q_rate', ratings: { rating: [{ optionId: '', rating: 3 }] } }] } },
			'Invalid "Option ID": every rating needs an option ID',
		],
		[
			'a fractional rating',
			{ answers: { answer: [{ questionId: 'q_rate', ratings: { rating: [{ optionId: 'opt_tech', rating: 2.5 }] } }] } },
			/^Invalid "Rating": must be a whole number/,
		],
	])('%s is rejected before any request', async (_, parameters, message) => {
		const error = errorOf(await run(parameters));
		expect(error.message).toMatch(message);
		expect(error.itemIndex).toBe(0);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('an unknown feedback is a 404 that names the id', async () => {
		const error = errorOf(await run({ feedbackId: 'fb_missing' }));
		expect(error.message).toBe('The feedback "fb_missing" was not found');
		expect(error.httpCode).toBe('404');
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([404]);
	});

	test('a server-only rejection (a question not on the form) surfaces title, detail and the field error', async () => {
		const error = errorOf(await run({ answers: { answer: [{ questionId: 'q_elsewhere', text: 'x' }] } }));
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([400]);
		expect(error.message).toBe('One or more validation errors occurred. (HTTP 400)');
		expect(error.description).toContain('The request is invalid; see errors for each field.');
		expect(error.description).toContain("answers[0].question_id: Question 'q_elsewhere' is not part of this feedback.");
	});
});
