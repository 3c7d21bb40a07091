import { simpleGetMany } from '../helpers';

export const { description, execute, output } = simpleGetMany('emailTemplate', ['emailtemplates'], {
	output: 'emailTemplate',
	plural: 'email templates',
});
