/**
 * The outputs outsideToolMode.test.ts compares with the package before tool mode: the read
 * operations and a not-found error, on node versions 1 and 1.1, each as a JSON string.
 *
 * scripts/reference/outputsBeforeToolMode.js copies this file into a checkout of the commit before
 * tool mode and runs it there, so it may use only what test/recruiting/fixture.ts offered then
 * (listDirect, fx.run with typeVersion).
 */
import type { INodeParameters } from 'n8n-workflow';
import { listDirect, type RecruitingFixture } from './fixture';

/** The seed both sides use. */
export const SEED = { applications: 30, jobs: 3, candidates: 30, tags: 5 };

export async function outputsOutsideToolMode(fx: RecruitingFixture): Promise<Record<string, string>> {
	const applications = await listDirect(fx.sandbox, ['applications']);
	const candidateId = String((applications[0].candidate as { id: string }).id);
	const jobId = String((applications[0].job as { id: string }).id);
	const runs: Array<[string, INodeParameters]> = [
		['application.getMany limit', { resource: 'application', operation: 'getMany', limit: 7 }],
		['application.getMany all', { resource: 'application', operation: 'getMany', returnAll: true }],
		['candidate.get', { resource: 'candidate', operation: 'get', candidateId }],
		['job.get', { resource: 'job', operation: 'get', jobId }],
		['jobNote.getMany', { resource: 'jobNote', operation: 'getMany', jobId, returnAll: true }],
		['tag.getMany', { resource: 'tag', operation: 'getMany', returnAll: true }],
		['emailTemplate.getMany', { resource: 'emailTemplate', operation: 'getMany', limit: 3 }],
		['userCategory.getMany', { resource: 'userCategory', operation: 'getMany', returnAll: true }],
		['webhook.get', { resource: 'webhook', operation: 'get', webhookId: 'wh_demo' }],
		['candidate.get missing', { resource: 'candidate', operation: 'get', candidateId: 'can_missing' }],
	];
	const out: Record<string, string> = {};
	for (const typeVersion of [1, 1.1]) {
		for (const [name, parameters] of runs) {
			const result = await fx.run(parameters, { typeVersion });
			const error = result.error as { message?: string; description?: string } | undefined;
			out[`${name} v${typeVersion}`] = JSON.stringify(
				error ? { error: error.message, description: error.description } : result.items,
			);
		}
	}
	return out;
}
