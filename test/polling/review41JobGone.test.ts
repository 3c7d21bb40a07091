/**
 * Review of issue 41: a per-job notes list answering 404 for a job that has no cursor yet.
 */
import { usePollingFixture, warningsDuring } from './fixture';

const fx = usePollingFixture();
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const note = (id: string, jobId: string, date = at(0)) =>
	fx.sandbox.put('jobNotes', { id, job_id: jobId, date_created: date, text: id, creator: { name: 'T' }, files: [], mentioned_users: [], restricted: false });

it('first poll rate-limited at publishing, then one job deleted: the other job\'s notes still come, and the log names the job gone', async () => {
	const jobA = fx.seeded[0].job.id;
	const jobB = fx.seeded.find((a) => a.job.id !== jobA)!.job.id;
	fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'notes', retryAfter: 3600, times: -1 }]);
	const trigger = fx.trigger({ event: 'job.note.created', jobIds: `${jobA}, ${jobB}` });
	expect((await trigger.activate()).error).toBeUndefined();
	fx.sandbox.setFaults([]);
	fx.sandbox.rotateToken();
	const response = await fetch(`${fx.sandbox.url}/v1.0/${fx.sandbox.companyId}/jobs/${encodeURIComponent(jobB)}`, {
		method: 'DELETE',
		headers: { authorization: `Bearer ${fx.sandbox.token}` },
	});
	expect(response.status).toBeLessThan(300);
	note('jnote_a_new', jobA);
	let outcome: Awaited<ReturnType<typeof trigger.tick>> = { emitted: [] };
	const warnings = await warningsDuring(async () => {
		outcome = await trigger.tick();
	});
	expect(outcome.error?.message).toBeUndefined();
	expect(outcome.emitted.map((i) => (i.object as { id: string }).id)).toEqual(['jnote_a_new']);
	expect(warnings).toEqual([expect.stringContaining(`job "${jobB}" no longer exists`)]);
}, 60_000);
