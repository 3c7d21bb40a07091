import { reportChecks } from './checks';

reportChecks('e2e');
