import { simpleGetMany } from '../helpers';

export const { option, properties, execute, output } = simpleGetMany(['tags'], {
	output: 'tag',
	plural: 'tags',
	description:
		'Lists the account\'s tags. Returns one item per tag (ID, name, color, type, status); Candidate → Add Tag takes the ID or the name.',
	action: 'Get many tags',
});
