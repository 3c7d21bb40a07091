import { simpleGetMany } from '../common.descriptions';

export const { description, execute } = simpleGetMany('emailTemplate', ['emailtemplates']);
