import { simpleGetMany } from '../common.descriptions';

export const { description, execute } = simpleGetMany('userCategory', ['users', 'categories']);
