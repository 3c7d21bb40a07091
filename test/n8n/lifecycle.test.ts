import { reportChecks } from './checks';

reportChecks('lifecycle');
