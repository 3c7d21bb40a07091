import { simpleGetMany } from '../helpers';

export const { description, execute } = simpleGetMany('emailTemplate', ['emailtemplates']);
