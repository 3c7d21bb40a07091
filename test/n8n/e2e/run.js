#!/usr/bin/env node
'use strict';
/**
 * End-to-end suite inside a real n8n: `npm run test:e2e [-- options]`.
 *
 *   node test/n8n/e2e/run.js                      # the default (what `npm test` runs): see DEFAULT below
 *   node test/n8n/e2e/run.js --version 2.41.1     # one version (repeatable)
 *   node test/n8n/e2e/run.js --queue              # only the trigger flow in queue mode (2.41.1)
 *   node test/n8n/e2e/run.js --durable            # only the polling trigger on n8n's durable polling (2.41.1),
 *                                                 # with a poll past its 10 s timeout, a 429's back-off and a poll run twice
 *   node test/n8n/e2e/run.js --queue --version 1.123.81
 *   options: --no-build (use dist/ and build/sandbox as they are), --keep (keep n8n user folders),
 *            --trigger-only (single-process suites: only the trigger's checks),
 *            --agent-only (single-process suites: only the AI agent and MCP checks),
 *            --polling-only (single-process and queue suites: only the polling trigger's checks),
 *            --pair-only (single-process and queue suites: only the two triggers as a pair),
 *            --examples-only (single-process suites: only the examples' checks),
 *            --serial (every step one after another; RECRUITING_E2E_SERIAL=1 does the same)
 *
 * Per version: build, `npm pack`, install the tarball into a fresh n8n user folder by the command
 * README.md gives (scripts/e2e/readme.js runs it as written),
 * start the sandbox in-process (2,345 applications), create the credential through the public API,
 * run every operation of the Recruiting node through `n8n execute` and read the execution back
 * through the public API, an error workflow, the node as an AI Agent's tool (scripted model) and
 * behind the MCP Server Trigger, then the trigger's lifecycle and deliveries.
 *
 * Progress goes to stderr; stdout gets one line per check and, last, `N passed, N failed`.
 * Exit code 1 when anything failed.
 */
const http = require('http');
const fs = require('fs');
const os = require('os');
const path = require('path');
const assert = require('assert');
const { startN8n } = require('../../../scripts/n8n/instance');
const { claimsDatabase, startPostgres, startQueueStack, queueModePossible } = require('../queue/queue');
const { freePorts } = require('../../../scripts/n8n/cache');
const { parseCliArgs } = require('../../../scripts/cliArgs');
const lib = require('../../../scripts/e2e/lib');
const { log, Checks, FatalCheck, startSandbox, createCredential, executionsOf, nodeItems, waitFor } = lib;
const wfs = require('./workflows');
const { triggerChecks } = require('./triggerChecks');
const { triggerSafetyChecks } = require('./triggerSafetyChecks');
const { pollingChecks } = require('./pollingChecks');
const { pairChecks } = require('./pairChecks');
const { EVENTS_TABLE } = require('../../../scripts/e2e/examples');
const { DURABLE_CHECK_ENV } = require('./durablePollingChecks');
const { exampleChecks, tryWebhookCheck } = require('./exampleChecks');
const { editorChecks } = require('./editorChecks');
const { splitHostChecks } = require('./splitHostChecks');
const { agentChecks, mcpChecks } = require('./agentChecks');
const { assistantExampleChecks } = require('./assistantChecks');
const { installAsReadme } = require('../../../scripts/e2e/readme');

const VERSIONS = ['2.41.1', '1.123.81'];
const APPLICATIONS = 2345;
const EXAMPLE_APPLICATIONS = 300;
/**
 * The no-argument run (`npm test`, CI): both versions one after the other in one lane, n8n 2.x's
 * durable polling engine then queue mode in another, the two lanes at once (lanesOf).
 * RECRUITING_E2E_QUEUE=0 leaves queue mode out; RECRUITING_E2E_VERSIONS=a,b picks versions.
 */
const DEFAULT = {
	versions: process.env.RECRUITING_E2E_VERSIONS ? process.env.RECRUITING_E2E_VERSIONS.split(',').filter(Boolean) : VERSIONS,
	queue: process.env.RECRUITING_E2E_QUEUE !== '0',
};

