import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { recruitingRequestData, resourcePath } from '../../../shared/transport';
import { requireId } from '../../../shared/validation';
import { applicationIdField } from '../application/fields';
import { textField } from '../common.descriptions';
import { listAnswers, viaFullApi } from '../fullApi';
import { readCollection, readGroups } from '../helpers';
import { answerBody, answersField } from './update.operation';
import type { OperationOption } from '../types';

export const option: OperationOption = {
	name: 'Complete',
	value: 'complete',
	description:
		'Fills in a feedback form for an application with answers to its questions (the service\'s full API). Returns the new, complete feedback with its questions and answers.',
	action: 'Complete feedback on an application',
	toolDescription: 'Complete feedback on an application (app_…)',
};

export const properties: INodeProperties[] = [
	{
		...applicationIdField,
		description:
			'The application (app_…) the feedback is about, or pick one from the list (candidate — job); e.g. the ID of an Application → Get Many item',
	},
	textField('Form ID', 'formId', {
		required: true,
		placeholder: 'form_…',
		description: 'The ID (form_…) of the feedback form to complete, as the service shows it (e.g. form_id of a Feedback → Get Many item)',
	}),
	answersField,
];

export const output = 'feedback';

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const applicationId = requireId.call(this, 'applicationId', itemIndex, 'Application ID');
	const formId = requireId.call(this, 'formId', itemIndex, 'Form ID');
	const answers = readGroups(readCollection.call(this, 'answers', itemIndex), 'answer');

	const body: IDataObject = { application_id: applicationId, form_id: formId };
	if (answers.length) body.answers = answers.map((answer) => answerBody.call(this, itemIndex, answer));

	return await viaFullApi(
		this,
		itemIndex,
		'POST /feedback',
		async () =>
			await recruitingRequestData.call(this, {
				method: 'POST',
				path: resourcePath('feedback'),
				body,
				itemIndex,
				notFound: `application "${applicationId}" or form "${formId}"`,
			}),
		// When the feedback list answers, POST /feedback exists: the 404 is about the application or form.
		async () => await listAnswers.call(this, itemIndex, 'feedback'),
	);
}
