import { defineResource } from '../defineResource';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

/** Users are read through the service's full API (GET /users), beyond the 18-endpoint specification. */
export const user = defineResource('user', [get, getMany], getMany);
