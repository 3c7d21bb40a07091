import { apiPath, errorOf, expr, jsonOf, startRecruitingFixture, type RecruitingFixture } from './fixture';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture();
});
afterAll(async () => await fx.close());
beforeEach(() => {
	fx.sandbox.setFaults([]);
	fx.sandbox.clearRequests();
});

const remove = { resource: 'applicationForm', operation: 'delete' };
const putForm = (id: string) => fx.sandbox.put('applicationForms', { id, name: `Form ${id}`, questions: [] });

describe('applicationForm delete', () => {
	test('sends DELETE /forms/application/{formId} without a body and outputs { success: true } (version 1)', async () => {
		putForm('form_delete_me');
		const result = await fx.run({ ...remove, formId: 'form_delete_me' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ success: true }]);
		expect(fx.sandbox.requests.map(({ method, path, query, body, status }) => ({ method, path, query, body, status }))).toEqual([
			{
				method: 'DELETE',
				path: apiPath(fx.sandbox, 'forms', 'application', 'form_delete_me'),
				query: {},
				body: undefined,
				status: 204,
			},
		]);
		expect(fx.sandbox.get('applicationForms', 'form_delete_me')).toBeUndefined();
	});

	test('an id with reserved characters is one path segment', async () => {
		const id = 'form/../a?b#c%dünï';
		putForm(id);
		const result = await fx.run({ ...remove, formId: id });
		expect(result.error).toBeUndefined();
		expect(fx.sandbox.requests[0].segments).toEqual(['v1.0', fx.sandbox.companyId, 'forms', 'application', id]);
		expect(fx.sandbox.requests[0].path).toBe(apiPath(fx.sandbox, 'forms', 'application', id));
		expect(fx.sandbox.get('applicationForms', id)).toBeUndefined();
	});

	test('an unknown form is a 404 that names the id', async () => {
		const error = errorOf(await fx.run({ ...remove, formId: 'form_nope' }));
		expect(error.message).toBe('The application form "form_nope" was not found');
		expect(error.httpCode).toBe('404');
		expect(error.itemIndex).toBe(0);
		expect(fx.sandbox.requests).toHaveLength(1);
	});

	test('an empty form ID is caught by n8n itself (required parameter) before any request', async () => {
		await expect(fx.run({ ...remove, formId: '' })).rejects.toThrow('Parameter "Form ID" is required');
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test.each(['', '  ', '.', '..'])('form ID %j from an expression is rejected before any request', async (formId) => {
		const error = errorOf(await fx.run({ ...remove, formId: expr(formId) }));
		expect(error.message).toContain('"Form ID"');
		expect(error.itemIndex).toBe(0);
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('a DELETE whose first answer was a 5xx is retried and succeeds', async () => {
		putForm('form_flaky');
		fx.sandbox.setFaults([{ kind: 'status', status: 503, method: 'DELETE', path: '/forms/' }]);
		const result = await fx.run({ ...remove, formId: 'form_flaky' });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ success: true }]);
		expect(fx.sandbox.requests.map((r) => r.status)).toEqual([503, 204]);
	});
});
