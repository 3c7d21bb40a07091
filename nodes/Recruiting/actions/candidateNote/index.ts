import { defineResource } from '../defineResource';
import * as create from './create.operation';
import * as update from './update.operation';

// Update stays the default: workflows saved before Create existed leave the default out.
export const candidateNote = defineResource('candidateNote', [create, update], update);
