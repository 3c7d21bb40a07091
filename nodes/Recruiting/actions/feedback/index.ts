import { defineResource } from '../defineResource';
import * as complete from './complete.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

// Update stays the default: workflows saved before the other operations existed leave it out.
export const feedback = defineResource('feedback', [complete, getMany, update], update);
