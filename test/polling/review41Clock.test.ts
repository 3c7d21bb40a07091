/**
 * Review of issue 41: cursors on the service's clock (its Date header) against a service whose Date
 * header and entry times disagree, and the cost of an idle poll of an oldest-first list.
 */
import type { IDataObject } from 'n8n-workflow';

import { useFakeListService } from '../harness/fakeServices';
import { application, at, burstOf150, ids, MINUTE, triggerOn } from './fakeKit';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();

describe('a service whose Date header and entry times disagree', () => {
	const fake = useFakeListService();
	const trigger = triggerOn(fake, 'tok_review41');

	it('Date header an hour ahead of the entries\' times: the first note of a job that had none is reported', async () => {
		fake.dateAheadMs = process.env.REVIEW41_CONTROL ? 0 : 60 * MINUTE;
		const notes = { items: [] as IDataObject[], field: 'date_created', order: 'oldestFirst' as const };
		fake.lists.set('/jobs/job_1/notes', notes);
		const t = trigger({ event: 'job.note.created', jobIds: 'job_1' });
		expect(await t.activate()).toEqual({ emitted: [] });
		notes.items.push({ id: 'jnote_1', date_created: at(0), text: 'first' });
		expect(ids((await t.tick()).emitted)).toEqual(['jnote_1']);
	});

	it('entry times 10 min behind the Date header: an entry that turns up 2½ min after its own time, below a page of seen ones, is reported', async () => {
		fake.dateAheadMs = process.env.REVIEW41_CONTROL ? 0 : 10 * MINUTE;
		const { apps, t } = await burstOf150(fake, trigger);
		// Within the cursor's look-back (5 min before the newest entry), older than the whole burst: page 2.
		const late = application('app_late', at(-151_000));
		apps.items.push(late);
		const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		expect(emitted).toEqual(['app_late']);
	});
});

describe('cost of an idle poll of an oldest-first list', () => {
	it('job notes: after 150 notes at once, an idle poll reads one page once a poll has read the list a look-back after the newest', async () => {
		const jobId = fx.seeded[0].job.id;
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: jobId });
		await trigger.activate();
		for (let i = 0; i < 150; i++) {
			fx.sandbox.put('jobNotes', { id: `jnote_burst${String(i).padStart(3, '0')}`, job_id: jobId, date_created: at(-150_000 + i * 1000), text: 'x', creator: { name: 'T' }, files: [], mentioned_users: [], restricted: false });
		}
		expect((await trigger.tick()).emitted).toHaveLength(150);
		// Six minutes on (n8n's clock and the sandbox's Date header; timers stay real).
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });
		try {
			const noteRequests = () => fx.sandbox.requests.filter((r) => r.segments[r.segments.length - 1] === 'notes');
			jest.setSystemTime(Date.now() + 6 * 60_000);
			// The last read was 6 minutes ago: a note may have turned up, 5 minutes late, just after it.
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect(noteRequests().length).toBeGreaterThan(1);
			jest.setSystemTime(Date.now() + 60_000);
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect(noteRequests()).toHaveLength(1);
		} finally {
			jest.useRealTimers();
		}
	});
});
