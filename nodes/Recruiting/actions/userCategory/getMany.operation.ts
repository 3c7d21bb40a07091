import { simpleGetMany } from '../helpers';

export const { description, execute } = simpleGetMany('userCategory', ['users', 'categories']);
