import { defineResource } from '../defineResource';
import * as get from './get.operation';
import * as update from './update.operation';

export const webhook = defineResource('webhook', [get, update]);
