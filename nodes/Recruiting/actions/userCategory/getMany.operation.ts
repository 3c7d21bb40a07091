import { simpleGetMany } from '../helpers';

export const { description, execute, output } = simpleGetMany('userCategory', ['users', 'categories'], {
	output: 'userCategory',
	plural: 'user categories',
});
