import { simpleGetMany } from '../helpers';

export const { description, execute, output } = simpleGetMany('tag', ['tags'], { output: 'tag', plural: 'tags' });