function parseArgs(argv) {
	const values = parseCliArgs(
		__filename,
		{
			version: { type: 'string', multiple: true, default: [] },
			queue: { type: 'boolean', default: false },
			durable: { type: 'boolean', default: false },
			'no-build': { type: 'boolean', default: false },
			keep: { type: 'boolean', default: false },
			'trigger-only': { type: 'boolean', default: false },
			'agent-only': { type: 'boolean', default: false },
			'polling-only': { type: 'boolean', default: false },
			'pair-only': { type: 'boolean', default: false },
			'examples-only': { type: 'boolean', default: false },
			serial: { type: 'boolean', default: false },
			'n8n-env': { type: 'string', multiple: true, default: [] },
		},
		argv,
	);
	const o = {
		versions: values.version,
		queueOnly: values.queue,
		build: !values['no-build'],
		keep: values.keep,
		triggerOnly: values['trigger-only'],
		agentOnly: values['agent-only'],
		pollingOnly: values['polling-only'],
		pairOnly: values['pair-only'],
		examplesOnly: values['examples-only'],
		// One step after another (the default plan otherwise runs in two lanes at once).
		serial: values.serial || process.env.RECRUITING_E2E_SERIAL === '1',
		// KEY=VALUE for n8n (single-process, or every process of the queue stack), e.g. N8N_LOG_LEVEL=debug.
		n8nEnv: Object.fromEntries(values['n8n-env'].map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])),
	};
	if (values.durable) {
		o.plan = (o.versions.length ? o.versions : [VERSIONS[0]]).map((v) => ({ kind: 'durable', version: v }));
	} else if (o.queueOnly) {
		o.plan = (o.versions.length ? o.versions : [VERSIONS[0]]).map((v) => ({ kind: 'queue', version: v }));
	} else if (o.versions.length) {
		o.plan = o.versions.map((v) => ({ kind: 'single', version: v }));
	} else {
		o.plan = DEFAULT.versions.map((v) => ({ kind: 'single', version: v }));
		// n8n 2.x's durable polling engine: the polling trigger's checks again, with its four settings on.
		if (DEFAULT.versions.includes(VERSIONS[0])) o.plan.push({ kind: 'durable', version: VERSIONS[0] });
		if (DEFAULT.queue && queuePossible()) o.plan.push({ kind: 'queue', version: VERSIONS[0] });
	}
	return o;
}

/**
 * The default plan in two lanes of about equal length: the single-process suites in one, the
 * durable polling engine and queue mode in the other. An explicit plan is one lane.
 */
function lanesOf(plan) {
	const lanes = [plan.filter((p) => p.kind === 'single'), plan.filter((p) => p.kind !== 'single')];
	return lanes.filter((lane) => lane.length > 0);
}

function queuePossible() {
	if (queueModePossible()) return true;
	log('queue mode left out of the default run: redis-server/PostgreSQL are missing and installing them needs root');
	return false;
}

/** Every resource/operation the built node offers, from dist (so a new operation must be added here). */
function allOperations() {
	const { resources } = require(path.join(lib.ROOT, 'dist', 'nodes', 'Recruiting', 'actions', 'resources.js'));
	return Object.entries(resources).flatMap(([r, ops]) => Object.keys(ops).map((op) => `${r}.${op}`));
}

const byPath = (requests, method, p) => requests.filter((r) => r.method === method && r.path === p);

