import { apiPath, errorOf, expr, jsonOf, listDirect, startRecruitingFixture, type RecruitingFixture } from './fixture';

let fx: RecruitingFixture;
let seededJobId: string;
beforeAll(async () => {
	fx = await startRecruitingFixture();
	const [application] = await listDirect(fx.sandbox, ['applications']);
	seededJobId = String((application.job as { id: string }).id);
});
afterAll(async () => await fx.close());
beforeEach(() => {
	fx.sandbox.setFaults([]);
	fx.sandbox.clearRequests();
});

const summary = () => fx.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));

describe('job create', () => {
	test('sends the title and every additional field in the API shape; outputs the created job', async () => {
		const result = await fx.run({
			resource: 'job',
			operation: 'create',
			title: 'Senior Engineer',
			additionalFields: {
				description: 'Build things',
				status: 'published',
				type: 'contract',
				experience: 'senior',
				salary: '100k',
				jobCode: 'ENG-1',
				ownerId: 'usr_1',
				deadline: { deadline: { closesAt: '2030-01-31T17:00:00Z', autoClose: true } },
				category: { category: { id: 'jcat_eng', name: 'Engineering' } },
				language: { language: { id: 'lang_de', name: 'German', code: 'de' } },
				location: { location: { city: 'Cork', countryCode: 'IE', countryName: 'Ireland', remote: 'not_remote' } },
				applicationForm: { form: { resume: 'required', phone: 'off', additionalFormIds: 'form_a, form_b' } },
				autoResponder: { responder: { id: 'tmpl_1', emailSubject: 'Thanks', emailBody: 'We got it' } },
				tags: { tag: [{ id: 'tag_1', name: 'Urgent' }] },
			},
		});
		expect(result.error).toBeUndefined();
		const body = {
			title: 'Senior Engineer',
			description: 'Build things',
			status: 'published',
			type: 'contract',
			experience: 'senior',
			salary: '100k',
			job_code: 'ENG-1',
			owner_id: 'usr_1',
			deadline: { closes_at: '2030-01-31T17:00:00Z', auto_close: true },
			category: { id: 'jcat_eng', name: 'Engineering' },
			language: { id: 'lang_de', name: 'German', code: 'de' },
			location: { city: 'Cork', remote: 'not_remote', country: { name: 'Ireland', code: 'IE' } },
			application_form: { base_form: { phone: 'off', resume: 'required' }, additional_form_ids: ['form_a', 'form_b'] },
			auto_responder: { id: 'tmpl_1', email_subject: 'Thanks', email_body: 'We got it' },
			tags: [{ id: 'tag_1', name: 'Urgent' }],
		};
		expect(summary()).toEqual([{ method: 'POST', path: apiPath(fx.sandbox, 'jobs'), query: {}, body }]);
		expect(fx.sandbox.requests[0].status).toBe(201);
		const [job] = jsonOf(result);
		expect(result.items).toHaveLength(1);
		expect(job).toMatchObject({ title: 'Senior Engineer', status: 'published', job_code: 'ENG-1' });
		expect(fx.sandbox.get('jobs', String(job.id))).toBeDefined();
	});

	test('a 101-character title from an expression is caught before any request', async () => {
		const result = await fx.run({ resource: 'job', operation: 'create', title: "={{ 'x'.repeat(101) }}" });
		const error = errorOf(result);
		expect(error.message).toBe('Invalid "Title": must be 1 to 100 characters long (it is 101)');
		expect(error.itemIndex).toBe(0);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test.each(['2030-01-31', '2030-02-30T10:00:00Z', '2030-01-31T24:00:00Z', 'soon'])(
		'deadline %j is rejected before any request (a date-time needs a real date and a time)',
		async (closesAt) => {
			const result = await fx.run({
				resource: 'job',
				operation: 'create',
				title: 'Dated',
				additionalFields: { deadline: { deadline: { closesAt } } },
			});
			expect(errorOf(result).message).toMatch(/^Invalid "Closes At": .* is not a valid ISO 8601 date and time/);
			expect(fx.sandbox.requests).toHaveLength(0);
		},
	);
});

describe('job get', () => {
	test('GET /jobs/{jobId} outputs the job', async () => {
		const result = await fx.run({ resource: 'job', operation: 'get', jobId: seededJobId });
		expect(result.error).toBeUndefined();
		expect(summary()).toEqual([{ method: 'GET', path: apiPath(fx.sandbox, 'jobs', seededJobId), query: {}, body: undefined }]);
		expect(jsonOf(result)).toHaveLength(1);
		expect(jsonOf(result)[0]).toMatchObject({ id: seededJobId });
		expect(jsonOf(result)[0]).not.toHaveProperty('custom_pipeline_id');
	});

	test('an unknown job is a 404 that names the id', async () => {
		const error = errorOf(await fx.run({ resource: 'job', operation: 'get', jobId: 'job_nope' }));
		expect(error.message).toBe('The job "job_nope" was not found');
		expect(error.httpCode).toBe('404');
		expect(fx.sandbox.requests).toHaveLength(1);
	});

	test.each(['', '..', '.'])('job ID %j is rejected before any request', async (jobId) => {
		const error = errorOf(await fx.run({ resource: 'job', operation: 'get', jobId: expr(jobId) }));
		expect(error.message).toContain('"Job"');
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});

describe('job delete', () => {
	test('DELETE /jobs/{jobId} outputs { success: true } (version 1) and the job is gone', async () => {
		fx.sandbox.put('jobs', { ...fx.sandbox.get('jobs', seededJobId), id: 'job_to_delete' });
		const result = await fx.run({ resource: 'job', operation: 'delete', jobId: 'job_to_delete' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ success: true }]);
		expect(summary()).toEqual([
			{ method: 'DELETE', path: apiPath(fx.sandbox, 'jobs', 'job_to_delete'), query: {}, body: undefined },
		]);
		expect(fx.sandbox.get('jobs', 'job_to_delete')).toBeUndefined();
	});

	test('an unknown job is a 404 that names the id', async () => {
		const error = errorOf(await fx.run({ resource: 'job', operation: 'delete', jobId: 'job_gone' }));
		expect(error.message).toBe('The job "job_gone" was not found');
		expect(fx.sandbox.requests).toHaveLength(1);
	});

	test('an empty job ID is rejected before any request', async () => {
		const error = errorOf(await fx.run({ resource: 'job', operation: 'delete', jobId: expr('') }));
		expect(error.message).toBe('Invalid "Job": a value is required');
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});
