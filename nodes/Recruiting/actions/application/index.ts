import { defineResource } from '../defineResource';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as updateSource from './updateSource.operation';

// Get Many stays the default: workflows saved before the other operations existed leave it out.
export const application = defineResource('application', [get, getMany, updateSource], getMany);