/** The 26 operations + Return All + continue-on-fail, through `n8n execute` and the public API. */
async function operationChecks(checks, n8n, sb, credential) {
	const { control, seeded } = sb;
	const t = wfs.pickTargets(seeded);
	const userId = 'usr_b4n9c3r6tz';
	const rows = wfs.operationRows(t, userId);
	const base = '/v1.0/cmp_demo';

	await checks.check('every operation of the node is in the workflow (26)', async () => {
		const offered = allOperations().sort();
		const covered = rows.map(([r, op]) => `${r}.${op}`).sort();
		assert.deepStrictEqual(covered, offered);
		assert.strictEqual(offered.length, 26);
	});

	let execution;
	let requests;
	const opNames = rows.map(([, , name]) => `op ${name}`);
	const extraNames = ['op Return All: exactly 2,345 applications, each once', 'continueOnFail: unknown job id -> an error item naming it'];
	try {
		execution = await checks.check(
			'operations workflow: created via the public API, run with `n8n execute`, read back via the public API',
			async () => {
				const wf = await n8n.api('POST', '/workflows', wfs.operationsWorkflow(rows, credential));
				await control.clearRequests();
				const r = await n8n.cli(['execute', `--id=${wf.id}`, '--rawOutput'], { timeoutMs: 300000 });
				assert.strictEqual(r.code, 0, `n8n execute exited ${r.code}: ${(r.stdout + r.stderr).slice(-3000)}`);
				const list = await executionsOf(n8n, wf.id);
				assert.strictEqual(list.length, 1, `expected one execution, got ${list.length}`);
				assert.strictEqual(list[0].status, 'success', JSON.stringify(list[0].data?.resultData?.error));
				requests = await control.requests();
				return list[0];
			},
			{ fatal: true },
		);
	} catch (e) {
		if (!(e instanceof FatalCheck)) throw e;
		checks.skip([...opNames, ...extraNames], 'the operations workflow did not run');
		return;
	}

	const out = (name) => nodeItems(execution, name);
	const one = (name) => {
		const items = out(name);
		assert.strictEqual(items.length, 1, `${name}: expected 1 item, got ${items.length}`);
		return items[0];
	};
	const [, tomas, priya, jonas] = t.users;
	const asserts = {
		'Application: Get Many (Return All)': async (name) => {
			const items = out(name);
			assert.strictEqual(items.length, APPLICATIONS);
			const pages = byPath(requests, 'GET', `${base}/applications`);
			assert.ok(pages.length >= 2, `Return All made ${pages.length} request(s)`);
			assert.ok(pages.every((p) => p.status === 200));
		},
		'Application: Get (picked, candidate found)': async (name) => {
			const app = t.applicationToGet;
			// One extra request found the candidate: page 1 of 100, asked for twice in all (Return All asks for it too).
			const pageOnes = byPath(requests, 'GET', `${base}/applications`).filter((r) => r.query.page === '1' && r.query.page_size === '100');
			assert.strictEqual(pageOnes.length, 2, `page 1 of the application list read ${pageOnes.length} time(s)`);
			const got = byPath(requests, 'GET', `${base}/candidates/${app.candidate.id}/applications/${app.id}`);
			assert.strictEqual(got.length, 1);
			assert.strictEqual(got[0].status, 200);
			assert.deepStrictEqual(one(name), await control.apiGet(`/candidates/${app.candidate.id}/applications/${app.id}`));
		},
		'Application: Update Source': async (name) => {
			const app = t.sourceApplication;
			const req = byPath(requests, 'PUT', `${base}/candidates/${app.candidate.id}/applications/${app.id}/source`)[0];
			assert.deepStrictEqual(req.body, { origin: 'referred', source: 'Employee referral (e2e)', user: { id: jonas.id } });
			const source = (await control.record('applications', app.id)).source;
			assert.deepStrictEqual(source.user, { id: jonas.id, name: `${jonas.first_name} ${jonas.last_name}` });
			assert.strictEqual(source.origin, 'referred');
			assert.deepStrictEqual(one(name), source);
		},
		'Application Form: Delete': async (name) => {
			assert.deepStrictEqual(one(name), { success: true }); // node version 1; 1.1 outputs { deleted: true }
			assert.strictEqual(byPath(requests, 'DELETE', `${base}/forms/application/${t.formToDelete.id}`)[0]?.status, 204);
			assert.strictEqual(await control.record('applicationForms', t.formToDelete.id), undefined);
		},
		'Candidate: Add Tag': async (name) => {
			assert.deepStrictEqual(one(name), { success: true });
			const req = byPath(requests, 'POST', `${base}/candidates/${t.tagCandidate.id}/tags`)[0];
			assert.deepStrictEqual(req.body, { id: t.newTag.id });
			const c = await control.record('candidates', t.tagCandidate.id);
			assert.ok(c.tags.some((x) => x.id === t.newTag.id), 'tag not on the candidate');
		},
		'Candidate: Remove Tag (by name)': async (name) => {
			assert.deepStrictEqual(one(name), { success: true });
			const [removed, ...kept] = t.untagCandidate.tags;
			const req = byPath(requests, 'PUT', `${base}/candidates/${t.untagCandidate.id}`)[0];
			assert.deepStrictEqual(req.body, { tags: kept }, `removing ${removed.name}`);
			assert.deepStrictEqual((await control.record('candidates', t.untagCandidate.id)).tags, kept);
		},
		'Candidate: Get': async (name) => {
			assert.deepStrictEqual(one(name), await control.record('candidates', t.getCandidate.id));
		},
		'Candidate: Update': async (name) => {
			const req = byPath(requests, 'PUT', `${base}/candidates/${t.updateCandidate.id}`)[0];
			assert.deepStrictEqual(req.body, { company: 'Initrode (e2e)', first_name: 'Updated' });
			const now = await control.record('candidates', t.updateCandidate.id);
			assert.strictEqual(now.company, 'Initrode (e2e)');
			assert.strictEqual(now.first_name, 'Updated');
			assert.deepStrictEqual(one(name), now);
		},
		'Candidate Note: Create (with a mention)': async (name) => {
			const { candidate, id: applicationId } = t.noteApplication;
			const req = byPath(requests, 'POST', `${base}/candidates/${candidate.id}/notes`)[0];
			assert.strictEqual(req.status, 201);
			assert.deepStrictEqual(req.query, { application_id: applicationId });
			assert.deepStrictEqual(req.body, { text: 'AI screening (e2e): strong match.', mentioned_users: [tomas.id] });
			const item = one(name);
			assert.match(item.id, /^note_/);
			const stored = await control.record('candidateNotes', item.id);
			assert.strictEqual(stored.candidate_id, candidate.id);
			assert.deepStrictEqual(stored.mentioned_users, [tomas.id]);
		},
		'Candidate Note: Update': async (name) => {
			const req = byPath(requests, 'PUT', `${base}/candidates/${t.note.candidate_id}/notes/${t.note.id}`)[0];
			assert.deepStrictEqual(req.body, { text: 'Updated by the e2e suite' });
			const item = one(name);
			assert.strictEqual(item.id, t.note.id);
			assert.strictEqual(item.text, 'Updated by the e2e suite');
			assert.strictEqual((await control.record('candidateNotes', t.note.id)).text, 'Updated by the e2e suite');
		},
		'Email Template: Get Many': async (name) => {
			assert.deepStrictEqual(out(name).map((x) => x.id), seeded.values('emailTemplates').map((x) => x.id));
		},
		'Feedback: Complete': async (name) => {
			const req = byPath(requests, 'POST', `${base}/feedback`)[0];
			assert.strictEqual(req.status, 201);
			assert.deepStrictEqual(req.body, {
				application_id: t.completeApplication.id,
				form_id: t.completeForm.id,
				answers: [{ question_id: t.completeQuestion.id, text: 'Keen on the mission (e2e).' }],
			});
			const item = one(name);
			assert.match(item.id, /^fdbk_/);
			assert.strictEqual(item.status, 'complete');
			assert.deepStrictEqual(await control.record('feedback', item.id), item);
			assert.ok((await control.record('applications', t.completeApplication.id)).feedback.includes(item.id));
		},
		'Feedback: Get Many (pending)': async (name) => {
			const pending = seeded.values('feedback').filter((f) => f.status === 'pending').map((f) => f.id);
			assert.ok(pending.length > 0);
			assert.deepStrictEqual(out(name).map((x) => x.id), pending);
			// The Status filter is the node's: the service was asked for the list only.
			assert.ok(byPath(requests, 'GET', `${base}/feedback`).every((r) => r.query.status === undefined));
		},
		'Feedback: Update': async (name) => {
			const req = byPath(requests, 'PUT', `${base}/feedback/${t.feedback.id}`)[0];
			assert.deepStrictEqual(req.body, {
				feedback_id: t.feedback.id,
				application_id: t.feedback.application_id,
				form_id: t.feedback.form_id,
				answers: [{ question_id: t.feedbackQuestion.id, text: 'Strong systems design (e2e).' }],
			});
			const now = await control.record('feedback', t.feedback.id);
			assert.strictEqual(now.questions[0].answer.text, 'Strong systems design (e2e).');
			assert.deepStrictEqual(one(name), now);
		},
		'Interview: Cancel': async (name) => {
			assert.deepStrictEqual(one(name), { success: true });
			assert.strictEqual(byPath(requests, 'PUT', `${base}/interviews/${t.interviewToCancel.id}/cancel`)[0]?.status, 204);
			assert.strictEqual((await control.record('interviews', t.interviewToCancel.id)).event.status, 'cancelled');
		},
		'Interview: Create': async (name) => {
			const req = byPath(requests, 'POST', `${base}/interviews`)[0];
			assert.strictEqual(req.status, 201);
			assert.strictEqual(req.body.application_id, t.interviewApplication.id);
			assert.strictEqual(req.body.event.time_zone, 'Europe/Dublin');
			assert.match(req.body.event.start, /^2030-03-04[T ]10:00:00/);
			assert.deepStrictEqual(req.body.event.attendees, [
				{ type: 'user', application_id: null, user_id: userId },
				{ type: 'candidate', application_id: t.interviewApplication.id, user_id: null },
			]);
			assert.deepStrictEqual(req.body.meta, { meeting_url: 'https://meet.example.com/e2e' });
			assert.strictEqual(req.body.event.organizer_id, t.users[0].id, 'the organizer picked from the list');
			const item = one(name);
			assert.match(item.id, /^int_/);
			assert.deepStrictEqual(await control.record('interviews', item.id), item);
		},
		'Job: Create': async (name) => {
			const req = byPath(requests, 'POST', `${base}/jobs`)[0];
			assert.strictEqual(req.status, 201);
			assert.deepStrictEqual(req.body, {
				title: 'E2E Platform Engineer',
				description: '<p>Created by the e2e suite.</p>',
				owner_id: priya.id,
				assigned_team: { assigned_users: [priya.id, jonas.id], recruiter_ids: [priya.id] },
			});
			const item = one(name);
			assert.strictEqual(item.title, 'E2E Platform Engineer');
			assert.strictEqual(item.owner_id, priya.id);
			assert.deepStrictEqual(await control.apiGet(`/jobs/${item.id}`), item);
		},
		'Job: Delete': async (name) => {
			assert.deepStrictEqual(one(name), { success: true }); // node version 1; 1.1 outputs { deleted: true }
			assert.strictEqual(byPath(requests, 'DELETE', `${base}/jobs/${t.jobToDelete.id}`)[0]?.status, 204);
			assert.strictEqual(await control.record('jobs', t.jobToDelete.id), undefined);
		},
		'Job: Get': async (name) => {
			assert.deepStrictEqual(one(name), await control.apiGet(`/jobs/${t.jobToGet.id}`));
		},
		'Job Note: Get Many': async (name) => {
			const ids = out(name).map((x) => x.id);
			assert.strictEqual(ids.length, t.jobNotes.length);
			assert.deepStrictEqual([...ids].sort(), t.jobNotes.map((n) => n.id).sort());
		},
		'Tag: Get Many': async (name) => {
			assert.deepStrictEqual(out(name).map((x) => x.id), seeded.values('tags').map((x) => x.id));
		},
		'User: Get': async (name) => {
			assert.deepStrictEqual(one(name), await control.apiGet(`/users/${priya.id}`));
		},
		'User: Get Many': async (name) => {
			const items = out(name);
			assert.deepStrictEqual(items.map((u) => u.id), t.users.map((u) => u.id));
			assert.deepStrictEqual(items.map((u) => u.email), t.users.map((u) => u.email));
		},
		'User Category: Get Many': async (name) => {
			assert.deepStrictEqual(out(name), JSON.parse(JSON.stringify(seeded.values('userCategories'))));
		},
		'Webhook: Get': async (name) => {
			const item = one(name);
			assert.strictEqual(item.id, 'wh_second');
			assert.strictEqual(item.endpoint, t.webhook.endpoint);
		},
		'Webhook: Update': async (name) => {
			const req = byPath(requests, 'PUT', `${base}/webhooks/wh_second`)[0];
			assert.deepStrictEqual(req.body.events, ['candidate.tag.added', 'job.created']);
			assert.strictEqual(req.body.description, 'Updated by the e2e suite');
			const now = await control.record('webhooks', 'wh_second');
			assert.deepStrictEqual(now.subscribed_events, ['candidate.tag.added', 'job.created']);
			assert.strictEqual(now.description, 'Updated by the e2e suite');
			assert.strictEqual(one(name).description, 'Updated by the e2e suite');
		},
	};
	for (const [, , name] of rows) await checks.check(`op ${name}`, () => asserts[name](name));

	await checks.check(extraNames[0], async () => {
		const ids = out('Application: Get Many (Return All)').map((x) => x.id);
		assert.strictEqual(ids.length, APPLICATIONS);
		assert.strictEqual(new Set(ids).size, APPLICATIONS, 'duplicates');
		const seededIds = new Set(seeded.values('applications').map((a) => a.id));
		assert.ok(ids.every((id) => seededIds.has(id)), 'unknown ids');
	});
	await checks.check(extraNames[1], async () => {
		const item = one('Job: Get (unknown id, continue on fail)');
		assert.strictEqual(item.error, `The job "${wfs.MISSING_JOB_ID}" was not found`);
		assert.strictEqual(item.httpCode, '404');
	});
}

