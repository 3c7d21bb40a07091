import { defineResource } from '../defineResource';
import * as remove from './delete.operation';

export const applicationForm = defineResource('applicationForm', [remove]);
