import { defineResource } from '../defineResource';
import * as getMany from './getMany.operation';

export const userCategory = defineResource('userCategory', [getMany]);
