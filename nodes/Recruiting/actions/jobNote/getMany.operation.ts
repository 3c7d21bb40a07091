import { simpleGetMany } from '../helpers';
import { jobIdField } from '../job/fields';

export const { option, properties, execute, output } = simpleGetMany(['jobs', { field: jobIdField, noun: 'job' }, 'notes'], {
	output: 'note',
	plural: 'job notes',
	description: 'Lists the notes of one job. Returns one item per note (text, creator, date_created, files, mentioned_users).',
	action: 'Get many notes of a job',
	toolDescription: 'Get many notes of a job (job_…)',
});