/** An unknown job id fails the execution with our message, through the CLI and the public API. */
async function errorChecks(checks, n8n, credential) {
	await checks.check('error: unknown job id -> `n8n execute` fails, execution status error with our message naming the id', async () => {
		const wf = await n8n.api('POST', '/workflows', wfs.errorWorkflow(credential));
		const r = await n8n.cli(['execute', `--id=${wf.id}`, '--rawOutput']);
		assert.notStrictEqual(r.code, 0, 'n8n execute succeeded');
		const expected = `The job "${wfs.MISSING_JOB_ID}" was not found`;
		assert.ok((r.stdout + r.stderr).includes(expected), `CLI output lacks ${expected}`);
		const [execution] = await executionsOf(n8n, wf.id);
		assert.strictEqual(execution.status, 'error');
		const err = execution.data.resultData.error;
		assert.strictEqual(err.message, expected);
		assert.strictEqual(err.node?.name || execution.data.resultData.lastNodeExecuted, 'Job: Get (unknown id)');
		assert.match(err.description || '', new RegExp(wfs.MISSING_JOB_ID));
	});
}

/**
 * A redirect from the service to another origin (a real second listener): n8n's credential test
 * and an operation both stop at the 3xx; the other origin receives nothing, so never the token.
 */
async function redirectChecks(checks, n8n, sb, credential) {
	const received = [];
	const other = http.createServer((req, res) => {
		received.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"data":{"id":"stolen"},"items":[],"meta":{}}');
	});
	await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
	const otherUrl = `http://localhost:${other.address().port}`;
	try {
		// n8n 1.x's public API has no credential test (404): the check runs where n8n offers it.
		const canTest = (await n8n.api('POST', `/credentials/${credential.id}/test`, {}, { raw: true })).status !== 404;
		if (canTest) await checks.check('redirect: credential test against a 302 to another origin fails and sends nothing there', async () => {
			await sb.control.setFaults([{ kind: 'redirect', status: 302, path: '/tags', location: `${otherUrl}/tags`, times: -1 }]);
			const tested = await n8n.api('POST', `/credentials/${credential.id}/test`, {}, { raw: true });
			assert.strictEqual(tested.status, 200, `credential test -> ${tested.status}`);
			assert.notStrictEqual(tested.body && tested.body.status, 'OK', `credential test passed: ${JSON.stringify(tested.body)}`);
			assert.deepStrictEqual(received, [], 'the other origin received a request');
		});
		if (canTest) await checks.check('credential test: plain http:// to another host is refused and sends nothing; with the opt-in it is sent', async () => {
			// 0.0.0.0 reaches the listener on this machine but is not a loopback name: it stands for a remote host.
			const plain = `http://0.0.0.0:${other.address().port}`;
			const refused = await createCredential(n8n, { url: plain, companyId: 'cmp_demo', token: 'e2e-plain-token' }, 'E2E plain http');
			const tested = await n8n.api('POST', `/credentials/${refused.id}/test`, {}, { raw: true });
			assert.strictEqual(tested.status, 200, `credential test -> ${tested.status}`);
			// n8n reports only the failing URL's error code (ERR_INVALID_URL); the node itself explains.
			assert.strictEqual(tested.body.status, 'Error', `credential test: ${JSON.stringify(tested.body)}`);
			assert.deepStrictEqual(received, [], 'the plain-http host received a request');
			const allowed = await n8n.api('POST', '/credentials', {
				name: 'E2E plain http allowed',
				type: 'recruitingApi',
				data: { baseUrl: plain, companyId: 'cmp_demo', accessToken: 'e2e-plain-token', allowInsecureHttp: true },
			}, { raw: true });
			assert.ok(allowed.status < 400, `create -> ${allowed.status} ${JSON.stringify(allowed.body)}`);
			await n8n.api('POST', `/credentials/${allowed.body.id}/test`, {}, { raw: true });
			assert.strictEqual(received.length, 1, 'with the opt-in the test request is sent');
			assert.strictEqual(received[0].authorization, 'Bearer e2e-plain-token');
			received.length = 0;
		});
		await checks.check('redirect: an operation answered with 307 to another origin fails naming it; nothing sent there', async () => {
			await sb.control.setFaults([{ kind: 'redirect', status: 307, path: '/jobs/', location: `${otherUrl}/jobs/x`, times: -1 }]);
			const wf = await n8n.api('POST', '/workflows', wfs.errorWorkflow(credential));
			const r = await n8n.cli(['execute', `--id=${wf.id}`, '--rawOutput']);
			assert.notStrictEqual(r.code, 0, 'n8n execute succeeded');
			const [execution] = await executionsOf(n8n, wf.id);
			const err = execution.data.resultData.error;
			assert.match(err.message, /redirect \(HTTP 307\)/);
			assert.ok((err.description || '').includes(`${otherUrl}/jobs/x`), `description: ${err.description}`);
			assert.deepStrictEqual(received, [], 'the other origin received a request');
		});
	} finally {
		await sb.control.setFaults([]);
		await new Promise((resolve) => other.close(resolve));
	}
}

