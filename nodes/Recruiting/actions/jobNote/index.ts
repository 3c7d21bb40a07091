import { defineResource } from '../defineResource';
import * as getMany from './getMany.operation';

export const jobNote = defineResource('jobNote', [getMany]);
