/**
 * The sandbox keeps its own copies of the service's value lists: a test double must not import
 * the code it tests, or a wrong value in the node would be "confirmed" by the sandbox. This test
 * is what keeps the copies honest: each list of the node equals the sandbox's, in order.
 */
import * as sandbox from '../../sandbox';
import { SORTS } from '../../nodes/Recruiting/actions/application/getMany.operation';
import { PARENT_STAGES } from '../../nodes/shared/stages';
import { SOURCE_ORIGINS } from '../../nodes/Recruiting/actions/application/updateSource.operation';
import { JOB_EXPERIENCE, JOB_STATUSES, JOB_TYPES } from '../../nodes/Recruiting/actions/job/create.operation';
import {
	ATTENDEE_TYPES,
	INTERVIEW_TYPES,
	ONLINE_MEETING_TYPES,
} from '../../nodes/Recruiting/actions/interview/create.operation';
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_OPTIONS } from '../../nodes/shared/events';

test.each([
	['webhook events', WEBHOOK_EVENTS, sandbox.WEBHOOK_EVENTS],
	['parent stages', PARENT_STAGES, sandbox.PARENT_STAGES],
	['application sorts', SORTS, sandbox.APPLICATION_SORTS],
	['job statuses', JOB_STATUSES, sandbox.JOB_STATUSES],
	['job types', JOB_TYPES, sandbox.JOB_TYPES],
	['job experience levels', JOB_EXPERIENCE, sandbox.EXPERIENCE_LEVELS],
	['interview types', INTERVIEW_TYPES, sandbox.INTERVIEW_TYPES],
	['interview attendee types', ATTENDEE_TYPES, sandbox.ATTENDEE_TYPES],
	['online meeting types', ONLINE_MEETING_TYPES, sandbox.ONLINE_MEETING_TYPES],
	['application source origins', SOURCE_ORIGINS, sandbox.SOURCE_ORIGINS],
])('%s: the node and the sandbox list the same values', (_name, node, double) => {
	expect([...node]).toEqual([...double]);
});

test('the trigger offers exactly the 19 documented events', () => {
	expect(WEBHOOK_EVENTS).toHaveLength(19);
	expect(WEBHOOK_EVENT_OPTIONS.map((option) => option.value)).toEqual([...WEBHOOK_EVENTS]);
});
