'use strict';
/**
 * A followed job deleted while the polling trigger runs (issue 41), inside real n8n: New Job Note on
 * two jobs, one of them deleted at the service. The other job's notes keep coming, and n8n records
 * one failed execution naming the deleted job (the trigger's __emitError is n8n's
 * createErrorExecution, so an error workflow would run); the polls after it add no second one.
 * It runs beside pollingChecks' steps, on their polls: about one poll (a minute) of its own, to see
 * that a later poll records nothing more.
 */
const assert = require('assert');
const { waitFor, sleep, executionsOf, nodeItems } = require('../../../scripts/e2e/lib');

/**
 * @param workflowOf (name, parameters) → the polling workflow to create (pollingChecks' shape)
 * @param avoid      a job the other checks use: neither job may be it
 * @returns start() (with the other workflows' publishing), act() (delete one job, add a note to the
 *   other), check() (after a poll has run since act), stop()
 */
function jobGoneChecks(n8n, sb, { workflowOf, nodeName, nextPollMs, avoid }) {
	const { control, seeded, apiBase } = sb;
	const [kept, deleted] = seeded
		.values('jobs')
		.map((job) => job.id)
		.filter((id) => id !== avoid);
	const notesPath = (jobId) => `/v1.0/cmp_demo/jobs/${encodeURIComponent(jobId)}/notes`;
	const keptReads = async () => (await control.requests()).filter((r) => r.path === notesPath(kept));
	let wf;
	let note;
	return {
		async start() {
			wf = await n8n.api('POST', '/workflows', workflowOf('E2E: Recruiting Polling Trigger (notes, a job deleted)', { event: 'job.note.created', jobIds: `${kept}, ${deleted}` }));
			await n8n.api('POST', `/workflows/${wf.id}/activate`);
			await waitFor('the first poll of both jobs\' notes', async () => {
				const paths = (await control.requests()).map((r) => r.path);
				return paths.includes(notesPath(kept)) && paths.includes(notesPath(deleted));
			});
		},
		async act() {
			const res = await fetch(`${apiBase}/jobs/${encodeURIComponent(deleted)}`, { method: 'DELETE', headers: { authorization: 'Bearer sandbox-token' } });
			assert.strictEqual(res.status, 204, `DELETE job ${deleted}: ${res.status}`);
			note = { id: 'jnote_e2e_kept', job_id: kept, date_created: new Date().toISOString(), text: 'Still followed', creator: { name: 'E2E' }, files: [], mentioned_users: [], restricted: false };
			await control.put('jobNotes', note);
		},
		async check() {
			const executions = async () => (await executionsOf(n8n, wf.id)).sort((a, b) => Number(a.id) - Number(b.id));
			const both = await waitFor('the note and the failed execution', async () => {
				const all = await executions();
				return all.some((e) => e.status === 'success') && all.some((e) => e.status === 'error') && all;
			}, { timeoutMs: nextPollMs, intervalMs: 1000 });
			const success = both.filter((e) => e.status === 'success');
			assert.deepStrictEqual(success.flatMap((e) => nodeItems(e, nodeName).map((item) => [item.object.id, item.jobId])), [[note.id, kept]]);
			const failed = both.filter((e) => e.status === 'error');
			assert.strictEqual(failed.length, 1, `failed executions: ${failed.length}`);
			const said = JSON.stringify(failed[0].data?.resultData?.error ?? failed[0].data ?? {});
			assert.match(said, new RegExp(`Job IDs: job \\\\?"${deleted}\\\\?" no longer exists`), `the failed execution says: ${said.slice(0, 400)}`);
			assert.doesNotMatch(said, new RegExp(kept), 'the failed execution names the job still there');
			// A later poll (it reads the job still there) records no second failed execution.
			const reads = (await keptReads()).length;
			await waitFor('a later poll', async () => (await keptReads()).length > reads, { timeoutMs: nextPollMs, intervalMs: 1000 });
			await sleep(5000);
			const after = await executions();
			assert.strictEqual(after.filter((e) => e.status === 'error').length, 1, `failed executions after a later poll: ${after.filter((e) => e.status === 'error').length}`);
			assert.strictEqual(after.filter((e) => e.status === 'success').length, 1, 'an execution with nothing new');
			await this.stop();
		},
		async stop() {
			if (wf) await n8n.api('POST', `/workflows/${wf.id}/deactivate`).catch(() => {});
		},
	};
}

module.exports = { jobGoneChecks };
