import { simpleGetMany } from '../helpers';
import { jobIdField } from '../job/fields';

export const { description, execute } = simpleGetMany('jobNote', [
	'jobs',
	{ field: jobIdField, noun: 'job' },
	'notes',
]);
