'use strict';
/**
 * What a builder meets in the editor, inside a real n8n: the "From list" pickers through n8n's
 * own endpoint (POST /rest/dynamic-node-parameters/resource-locator-results, as the editor calls
 * it), one e-mail found among 20,000 applications within the bound, Simplify's flat items from
 * node version 1.1, and the user pickers: a job whose owner, an interview whose organizer, a note
 * whose mention were each chosen from what the pickers offered. Runs last: it reseeds the sandbox.
 */
const assert = require('assert');
const { executionsOf, log, nodeItems, reseedSandbox } = require('../../../scripts/e2e/lib');
const { simplifiedApplication } = require('../../../scripts/e2e/examples');
const { POLLING_TRIGGER, RECRUITING, manualTrigger, recruitingNode, fanOut } = require('../../../scripts/n8n/workflow');
const { userLabel } = require('./workflows');

const LARGE = 20000;

async function editorChecks(checks, n8n, sb, credential) {
	const { control } = sb;
	/** The picker asked about: Candidate Get's by default. */
	const CANDIDATE_GET = {
		path: 'parameters.candidateId',
		nodeTypeAndVersion: { name: RECRUITING, version: 1.1 },
		currentNodeParameters: { resource: 'candidate', operation: 'get' },
	};
	const search = async (methodName, filter, paginationToken, picker = CANDIDATE_GET) => {
		const body = {
			...picker,
			methodName,
			credentials: { recruitingApi: { id: credential.id, name: credential.name } },
			...(filter !== undefined && { filter }),
			...(paginationToken !== undefined && { paginationToken }),
		};
		const r = await n8n.rest('POST', '/dynamic-node-parameters/resource-locator-results', body);
		return r && r.data && Array.isArray(r.data.results) ? r.data : r;
	};
	const scrollAll = async (methodName, filter, picker) => {
		const values = [];
		let token;
		let calls = 0;
		do {
			const page = await search(methodName, filter, token, picker);
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
		assert.ok(hit.name.includes(`<${app.candidate.email}>`), `the application picker does not show the e-mail: ${hit.name}`);
	});

	await checks.check("polling trigger version 2: Job IDs' rows pick from the jobs found on applications (each once, searchable by title)", async () => {
		const apps = sb.seeded.values('applications');
		const jobs = new Set(apps.map((a) => a.job.id));
		// A row of New Job Note's Job IDs, as the editor asks for it.
		const jobRow = {
			path: 'parameters.jobIds.jobs[0].job',
			nodeTypeAndVersion: { name: POLLING_TRIGGER, version: 2 },
			currentNodeParameters: { event: 'job.note.created', jobIds: { jobs: [{ job: { __rl: true, mode: 'list', value: '' } }] }, options: {} },
		};
		const all = await scrollAll('searchJobs', undefined, jobRow);
		assert.deepStrictEqual([...all.values].sort(), [...jobs].sort());
		const app = apps[3];
		const byTitle = await search('searchJobs', app.job.title.toUpperCase(), undefined, jobRow);
		assert.ok(byTitle.results.some((r) => r.value === app.job.id && r.name === app.job.title), 'job not found by title');
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

	/** What the editor asks n8n for a picker of Job Create, Interview Create or Candidate Note Create. */
	const ask = async (endpoint, methodName, path, currentNodeParameters, filter) => {
		const body = {
			path,
			nodeTypeAndVersion: { name: RECRUITING, version: 1.1 },
			currentNodeParameters,
			methodName,
			credentials: { recruitingApi: { id: credential.id, name: credential.name } },
			...(filter !== undefined && { filter }),
		};
		return await n8n.rest('POST', `/dynamic-node-parameters/${endpoint}`, body);
	};
	const users = sb.seeded.values('users');
	const jobCreate = { resource: 'job', operation: 'create', title: 'E2E picked owner', additionalFields: {} };

	await checks.check("picker: users through the resource-locator endpoint (Job Create's owner), as First Last <e-mail>, searched ignoring case and accents", async () => {
		const all = await ask('resource-locator-results', 'searchUsers', 'parameters.additionalFields.ownerId', jobCreate);
		assert.deepStrictEqual(
			all.results.map((r) => [r.name, r.value]),
			users.map((u) => [userLabel(u), u.id]),
		);
		const tomas = users.find((u) => u.first_name === 'Tomás');
		const byName = await ask('resource-locator-results', 'searchUsers', 'parameters.additionalFields.ownerId', jobCreate, 'TOMAS O BRIAIN');
		assert.deepStrictEqual(byName.results.map((r) => r.value), [tomas.id]);
		const byEmail = await ask('resource-locator-results', 'searchUsers', 'parameters.additionalFields.ownerId', jobCreate, users[4].email.slice(0, 8));
		assert.deepStrictEqual(byEmail.results.map((r) => r.value), [users[4].id]);
	});

	await checks.check('user pickers: a job with an owner and an interview with an organizer chosen in the picker, a note with a mention chosen in the users dropdown', async () => {
		const [owner] = (await ask('resource-locator-results', 'searchUsers', 'parameters.additionalFields.ownerId', jobCreate, 'priya')).results;
		const interviewCreate = { resource: 'interview', operation: 'create', additionalFields: {} };
		const [organizer] = (await ask('resource-locator-results', 'searchUsers', 'parameters.additionalFields.organizerId', interviewCreate, 'okafor')).results;
		const noteCreate = { resource: 'candidateNote', operation: 'create', text: 'x', additionalFields: {} };
		const options = await ask('options', 'getUsers', 'parameters.additionalFields.mentionedUsers', noteCreate);
		const mention = options.find((o) => o.name.startsWith('Jonas Lindqvist <'));
		assert.ok(owner && organizer && mention, `pickers: ${JSON.stringify({ owner, organizer, options })}`);

		const [app] = await apiList('/applications');
		const chosen = (result) => ({ __rl: true, mode: 'list', value: result.value, cachedResultName: result.name });
		const node = (name, parameters) => recruitingNode(name, parameters, credential, { typeVersion: 1.1 });
		const wf = await n8n.api(
			'POST',
			'/workflows',
			fanOut('E2E: user pickers', manualTrigger(), [
				node('Job with a picked owner', { ...jobCreate, additionalFields: { ownerId: chosen(owner) } }),
				node('Interview with a picked organizer', {
					...interviewCreate,
					applicationId: { __rl: true, mode: 'id', value: app.id },
					type: 'phone',
					start: '2030-06-01T09:00:00Z',
					end: '2030-06-01T09:30:00Z',
					additionalFields: { organizerId: chosen(organizer) },
				}),
				node('Note with a mention', {
					...noteCreate,
					candidateId: { __rl: true, mode: 'id', value: app.candidate.id },
					text: 'Mentioning a colleague (e2e).',
					additionalFields: { mentionedUsers: [mention.value] },
				}),
			]),
		);
		await control.clearRequests();
		const r = await n8n.cli(['execute', `--id=${wf.id}`, '--rawOutput']);
		assert.strictEqual(r.code, 0, (r.stdout + r.stderr).slice(-2000));
		const [execution] = await executionsOf(n8n, wf.id);
		const sent = await control.requests();
		const posted = (path) => {
			const found = sent.filter((q) => q.method === 'POST' && q.path.endsWith(path));
			assert.strictEqual(found.length, 1, `POST ${path}: ${found.length} request(s)`);
			return found[0];
		};
		assert.strictEqual(posted('/jobs').body.owner_id, users[2].id);
		assert.strictEqual(posted('/interviews').body.event.organizer_id, users[4].id);
		assert.deepStrictEqual(posted(`/candidates/${app.candidate.id}/notes`).body, { text: 'Mentioning a colleague (e2e).', mentioned_users: [users[3].id] });
		assert.strictEqual(nodeItems(execution, 'Job with a picked owner')[0].owner_id, users[2].id);
		assert.strictEqual(nodeItems(execution, 'Interview with a picked organizer')[0].event.organizer_id, users[4].id);
		assert.deepStrictEqual(nodeItems(execution, 'Note with a mention')[0].mentioned_users, [users[3].id]);
		log(`user pickers: owner "${owner.name}", organizer "${organizer.name}", mention "${mention.name}"`);
	});
}

module.exports = { editorChecks };
