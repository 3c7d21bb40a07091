import { defineResource } from '../defineResource';
import * as cancel from './cancel.operation';
import * as create from './create.operation';

export const interview = defineResource('interview', [cancel, create], create);