/**
 * n8n's durable polling (2.33 and later; from 2.37 durable cursors need the other three): polls on
 * n8n's scheduler, each with a context of its own, the cursor in the `poller_state` table.
 */
const DURABLE_POLLING_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

/**
 * The polling trigger's checks on n8n's durable polling engine (single process, sqlite), and a poll
 * past the poll timeout (set to 10 s) and a 429's back-off, read from n8n's debug log (JSON).
 */
async function durableSuite(checks, version, tarball, o) {
	const n8nEnv = { ...DURABLE_POLLING_ENV, ...DURABLE_CHECK_ENV, ...o.n8nEnv };
	await singleSuite(checks, version, tarball, { ...o, pollingOnly: true, durable: true, n8nEnv }, `[${version} durable polling] `);
}

/**
 * `fn(eventsCredential)` with the safety-net example's table (EVENTS_TABLE) in a private PostgreSQL
 * beside a single n8n, or in the queue stack's own.
 */
async function withEventsTable(n8n, userFolder, fn) {
	if (n8n.postgres) return fn(await claimsDatabase(n8n, EVENTS_TABLE));
	// Without PostgreSQL (never in CI: .ci/run installs it) the checks that need it are skipped, saying so.
	if (!queueModePossible()) return fn(undefined);
	const [port] = await freePorts(1);
	const postgres = await startPostgres({ port, logFile: path.join(userFolder, 'events-postgres.log') });
	try {
		return await fn(await claimsDatabase({ postgres, api: n8n.api }, EVENTS_TABLE));
	} finally {
		await postgres.stop();
	}
}

