/**
 * Simplify (node version 1.1, on by default): Application Get Many, Candidate Get and Job Get
 * output one flat item of the documented fields; off, or on a version 1 node, the full resource.
 */
import type { IDataObject } from 'n8n-workflow';
import { jsonOf, listDirect, startRecruitingFixture, type RecruitingFixture } from './fixture';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture({ applications: 5, jobs: 2, candidates: 5 });
});
afterAll(async () => await fx.close());

const APPLICATION_FIELDS = [
	'id', 'applied_at', 'candidate_id', 'candidate_name', 'candidate_email', 'candidate_phone', 'candidate_tags',
	'job_id', 'job_title', 'stage', 'parent_stage', 'source', 'potential_duplicate',
];
const CANDIDATE_FIELDS = [
	'id', 'full_name', 'first_name', 'last_name', 'email', 'phone_number', 'title', 'company', 'address', 'country',
	'rating', 'tags', 'application_ids',
];
const JOB_FIELDS = [
	'id', 'title', 'status', 'type', 'experience', 'city', 'country', 'remote', 'category', 'owner_id', 'job_code',
	'created_date', 'published_date', 'apply_url', 'tags',
];

const tagNames = (tags: unknown) => ((tags as IDataObject[]) ?? []).map((t) => t.name).join(', ');

test('Application Get Many: by default each application is one flat item of the documented fields', async () => {
	const full = await listDirect(fx.sandbox, ['applications']);
	const result = await fx.run({ resource: 'application', operation: 'getMany', returnAll: true }, { typeVersion: 1.1 });
	expect(result.error).toBeUndefined();
	const items = jsonOf(result);
	expect(items).toHaveLength(full.length);
	for (const item of items) expect(Object.keys(item)).toEqual(APPLICATION_FIELDS);
	const [first] = full;
	const candidate = first.candidate as IDataObject;
	const stage = first.stage as IDataObject;
	expect(items[0]).toEqual({
		id: first.id,
		applied_at: first.applied_at,
		candidate_id: candidate.id,
		candidate_name: candidate.full_name,
		candidate_email: candidate.email,
		candidate_phone: candidate.phone_number,
		candidate_tags: tagNames(candidate.tags),
		job_id: (first.job as IDataObject).id,
		job_title: (first.job as IDataObject).title,
		stage: (stage.custom_stage as IDataObject).name,
		parent_stage: stage.parent_stage,
		source: (first.source as IDataObject).source,
		potential_duplicate: first.potential_duplicate,
	});
});

test('Candidate Get and Job Get: flat by default', async () => {
	const [application] = await listDirect(fx.sandbox, ['applications'], { page_size: '1' });
	const candidateId = String((application.candidate as IDataObject).id);
	const jobId = String((application.job as IDataObject).id);
	const candidate = jsonOf(await fx.run({ resource: 'candidate', operation: 'get', candidateId }, { typeVersion: 1.1 }))[0];
	expect(Object.keys(candidate)).toEqual(CANDIDATE_FIELDS);
	expect(candidate.id).toBe(candidateId);
	const job = jsonOf(await fx.run({ resource: 'job', operation: 'get', jobId }, { typeVersion: 1.1 }))[0];
	expect(Object.keys(job)).toEqual(JOB_FIELDS);
	expect(job.id).toBe(jobId);
	expect(Object.values(job).every((v) => v === null || typeof v !== 'object')).toBe(true);
});

test.each([
	['Simplify off on version 1.1', { simplify: false }, 1.1],
	['a version 1 node (no Simplify option)', {}, 1],
])('%s: the full resource, as the service sends it', async (_name, parameters, typeVersion) => {
	const full = await listDirect(fx.sandbox, ['applications']);
	const result = await fx.run({ resource: 'application', operation: 'getMany', returnAll: true, ...parameters }, { typeVersion });
	expect(jsonOf(result)).toEqual(full);
});
