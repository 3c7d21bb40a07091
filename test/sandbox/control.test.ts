/** The HTTP control API under /__sandbox, as a test in another process would use it. */
import { WEBHOOK_EVENTS } from '../../sandbox';
import { useSandbox } from './helpers';

const { sb, call } = useSandbox({ companyId: 'cmp_ctl', token: 'ctl-token' });

beforeEach(() => sb().reset());

describe('control API', () => {
	it('GET /__sandbox/info tells the company, token, counts and webhook ids (no auth)', async () => {
		const res = await call('GET', '/__sandbox/info', undefined, { token: null });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			url: sb().url,
			apiBase: `${sb().url}/v1.0/cmp_ctl`,
			companyId: 'cmp_ctl',
			token: 'ctl-token',
			counts: { jobs: 10, candidates: 50, applications: 50, interviews: 3, jobNotes: 30, candidateNotes: 50, tags: 12, feedback: 3, applicationForms: 2, emailTemplates: 5, userCategories: 4, webhooks: 2, users: 5 },
			webhookIds: ['wh_demo', 'wh_second'],
			customPipelineIds: [expect.stringMatching(/^pip_/), expect.stringMatching(/^pip_/), expect.stringMatching(/^pip_/)],
			jobIds: [expect.stringMatching(/^job_/), expect.stringMatching(/^job_/)],
		});
	});

	it('GET and DELETE /__sandbox/requests expose and clear the recorded API requests (control calls are not recorded)', async () => {
		const before = Date.now();
		await call('POST', '/jobs?x=1', { title: 'Recorded' }, { headers: { 'x-trace': 'abc' } });
		const after = Date.now();
		await call('GET', '/__sandbox/info');
		const res = await call('GET', '/__sandbox/requests');
		expect(res.body).toEqual([
			{
				method: 'POST',
				path: '/v1.0/cmp_ctl/jobs',
				segments: ['v1.0', 'cmp_ctl', 'jobs'],
				query: { x: '1' },
				headers: expect.objectContaining({ authorization: 'Bearer ctl-token', 'x-trace': 'abc', 'content-type': 'application/json' }),
				body: { title: 'Recorded' },
				status: 201,
				at: expect.any(Number),
				answeredAt: expect.any(Number),
			},
		]);
		const [rec] = res.body;
		expect(before <= rec.at && rec.at <= rec.answeredAt && rec.answeredAt <= after).toBe(true);
		expect((await call('DELETE', '/__sandbox/requests')).status).toBe(204);
		expect((await call('GET', '/__sandbox/requests')).body).toEqual([]);
		expect(sb().requests).toEqual([]);
	});

	it('records a non-JSON body as its text', async () => {
		await call('POST', '/jobs', undefined, { raw: 'plain words', headers: { 'content-type': 'text/plain' } });
		await call('GET', '/tags');
		expect(sb().requests.map((r) => r.body)).toEqual(['plain words', undefined]);
	});

	it('PUT /__sandbox/faults sets rules; GET shows rules and hits', async () => {
		const rules = [{ kind: 'status', status: 502, path: '/tags' }];
		expect((await call('PUT', '/__sandbox/faults', { rules })).body).toEqual({ rules, hits: [0] });
		expect((await call('GET', '/tags')).status).toBe(502);
		expect((await call('GET', '/__sandbox/faults')).body).toEqual({ rules, hits: [1] });
		expect(sb().faultHits()).toEqual([1]);
		const bad = await call('PUT', '/__sandbox/faults', { rules: [{ kind: 'status', times: 'often' }] });
		expect(bad.status).toBe(400);
		expect(bad.body.errors).toEqual({ 'rules[0].times': ["'rules[0].times' must be an integer of at least -1."] });
	});

	it('POST /__sandbox/reset reseeds with sizes and clears requests and faults', async () => {
		sb().setFaults([{ kind: 'status', times: -1 }]);
		await call('GET', '/tags');
		const res = await call('POST', '/__sandbox/reset', { applications: 7, tags: 2 });
		expect(res.status).toBe(200);
		expect(res.body.counts).toMatchObject({ applications: 7, tags: 2, jobs: 10 });
		expect(sb().requests).toEqual([]);
		expect(sb().faultHits()).toEqual([]);
		expect((await call('GET', '/tags')).body.meta.total_items).toBe(2);
		expect((await call('POST', '/__sandbox/reset', { tags: -1 })).body.errors).toEqual({ tags: ["'tags' must be an integer of at least 0."] });
		expect((await call('POST', '/__sandbox/reset', { applications: 3, jobs: 0 })).status).toBe(400);
		expect((await call('POST', '/__sandbox/reset')).body.counts.tags).toBe(12);
	});

	it('PUT and GET /__sandbox/records/{collection} upsert and read any record', async () => {
		const id = 'tag_a/b?c#d%e f ü';
		const put = await call('PUT', '/__sandbox/records/tags', { id, name: 'Odd', color: '#000', type: 'candidate', status: 'active' });
		expect(put.status).toBe(200);
		const read = await call('GET', `/__sandbox/records/tags/${encodeURIComponent(id)}`);
		expect(read.body).toEqual({ data: put.body.data });
		expect(sb().get('tags', id)).toEqual(put.body.data);
		expect((await call('GET', '/tags')).body.items.map((t: { id: string }) => t.id)).toContain(id);
		expect((await call('PUT', '/__sandbox/records/unicorns', { id: 'x' })).status).toBe(404);
		expect((await call('PUT', '/__sandbox/records/tags', { name: 'no id' })).body.errors).toEqual({ id: ['The record must be a JSON object with a non-empty string id.'] });
		expect((await call('GET', '/__sandbox/records/tags/tag_nope')).status).toBe(404);
	});

	it('POST /__sandbox/deliver delivers and answers the record; GET /__sandbox/deliveries lists them', async () => {
		const res = await call('POST', '/__sandbox/deliver', { webhookId: 'wh_demo', event: 'job.created', shape: 'flat' });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ webhookId: 'wh_demo', event: 'job.created', endpoint: 'https://hooks.example.invalid/recruiting', status: null, error: expect.any(String) });
		expect(JSON.parse(res.body.body)).toMatchObject({ type: 'job.created', version: 1, data: { id: expect.stringMatching(/^job_/) } });
		expect((await call('GET', '/__sandbox/deliveries')).body).toEqual([res.body]);
		expect((await call('POST', '/__sandbox/deliver', { webhookId: 'wh_nope', event: 'job.created' })).status).toBe(404);
		expect((await call('POST', '/__sandbox/deliver', { event: WEBHOOK_EVENTS[0], shape: 'round' })).body.errors).toEqual({
			webhookId: ["'webhookId' is required."],
			shape: ["'shape' must be one of: object, flat."],
		});
	});

	it('the activity routes of npm start -- move and -- feedback: a stage move in a job, a completed feedback', async () => {
		const [jobId] = (await call('GET', '/__sandbox/info')).body.jobIds as string[];
		const moved = await call('POST', `/__sandbox/jobs/${jobId}/stage-moves`);
		expect(moved.status).toBe(200);
		const before = (await call('GET', `/applications?job_id=${jobId}&page_size=100`)).body.items.find((a: { id: string }) => a.id === moved.body.data.id);
		expect(before).toMatchObject({ job: { id: jobId }, stage: { parent_stage: moved.body.data.stage.parent_stage } });
		const done = await call('POST', '/__sandbox/feedback', {});
		expect(done.status).toBe(201);
		expect(done.body.data).toMatchObject({ id: expect.stringMatching(/^fdbk_/), status: 'complete', date_complete: expect.any(String) });
		expect((await call('GET', '/feedback?sort=-date_complete')).body.items[0].id).toBe(done.body.data.id);
		expect((await call('POST', '/__sandbox/jobs/job_none/stage-moves')).status).toBe(404);
		expect((await call('POST', '/__sandbox/feedback', { applicationId: 'app_none' })).status).toBe(404);
		expect((await call('POST', '/__sandbox/feedback', { jobId })).status).toBe(400);
	});

	it('put() refuses unknown collections and records without an id', () => {
		expect(() => sb().put('unicorns' as never, { id: 'x' })).toThrow("Unknown collection 'unicorns'");
		expect(() => sb().put('tags', { name: 'no id' })).toThrow('A tags record needs a non-empty string id.');
	});

	it('answers 404 and 405 problems for unknown control routes', async () => {
		expect((await call('GET', '/__sandbox/nothing')).status).toBe(404);
		const wrong = await call('POST', '/__sandbox/info');
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('GET');
	});
});
