/**
 * Hostile review: a followed job deleted is "reported once in a failed execution (so the
 * error workflow runs)" (docs/polling-trigger.md). The "already reported" mark (`state.gone`) is
 * written with the rest of the state, which n8n saves only with a poll that emits (or at
 * activation). A job found gone by a poll that emits nothing (the usual case: its notes list is
 * what answers 404) is therefore forgotten at the next restart of n8n or republish, and reported
 * again: one more failed execution and error-workflow run per restart/republish, until some poll
 * happens to emit.
 */
import type { IDataObject } from 'n8n-workflow';

import { useFakeListService } from '../harness/fakeServices';
import { at, MINUTE, triggerOn } from '../polling/fakeKit';

const fake = useFakeListService();
const trigger = triggerOn(fake, 'tok_review_gone');

describe.each([
	// n8n's default engine saves a trigger's static data only with a poll that emits, or at activation: a
	// deletion found by a poll that emits nothing is reported again after a restart. KNOWN LIMIT of that engine.
	['default', test.failing],
	['durable', it],
] as const)('New Job Note on the %s engine: a followed job deleted, then n8n restarts', (engine, restartCase) => {
	/**
	 * User-visible scenario: the error workflow pages the on-call person "job_2 no longer exists".
	 * They plan to fix the trigger on Monday; meanwhile every restart of n8n (an update, a container
	 * reschedule) and every republish of the workflow (any edit) pages them again.
	 */
	restartCase('the deletion is reported once, not again after a restart', async () => {
		const notes = (id: string) => ({ items: [{ id, date_created: at(-2 * 24 * 60 * MINUTE), text: 'old' }] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const });
		fake.lists.set('/jobs/job_1/notes', notes('jnote_1'));
		fake.lists.set('/jobs/job_2/notes', notes('jnote_2'));
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1, job_2' }, { engine });
		expect(await t.activate()).toEqual({ emitted: [] });
		fake.lists.delete('/jobs/job_2/notes'); // job_2 deleted at the service
		await t.tick();
		await t.tick();
		expect(t.failures).toHaveLength(1);
		t.stop(); // n8n restarts
		expect((await t.activate('init')).error).toBeUndefined();
		await t.tick();
		expect(t.failures).toHaveLength(1);
	});

	it('control (holds): no restart: reported once over many polls', async () => {
		const notes = (id: string) => ({ items: [{ id, date_created: at(-2 * 24 * 60 * MINUTE), text: 'old' }] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const });
		fake.lists.set('/jobs/job_1/notes', notes('jnote_1'));
		fake.lists.set('/jobs/job_2/notes', notes('jnote_2'));
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1, job_2' }, { engine });
		expect(await t.activate()).toEqual({ emitted: [] });
		fake.lists.delete('/jobs/job_2/notes');
		for (let i = 0; i < 4; i++) await t.tick();
		expect(t.failures).toHaveLength(1);
	});
});
