import { defineResource } from '../defineResource';
import * as addTag from './addTag.operation';
import * as get from './get.operation';
import * as removeTag from './removeTag.operation';
import * as update from './update.operation';

export const candidate = defineResource('candidate', [addTag, get, removeTag, update], get);