/** One n8n (sqlite, single process) of `version`. */
async function singleSuite(checks, version, tarball, o, prefix = `[${version}] `) {
	checks.prefix = prefix;
	const t0 = Date.now();
	let n8n;
	let sb;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `recruiting-e2e-${version}-`));
	try {
		try {
			await checks.check(
				'start: sandbox + fresh n8n with the packed tarball installed by the README\'s own command (into ~/.n8n/nodes)',
				async () => {
					sb = await startSandbox({ seed: { applications: APPLICATIONS } });
					const command = await installAsReadme({ userFolder, tarball });
					log(`installed as README.md says: ${command.split('\n').join(' ; ')}`);
					n8n = await startN8n({ version, userFolder, env: o.n8nEnv });
					const pkg = JSON.parse(
						fs.readFileSync(path.join(userFolder, '.n8n', 'nodes', 'node_modules', wfs.PKG, 'package.json'), 'utf8'),
					);
					assert.strictEqual(pkg.name, wfs.PKG);
				},
				{ fatal: true },
			);
			var credential = await checks.check(
				'credential: created through the public API (POST /api/v1/credentials)',
				async () => {
					const schema = await n8n.api('GET', '/credentials/schema/recruitingApi');
					assert.ok(schema.properties && schema.properties.baseUrl, `schema: ${JSON.stringify(schema)}`);
					const created = await createCredential(n8n, sb.sandbox);
					// 2.x can test a stored credential through the public API (our `test` request: GET /tags).
					const tested = await n8n.api('POST', `/credentials/${created.id}/test`, {}, { raw: true });
					if (tested.status !== 404) {
						assert.strictEqual(tested.status, 200, `credential test -> ${tested.status}: ${JSON.stringify(tested.body)}`);
						assert.strictEqual(tested.body.status, 'OK', `credential test: ${JSON.stringify(tested.body)}`);
						const hits = (await sb.control.requests()).filter((r) => r.path === '/v1.0/cmp_demo/tags');
						assert.ok(hits.length >= 1 && hits.every((r) => r.status === 200), 'the test request did not reach GET /tags');
					}
					return created;
				},
				{ fatal: true },
			);
		} catch (e) {
			if (!(e instanceof FatalCheck)) throw e;
			checks.skip(['operations, errors, trigger'], 'setup failed');
			return;
		}
		// The assistant example as the demo runs it: on n8n 2.x only.
		const assistantExample = Number(version.split('.')[0]) >= 2 ? () => assistantExampleChecks(checks, n8n, sb, credential) : async () => {};
		const pair = () =>
			withEventsTable(n8n, userFolder, (eventsCredential) =>
				pairChecks(checks, n8n, sb, credential, { away: { stop: () => n8n.stop(), start: () => n8n.start() }, eventsCredential }),
			);
		// The examples on a smaller seed: the export's 12 expressions per row cost ~10 ms a row.
		const examples = async () => {
			await lib.reseedSandbox(sb, { applications: EXAMPLE_APPLICATIONS });
			await withEventsTable(n8n, userFolder, (eventsCredential) => exampleChecks(checks, n8n, sb, credential, { applications: EXAMPLE_APPLICATIONS, eventsCredential }));
		};
		if (o.pairOnly) return await pair();
		if (o.examplesOnly) return await examples();
		if (o.pollingOnly) {
			await pollingChecks(checks, n8n, sb, credential, { restart: true, durable: Boolean(o.durable) });
			return;
		}
		if (o.agentOnly) {
			await agentChecks(checks, n8n, sb, credential);
			await mcpChecks(checks, n8n, sb, credential);
			await assistantExample();
			return;
		}
		if (!o.triggerOnly) {
			await operationChecks(checks, n8n, sb, credential);
			await errorChecks(checks, n8n, credential);
			await redirectChecks(checks, n8n, sb, credential);
			await agentChecks(checks, n8n, sb, credential);
			await mcpChecks(checks, n8n, sb, credential);
			await assistantExample();
		}
		await triggerChecks(checks, n8n, sb, credential, { restart: true });
		await triggerSafetyChecks(checks, n8n, sb, credential);
		await pollingChecks(checks, n8n, sb, credential, { restart: true });
		await pair();
		// n8n 2.x can give production and test URLs different hosts; 1.x takes both from WEBHOOK_URL.
		if (Number(version.split('.')[0]) >= 2) await splitHostChecks(checks, sb, tarball, version);
		if (o.triggerOnly) return;
		await examples();
		await tryWebhookCheck(checks, n8n, sb, credential);
		// Pickers and Simplify are the editor's; checked on n8n 2.x (they reseed the sandbox: last).
		if (Number(version.split('.')[0]) >= 2) await editorChecks(checks, n8n, sb, credential);
	} finally {
		if (n8n) await n8n.stop().catch((e) => log(`stop: ${e.message}`));
		if (sb) await sb.sandbox.close();
		if (!o.keep) fs.rmSync(userFolder, { recursive: true, force: true });
		else log(`kept ${userFolder}`);
		log(`n8n ${version}: suite took ${((Date.now() - t0) / 1000).toFixed(1)}s`);
	}
}

