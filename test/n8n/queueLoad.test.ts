import { reportChecks } from './checks';

reportChecks('queueLoad');
