import { defineResource } from '../defineResource';
import * as getMany from './getMany.operation';

export const tag = defineResource('tag', [getMany]);
