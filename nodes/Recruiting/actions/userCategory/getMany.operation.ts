import { simpleGetMany } from '../helpers';

export const { option, properties, execute, output } = simpleGetMany(['users', 'categories'], {
	output: 'userCategory',
	plural: 'user categories',
	description: 'Lists the account\'s user categories. Returns one item per category (ID and name).',
	action: 'Get many user categories',
});
