/** The sandbox's public API: startSandbox, its types and the vocabulary tests need. */
export { startSandbox } from './server';
export {
	WEBHOOK_EVENTS,
	PARENT_STAGES,
	JOB_STATUSES,
	JOB_TYPES,
	EXPERIENCE_LEVELS,
	INTERVIEW_TYPES,
	ATTENDEE_TYPES,
	ONLINE_MEETING_TYPES,
	APPLICATION_SORTS,
	SOURCE_ORIGINS,
} from './schemas';
export type { WebhookEvent } from './schemas';
export { SEED_USERS, DEFAULT_SIZES } from './seed';
export { COLLECTIONS } from './store';
export type * from './types';
export type * from './resources';
