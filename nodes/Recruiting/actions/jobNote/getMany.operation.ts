import { simpleGetMany } from '../helpers';
import { jobIdField } from '../job/fields';

export const { description, execute, output } = simpleGetMany(
	'jobNote',
	['jobs', { field: jobIdField, noun: 'job' }, 'notes'],
	{ output: 'note', plural: 'job notes' },
);