/** Queue mode: main + worker + webhook processes, Redis, PostgreSQL; the trigger flow only. */
async function queueSuite(checks, version, tarball, o) {
	checks.prefix = `[${version} queue] `;
	const t0 = Date.now();
	let stack;
	let sb;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `recruiting-e2e-queue-${version}-`));
	try {
		let credential;
		try {
			await checks.check(
				'start: sandbox + queue stack (redis, postgres, main, worker, webhook) with the tarball',
				async () => {
					sb = await startSandbox({ seed: {} });
					stack = await startQueueStack({ version, userFolder, communityTarballs: [tarball], env: o.n8nEnv });
					assert.notStrictEqual(stack.webhookUrl, stack.url);
				},
				{ fatal: true },
			);
			credential = await checks.check('credential: created through the public API', () => createCredential(stack, sb.sandbox), { fatal: true });
		} catch (e) {
			if (!(e instanceof FatalCheck)) throw e;
			checks.skip(['trigger flow'], 'setup failed');
			return;
		}
		const pair = () =>
			withEventsTable(stack, userFolder, (eventsCredential) =>
				pairChecks(checks, stack, sb, credential, { away: { stop: () => stack.stopN8n(), start: () => stack.startN8n() }, eventsCredential }),
			);
		if (o.pairOnly) return await pair();
		if (!o.pollingOnly) {
			await triggerChecks(checks, stack, sb, credential, { queue: true });
			await triggerSafetyChecks(checks, stack, sb, credential, { queue: true });
		}
		await pollingChecks(checks, stack, sb, credential, { queue: true });
		if (!o.pollingOnly) await pair();
	} finally {
		if (stack) await stack.stop().catch((e) => log(`stop: ${e.message}`));
		if (sb) await sb.sandbox.close();
		if (!o.keep) fs.rmSync(userFolder, { recursive: true, force: true });
		else log(`kept ${userFolder}`);
		log(`queue ${version}: suite took ${((Date.now() - t0) / 1000).toFixed(1)}s`);
	}
}

