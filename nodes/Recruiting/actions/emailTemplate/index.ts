import { defineResource } from '../defineResource';
import * as getMany from './getMany.operation';

export const emailTemplate = defineResource('emailTemplate', [getMany]);
