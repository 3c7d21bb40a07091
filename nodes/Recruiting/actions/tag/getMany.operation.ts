import { simpleGetMany } from '../helpers';

export const { description, execute } = simpleGetMany('tag', ['tags']);
