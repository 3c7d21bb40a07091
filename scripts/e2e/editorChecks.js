'use strict';
/**
 * What a builder meets in the editor, inside a real n8n: the "From list" pickers through n8n's
 * own endpoint (POST /rest/dynamic-node-parameters/resource-locator-results, as the editor calls
 * it), one e-mail found among 20,000 applications within the bound, and Simplify's flat items
 * from node version 1.1. Runs last: it reseeds the sandbox.
 */
const assert = require('assert');
const { executionsOf, log, nodeItems, reseedSandbox } = require('./lib');
const { simplifiedApplication } = require('./examples');
const { RECRUITING, manualTrigger, recruitingNode, fanOut } = require('../n8n/workflow');

const LARGE = 20000;

async function editorChecks(checks, n8n, sb, credential) {
	const { control } = sb;
	const search = async (methodName, filter, paginationToken) => {
		const body = {
			path: 'parameters.candidateId',
			nodeTypeAndVersion: { name: RECRUITING, version: 1.1 },
			currentNodeParameters: { resource: 'candidate', operation: 'get' },
			methodName,
			credentials: { recruitingApi: { id: credential.id, name: credential.name } },
			...(filter !== undefined && { filter }),
			...(paginationToken !== undefined && { paginationToken }),
		};
		const r = await n8n.rest('POST', '/dynamic-node-parameters/resource-locator-results', body);
		return r && r.data && Array.isArray(r.data.results) ? r.data : r;
	};
	const scrollAll = async (methodName, filter) => {
		const values = [];
		let token;
		let calls = 0;
		do {
			const page = await search(methodName, filter, token);
			values.push(...page.results.map((x) => String(x.value)));
			token = page.paginationToken;
			calls++;
		} while (token && calls < 500);
		return { values, calls };
	};

	/** A list as the service returns it, in its order (the seed copy lacks what examples added). */
	const apiList = async (collectionPath, page = 1) => {
		const res = await fetch(`${sb.apiBase}${collectionPath}?page=${page}&page_size=100`, {
			headers: { authorization: `Bearer ${sb.sandbox.token}` },
		});
		return (await res.json()).items;
	};

	await checks.check('picker: tags and email templates list every record by name', async () => {
		const tags = await apiList('/tags');
		const { values } = await scrollAll('searchTags');
		assert.deepStrictEqual(values, tags.map((t) => t.id));
		const templates = await apiList('/emailtemplates');
		assert.deepStrictEqual((await scrollAll('searchEmailTemplates')).values, templates.map((t) => t.id));
		const one = await search('searchTags', String(tags[2].name).toUpperCase());
		assert.ok(one.results.some((r) => r.value === tags[2].id), 'tag not found by its name');
	});

	await checks.check('picker: candidates and jobs from the applications, each once across scrolling', async () => {
		const apps = sb.seeded.values('applications');
		const candidates = new Set(apps.map((a) => a.candidate.id));
		const jobs = new Set(apps.map((a) => a.job.id));
		const c = await scrollAll('searchCandidates');
		assert.strictEqual(new Set(c.values).size, c.values.length, 'a candidate was listed twice');
		assert.deepStrictEqual([...c.values].sort(), [...candidates].sort());
		const j = await scrollAll('searchJobs');
		assert.deepStrictEqual([...j.values].sort(), [...jobs].sort());
		const app = apps[7];
		const byTitle = await search('searchJobs', app.job.title);
		assert.ok(byTitle.results.some((r) => r.value === app.job.id), 'job not found by title');
		const byEmail = await search('searchApplications', app.candidate.email);
		const hit = byEmail.results.find((r) => r.value === app.id);
		assert.ok(hit && hit.name.includes(app.job.title), `application not found: ${JSON.stringify(byEmail.results.slice(0, 3))}`);
	});

	await checks.check(`picker: one candidate's e-mail among ${LARGE.toLocaleString('en-US')} applications, within the bound`, async () => {
		await reseedSandbox(sb, { applications: LARGE, jobs: 40 });
		// The last application the service lists: its page is the last one a search reaches.
		const lastPage = await apiList('/applications', LARGE / 100);
		const target = lastPage[lastPage.length - 1].candidate;
		await control.clearRequests();
		const t0 = Date.now();
		let token;
		let calls = 0;
		let found = false;
		do {
			const page = await search('searchCandidates', target.email, token);
			calls++;
			found = page.results.some((r) => r.value === target.id);
			token = page.paginationToken;
		} while (!found && token);
		const ms = Date.now() - t0;
		const requests = (await control.requests()).filter((r) => r.path.endsWith('/applications')).length;
		assert.ok(found, 'not found');
		assert.ok(calls <= 2, `${calls} calls`);
		assert.strictEqual(requests, LARGE / 100, `${requests} page requests`);
		log(`picker search among ${LARGE} applications: ${calls} call(s), ${requests} requests, ${ms} ms`);
	});

	await checks.check('Simplify (node version 1.1, on by default): Application Get Many, Candidate Get, Job Get give flat items', async () => {
		await reseedSandbox(sb, { applications: 30 });
		const [app] = await apiList('/applications');
		const node = (name, parameters) => recruitingNode(name, parameters, credential, { typeVersion: 1.1 });
		const wf = await n8n.api(
			'POST',
			'/workflows',
			fanOut('E2E: Simplify', manualTrigger(), [
				node('Applications', { resource: 'application', operation: 'getMany', limit: 5 }),
				node('Candidate', { resource: 'candidate', operation: 'get', candidateId: app.candidate.id }),
				node('Job', { resource: 'job', operation: 'get', jobId: { __rl: true, mode: 'list', value: app.job.id } }),
			]),
		);
		const r = await n8n.cli(['execute', `--id=${wf.id}`, '--rawOutput']);
		assert.strictEqual(r.code, 0, (r.stdout + r.stderr).slice(-2000));
		const [execution] = await executionsOf(n8n, wf.id);
		const flat = (item) => Object.values(item).every((v) => v === null || typeof v !== 'object' || Array.isArray(v));
		const apps = nodeItems(execution, 'Applications');
		assert.strictEqual(apps.length, 5);
		assert.ok(apps.every(flat), 'an application item is nested');
		assert.deepStrictEqual(apps[0], simplifiedApplication(app));
		const [candidate] = nodeItems(execution, 'Candidate');
		assert.ok(flat(candidate) && candidate.id === app.candidate.id && candidate.email === app.candidate.email);
		const [job] = nodeItems(execution, 'Job');
		assert.ok(flat(job) && job.id === app.job.id && job.title === app.job.title);
	});
}

module.exports = { editorChecks };
