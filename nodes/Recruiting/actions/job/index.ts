import { defineResource } from '../defineResource';
import * as create from './create.operation';
import * as remove from './delete.operation';
import * as get from './get.operation';

// Delete's fields after Get's: where they have always stood in the node's description.
export const job = defineResource('job', [create, get, remove], get);
