import { simpleGetMany } from '../helpers';

export const { option, properties, execute, output } = simpleGetMany(['emailtemplates'], {
	output: 'emailTemplate',
	plural: 'email templates',
	description: 'Lists the account\'s email templates. Returns one item per template (name, subject, body, stage, language).',
	action: 'Get many email templates',
});
