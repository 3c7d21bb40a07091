/**
 * Regression cases for what badInput.test.ts found, each as the counterexample fast-check gave
 * (seed and run named), so that it stays fixed whatever the generators become.
 */
import { NodeOperationError } from 'n8n-workflow';

import { startNodeFixture, type NodeFixture } from './helpers';
import { seededRecords } from './seeded';

const SIZES = { applications: 20, jobs: 4, candidates: 20 };
let fx: NodeFixture;
beforeAll(async () => {
	fx = await startNodeFixture({ seed: SIZES });
});
afterAll(async () => {
	await fx?.close();
});
beforeEach(() => fx.sandbox.clearRequests());

const [candidate] = seededRecords<{ id: string }>('cmp_demo', 'candidates', SIZES);

describe('Candidate Note Create', () => {
	// RELIABILITY_SEED=3 RELIABILITY_RUNS=150: the application ID (query application_id) was sent
	// unchecked, and 10,000 CJK characters made a request line the server refused (HTTP 431)
	// before the API saw it, where every path ID is refused first with a clear error.
	test('an application ID of 10,000 characters is refused before any request, as a path ID is', async () => {
		const result = await fx.run({
			resource: 'candidateNote',
			operation: 'create',
			candidateId: { __rl: true, mode: 'id', value: `={{ ${JSON.stringify(candidate.id)} }}` },
			text: 'ünïcødé ✓ 日本 😀',
			additionalFields: { applicationId: { __rl: true, mode: 'id', value: `={{ ${JSON.stringify('日'.repeat(10_000))} }}` } },
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toMatch(/^Invalid "Application": too long/);
		expect(fx.sandbox.requests).toEqual([]);
	});
});

describe('Application Get Many', () => {
	// Suspected by the same review as the note's application ID (not yet drawn by the generators):
	// the Candidate and Job filters were sent as query parameters unchecked.
	test.each(['candidateId', 'jobId'])('a %s filter of 10,000 characters is refused before any request, as a path ID is', async (filter) => {
		const result = await fx.run({
			resource: 'application',
			operation: 'getMany',
			filters: { [filter]: { __rl: true, mode: 'id', value: '日'.repeat(10_000) } },
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toMatch(/too long/);
		expect(fx.sandbox.requests).toEqual([]);
	});

	test('a filter ID with spaces around it is sent without them', async () => {
		const result = await fx.run({
			resource: 'application',
			operation: 'getMany',
			filters: { candidateId: { __rl: true, mode: 'id', value: ` ${candidate.id} ` } },
		});
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests.map((r) => r.query.candidate_id)).toEqual([candidate.id]);
	});
});
