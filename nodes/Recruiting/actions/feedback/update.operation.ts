import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { checkIntegerInRange, invalidField, requireId } from '../../../shared/validation';
import { enteredText } from '../../../shared/text';
import { idField } from '../common.descriptions';
import { asText, readCollection, readGroups, splitList } from '../helpers';
import type { OperationOption } from '../types';

/** The answers to a form's questions in the spec's Answer shape (Update, and Complete); read with `answerBody`. */
export const answersField: INodeProperties = {
	displayName: 'Answers',
	name: 'answers',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Answer',
	default: {},
	description:
		'The answers to the form\'s questions, one per question; fill in the fields that fit the question\'s type',
	options: [
		{
			displayName: 'Answer',
			name: 'answer',
			values: [
				{
					displayName: 'Question ID',
					name: 'questionId',
					type: 'string',
					default: '',
					placeholder: 'qustn_…',
					description: 'The ID (qustn_…) of the question this answers, from the feedback\'s questions list',
				},
				{
					displayName: 'Ratings',
					name: 'ratings',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					placeholder: 'Add Rating',
					default: {},
					description: 'For rating (scorecard) questions: one rating per option of the question',
					options: [
						{
							displayName: 'Rating',
							name: 'rating',
							values: [
								{
									displayName: 'Option ID',
									name: 'optionId',
									type: 'string',
									default: '',
									placeholder: 'opt_…',
									description: 'The ID of the question option being rated, from the question\'s options list',
								},
								{
									displayName: 'Rating',
									name: 'rating',
									type: 'number',
									typeOptions: { minValue: 0, numberPrecision: 0 },
									default: 0,
									description: 'The rating given to that option, a whole number of 0 or more',
								},
							],
						},
					],
				},
				{
					displayName: 'Selected Option ID',
					name: 'selectedOption',
					type: 'string',
					default: '',
					description: 'For single-choice (radio, dropdown) questions: the ID of the chosen option, from the question\'s options list',
				},
				{
					displayName: 'Selected Option IDs',
					name: 'selectedOptions',
					type: 'string',
					default: '',
					description:
						'For multiple-choice (checkbox) questions: comma-separated IDs of the chosen options, from the question\'s options list',
				},
				{
					displayName: 'Text',
					name: 'text',
					type: 'string',
					typeOptions: { rows: 3 },
					default: '',
					description: 'For text (textbox, text area) questions: the answer text',
				},
			],
		},
	],
};

export const option: OperationOption = {
	name: 'Update',
	value: 'update',
	description:
		'Writes answers to the questions of a feedback form about an application. Returns the updated feedback with its questions and answers.',
	action: 'Update feedback',
	toolDescription: 'Update feedback by ID (fdbk_…)',
};

export const properties: INodeProperties[] = [
	idField(
		'Feedback ID',
		'feedbackId',
		'fdbk_…',
		'The ID (fdbk_…) of the feedback to update, e.g. from an application\'s feedback list (Application → Get Many, Simplify off) or a feedback.requested trigger item',
	),
	idField(
		'Application ID',
		'applicationId',
		'app_…',
		'The ID (app_…) of the application the feedback is about: the application_id of the feedback, or the ID of an Application → Get Many item',
	),
	idField(
		'Form ID',
		'formId',
		'form_…',
		'The ID (form_…) of the feedback form: the form_id of the feedback, e.g. from a feedback.requested trigger item',
	),
	answersField,
];

export function answerBody(this: IExecuteFunctions, itemIndex: number, answer: IDataObject): IDataObject {
	const node = this.getNode();
	const questionId = enteredText(answer.questionId);
	if (questionId === '') throw invalidField(node, itemIndex, 'Question ID', 'every answer needs a question ID');
	const out: IDataObject = { question_id: questionId };
	if (enteredText(answer.text) !== '') out.text = asText(answer.text);
	if (enteredText(answer.selectedOption) !== '') out.selected_option = enteredText(answer.selectedOption);
	const selected = splitList(answer.selectedOptions);
	if (selected.length) out.selected_options = selected;
	const ratings = readGroups(answer.ratings, 'rating');
	if (ratings.length) {
		out.ratings = ratings.map((rating) => {
			const optionId = enteredText(rating.optionId);
			if (optionId === '') throw invalidField(node, itemIndex, 'Option ID', 'every rating needs an option ID');
			return {
				option_id: optionId,
				rating: checkIntegerInRange(node, itemIndex, 'Rating', rating.rating, 0, Number.MAX_SAFE_INTEGER),
			};
		});
	}
	return out;
}

export const output = 'feedback';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const feedbackId = requireId.call(this, 'feedbackId', itemIndex, 'Feedback ID');
	const applicationId = requireId.call(this, 'applicationId', itemIndex, 'Application ID');
	const formId = requireId.call(this, 'formId', itemIndex, 'Form ID');
	const answers = readGroups(readCollection.call(this, 'answers', itemIndex), 'answer');

	const body: IDataObject = { feedback_id: feedbackId, application_id: applicationId, form_id: formId };
	// Only answers the user added: an empty list could read as "no answers" and wipe the stored ones.
	if (answers.length) body.answers = answers.map((answer) => answerBody.call(this, itemIndex, answer));

	return await recruitingRequestData.call(this, {
		method: 'PUT',
		path: resourcePath('feedback', feedbackId),
		body,
		itemIndex,
		notFound: `feedback "${feedbackId}"`,
	});
}
