/**
 * What a hostile review of this round found, each as the reproduction it gave (every test failed
 * before its fix): a record with a field named `json`, a webhook's signing key handed to a model,
 * the user ID "categories", and the full-API probe on a candidate without its application list.
 */
import type { IDataObject } from 'n8n-workflow';
import { apiPath, listDirect, startRecruitingFixture, type RecruitingFixture } from './fixture';

let full: RecruitingFixture;
let spec: RecruitingFixture;
let candidateId: string;
beforeAll(async () => {
	full = await startRecruitingFixture({ applications: 20, candidates: 10 });
	spec = await startRecruitingFixture({ applications: 20, candidates: 10 }, { specOnly: true });
	const applications = await listDirect(full.sandbox, ['applications']);
	candidateId = String((applications[0].candidate as IDataObject).id);
});
afterAll(async () => {
	await full.close();
	await spec.close();
});

test('a record with a field named "json" is output whole, in a workflow and to a model', async () => {
	const candidate = full.sandbox.get('candidates', candidateId) as IDataObject;
	full.sandbox.put('candidates', { ...candidate, json: { note: 'from an import' }, binary: { x: 1 } });
	try {
		// The whole record as the service answers it, read straight from the sandbox.
		const response = await fetch(`${full.sandbox.url}${apiPath(full.sandbox, 'candidates', candidateId)}`, {
			headers: { authorization: `Bearer ${full.sandbox.token}` },
		});
		const served = ((await response.json()) as { data: IDataObject }).data;
		full.sandbox.clearRequests();
		expect(served).toMatchObject({ id: candidateId, json: { note: 'from an import' }, binary: { x: 1 } });
		const result = await full.run({ resource: 'candidate', operation: 'get', candidateId, simplify: false });
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.items[0]).sort()).toEqual(['json', 'pairedItem']);
		expect(result.items[0].json).toEqual(served);
		// Output Raw to a model: the same whole record, every field, `json` and `binary` included.
		const asTool = await full.run({ resource: 'candidate', operation: 'get', candidateId, output: 'raw' }, { asTool: true });
		expect(asTool.error).toBeUndefined();
		expect(asTool.items.map((item) => item.json)).toEqual([served]);
	} finally {
		full.sandbox.put('candidates', candidate);
	}
});

test.each([
	['raw', '', false],
	['raw', '', true],
	['selected', 'signing_key,name', true],
	['simplified', '', true],
] as const)('as a tool, Webhook Get never hands the signing key to the model (Output %s %s, Include Signing Key %s)', async (output, fields, include) => {
	const result = await full.run(
		{ resource: 'webhook', operation: 'get', webhookId: 'wh_demo', output, fields, options: include ? { includeSigningKey: true } : {} },
		{ asTool: true },
	);
	expect(result.error).toBeUndefined();
	expect(result.items[0].json.id).toBe('wh_demo');
	expect(JSON.stringify(result.items)).not.toMatch(/signing_key|whsec_/);
});

test('outside tool mode Include Signing Key still outputs the key', async () => {
	const result = await full.run({ resource: 'webhook', operation: 'get', webhookId: 'wh_demo', options: { includeSigningKey: true } });
	expect(String(result.items[0].json.signing_key)).toMatch(/^whsec_/);
});

test.each([['full API', () => full], ['specification only', () => spec]])(
	'User Get refuses the ID "categories" before any request (%s: /users/categories is the category list)',
	async (_name, fixture) => {
		const fx = fixture();
		fx.sandbox.clearRequests();
		const result = await fx.run({ resource: 'user', operation: 'get', userId: 'categories' });
		expect(result.error?.message).toMatch(/^Invalid "User": "categories" is not a user ID/);
		expect(fx.sandbox.requests).toEqual([]);
	},
);

test('Application Get: an unknown application of a candidate without its application list is a 404 naming it, not a missing endpoint', async () => {
	const candidate = full.sandbox.get('candidates', candidateId) as IDataObject;
	const withoutList = { ...candidate };
	delete withoutList.application_ids;
	full.sandbox.put('candidates', withoutList);
	try {
		const result = await full.run({ resource: 'application', operation: 'get', applicationId: 'app_does_not_exist', candidateId });
		expect(result.error?.message).toMatch(/app_does_not_exist/);
		expect(result.error?.message).not.toMatch(/full API/);
	} finally {
		full.sandbox.put('candidates', candidate);
	}
});