async function main() {
	const o = parseArgs(process.argv.slice(2));
	const checks = new Checks();
	const t0 = Date.now();
	const timings = [];
	log(`plan: ${o.plan.map((p) => `${p.kind} ${p.version}`).join(', ')}`);
	let tarball;
	try {
		await checks.check(
			'build and npm pack',
			async () => {
				if (o.build) await lib.buildAll();
				const packed = await lib.packPackage();
				tarball = packed.tarball;
				assert.ok(packed.files.some((f) => f === 'dist/nodes/Recruiting/Recruiting.node.js'), 'node missing from the tarball');
				assert.ok(packed.files.some((f) => f === 'dist/credentials/RecruitingApi.credentials.js'), 'credential missing');
			},
			{ fatal: true },
		);
	} catch (e) {
		if (!(e instanceof FatalCheck)) throw e;
	}
	if (tarball) {
		// Each lane runs its steps one after another, the lanes at once: n8n mostly waits (on
		// deliveries, polls, restarts), so two n8n at a time fill the machine better than one.
		// Each lane has its own checks (their prefix names the step), counted together below.
		const lanes = o.serial ? [o.plan] : lanesOf(o.plan);
		log(`lanes: ${lanes.map((lane) => lane.map((p) => `${p.kind} ${p.version}`).join(' then ')).join(' | ')}`);
		const laneChecks = await Promise.all(
			lanes.map(async (lane) => {
				const own = new Checks();
				for (const step of lane) {
					const t = Date.now();
					log(`=== ${step.kind} ${step.version}`);
					try {
						if (step.kind === 'queue') await queueSuite(own, step.version, tarball, o);
						else if (step.kind === 'durable') await durableSuite(own, step.version, tarball, o);
						else await singleSuite(own, step.version, tarball, o);
					} catch (e) {
						own.prefix = `[${step.version}${{ queue: ' queue', durable: ' durable polling', single: '' }[step.kind]}] `;
						own.skip(['suite'], `crashed: ${e.stack || e}`);
					}
					timings.push(`${step.kind} ${step.version} ${((Date.now() - t) / 1000).toFixed(0)}s`);
				}
				return own;
			}),
		);
		for (const own of laneChecks) {
			checks.passed += own.passed;
			checks.failed += own.failed;
		}
		fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
	log(`timings: ${timings.join(', ')}; total ${((Date.now() - t0) / 1000).toFixed(0)}s`);
	process.stdout.write(`${checks.passed} passed, ${checks.failed} failed\n`);
	return checks.failed === 0;
}

main().then(
	(ok) => process.exit(ok ? 0 : 1),
	(e) => {
		process.stderr.write(`${e.stack || e}\n`);
		process.stdout.write('0 passed, 1 failed\n');
		process.exit(1);
	},
);
