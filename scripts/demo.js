#!/usr/bin/env node
'use strict';
/**
 * `npm start`: the Recruiting nodes inside a real n8n, against the local sandbox, ready to click.
 * USAGE below is what `npm start -- --help` prints.
 *
 * What it does (idempotent; re-running reuses n8n's data and updates everything in place):
 *   npm ci if node_modules is missing, n8n + its Node from the cache (scripts/n8n), npm run build,
 *   npm run build:sandbox, npm pack, the sandbox with a realistic seed, n8n with the fresh tarball
 *   installed as a community package (user folder under the cache, outside the repo), the
 *   "Recruiting sandbox" credential (public API), the example workflows wired to it, the trigger
 *   ones published. Prints the editor URL and the login. Ctrl-C (or SIGINT, SIGTERM, SIGHUP to the
 *   npm process) stops everything it started within 5 s.
 */
const fs = require('fs');
const path = require('path');
const os = require('os');
const { spawnSync } = require('child_process');
const util = require('util');

const ROOT = path.resolve(__dirname, '..');
const DEFAULTS = { version: '2.41.1', port: 5678, sandboxPort: 5730, modelPort: 5680 };
/** How long n8n gets to stop gracefully on a signal before its process group is killed. */
const STOP_BOUND_MS = 4000;
/** A realistic seed: a few hundred applications over two dozen jobs. */
const DEMO_SEED = { applications: 400, jobs: 24, candidates: 360, tags: 12, emailTemplates: 6, userCategories: 5, jobNotesPerJob: 3 };
const ACTIVE = ['inbox', 'chat', 'chatPolling', 'hired', 'assistant', 'safetyNet'];
/** The openAiApi credential of the assistant example: the demo's scripted model, no real key. */
const MODEL_CREDENTIAL = { name: 'OpenAI (demo: scripted model)', apiKey: 'sk-demo-scripted-model-no-key-needed' };
/** What `deliver` sends, and to which webhook unless --webhook says otherwise. */
const DELIVERIES = {
	'new-application': { event: 'application.created', webhookId: 'wh_demo' },
	hired: { event: 'application.stage.updated', webhookId: 'wh_hires' },
};

const USAGE = `Usage:
  npm start [-- options]                   the demo: sandbox + a real n8n with these nodes and the examples
  npm start -- deliver <what> [options]    (second terminal) the sandbox sends a signed webhook delivery
  npm start -- apply [--job ID]            (second terminal) a new candidate applies in the sandbox: the
                                           webhook examples post it at once, the polling one at its next
                                           poll (within a minute)
  npm start -- move [--job ID]             an application of the job moves one stage on (Application Stage Changed)
  npm start -- note [--job ID]             a note is added to the job (New Job Note)
  npm start -- feedback                    a reviewer completes a feedback form (Feedback Completed)
                                           These four change the sandbox of the demo or of npm run sandbox
                                           (--sandbox-port N if not ${DEFAULTS.sandboxPort}); --job: the sandbox's first job
                                           by default, which its start-up text and npm start's show

Options of the demo:
  --port N           n8n's port (default ${DEFAULTS.port})
  --sandbox-port N   the sandbox's port (default ${DEFAULTS.sandboxPort})
  --model-port N     the scripted model's port, the assistant example's stand-in for OpenAI (default ${DEFAULTS.modelPort})
  --version V        the n8n version (default ${DEFAULTS.version})

deliver <what>:
  new-application    application.created, to wh_demo (the "new application -> chat" example)
  hired              application.stage.updated to hired, to wh_hires (the "candidate hired" example)
Options of deliver:
  --webhook ID       send it to another webhook, such as wh_try: the webhook no example holds,
                     free for trying the Recruiting Trigger (Webhook ID wh_try, the event selected,
                     "Execute step" to listen for a test event, then deliver)
  --sandbox-port N   where the demo's sandbox runs (default ${DEFAULTS.sandboxPort})

Examples:
  npm start -- deliver new-application --webhook wh_try
  npm start -- deliver hired
  npm start -- move --sandbox-port 5731
`;

/** A failure the user can fix: printed as one line, without a stack trace. */
class DemoError extends Error {}

function parseArgs(argv) {
	let parsed;
	try {
		parsed = util.parseArgs({
			args: argv,
			options: {
				version: { type: 'string' },
				port: { type: 'string' },
				'sandbox-port': { type: 'string' },
				'model-port': { type: 'string' },
				webhook: { type: 'string' },
				job: { type: 'string' },
				help: { type: 'boolean', short: 'h' },
			},
			allowPositionals: true,
			strict: true,
		});
	} catch (e) {
		throw new DemoError(`${e.message} (see npm start -- --help)`);
	}
	const { values, positionals } = parsed;
	const given = (flag) => {
		const value = values[flag];
		if (value === '') throw new DemoError(`--${flag} needs a value (see npm start -- --help)`);
		return value;
	};
	const port = (flag, fallback) => {
		const value = given(flag);
		if (value === undefined) return fallback;
		const n = Number(value);
		if (!Number.isInteger(n) || n < 1 || n > 65535) throw new DemoError(`--${flag} ${value}: not a port number (1-65535)`);
		return n;
	};
	const o = {
		version: given('version') ?? DEFAULTS.version,
		port: port('port', DEFAULTS.port),
		sandboxPort: port('sandbox-port', DEFAULTS.sandboxPort),
		modelPort: port('model-port', DEFAULTS.modelPort),
		webhook: given('webhook'),
		job: given('job'),
		command: 'start',
	};
	const [command, delivery, ...rest] = positionals;
	if (command !== undefined && command !== 'deliver' && !ACTIVITIES[command]) throw new DemoError(`unknown argument ${command} (see npm start -- --help)`);
	if (ACTIVITIES[command] && delivery !== undefined) throw new DemoError(`unknown argument ${delivery} (see npm start -- --help)`);
	if (rest.length) throw new DemoError(`unknown argument ${rest[0]} (see npm start -- --help)`);
	if (ACTIVITIES[command]) o.command = command;
	if (command === 'deliver') {
		o.command = 'deliver';
		o.what = delivery;
	}
	if (values.help) o.command = 'help';
	if (o.command === 'deliver' && !DELIVERIES[o.what]) {
		const what = o.what === undefined ? 'deliver needs what to send' : `deliver ${o.what}: unknown`;
		throw new DemoError(`${what}: ${Object.keys(DELIVERIES).join(' or ')} (e.g. npm start -- deliver new-application --webhook wh_try)`);
	}
	if (o.webhook !== undefined && o.command !== 'deliver') throw new DemoError('--webhook goes with deliver (see npm start -- --help)');
	if (o.job !== undefined && !ACTIVITIES[o.command]?.perJob) throw new DemoError('--job goes with apply, move or note (see npm start -- --help)');
	return o;
}

const say = (msg) => process.stderr.write(`[demo] ${msg}\n`);

/** Step 0, before anything is required from node_modules or build/. */
function ensureDependencies() {
	if (fs.existsSync(path.join(ROOT, 'node_modules', '.package-lock.json'))) return;
	say('node_modules is missing: npm ci (about a minute)');
	// n8n's own libraries, which the tests use, list isolated-vm, which asks for Node 24: on Node 20
	// nothing here builds or loads it (.npmrc: ignore-scripts), so npm's warning is harmless.
	if (Number(process.versions.node.split('.')[0]) < 24) say('an "EBADENGINE ... isolated-vm" warning is expected on Node 20 and harmless');
	const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' });
	if (r.status !== 0) throw new Error(`npm ci exited ${r.status}`);
}

async function portFree(port) {
	const net = require('net');
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

/**
 * A credential upserted by name and type through the public API: a re-run updates, never
 * duplicates. `create()` makes it when there is none (or it cannot be patched).
 */
/**
 * The safety-net example's table in a private PostgreSQL (installed from Debian's packages when
 * missing, as CI does), stopped with the demo, and the "Events database" credential for it; undefined,
 * saying why, when PostgreSQL cannot be had (the example is then imported but not published).
 */
async function eventsDatabase(n8n, upsert) {
	const { ensurePostgres, startPostgres, postgresCredentialData } = require('../test/n8n/queue/queue');
	const { EVENTS_TABLE } = require('./e2e/examples');
	try {
		await ensurePostgres();
		const [port] = await require('./n8n/cache').freePorts(1);
		const postgres = await startPostgres({ port, logFile: path.join(os.tmpdir(), 'recruiting-demo-events-postgres.log') });
		await postgres.createDatabase(EVENTS_TABLE.database);
		await postgres.sql(EVENTS_TABLE.create, EVENTS_TABLE.database);
		const data = postgresCredentialData(postgres, EVENTS_TABLE.database);
		const credential = await upsert(n8n, { name: 'Events database', type: 'postgres', data }, () => n8n.api('POST', '/credentials', { name: 'Events database', type: 'postgres', data }));
		say(`credential "Events database": the safety-net example's table in a private PostgreSQL on port ${port}`);
		return credential;
	} catch (error) {
		say(`warning: no PostgreSQL for the safety-net example (${error.message}); it is imported but not published`);
		return undefined;
	}
}

async function upsertCredential(n8n, { name, type, data }, create) {
	const list = await n8n.api('GET', '/credentials?limit=250', undefined, { raw: true });
	const existing = list.status === 200 ? (list.body.data || []).filter((c) => c.name === name && c.type === type) : [];
	if (existing.length) {
		const [keep, ...dupes] = existing;
		for (const d of dupes) await n8n.api('DELETE', `/credentials/${d.id}`);
		const r = await n8n.api('PATCH', `/credentials/${keep.id}`, { data }, { raw: true });
		if (r.status < 400) return { id: keep.id, name: keep.name, updated: true };
		await n8n.api('DELETE', `/credentials/${keep.id}`);
	}
	return { ...(await create()), updated: false };
}

async function upsertWorkflow(n8n, wf) {
	const found = await n8n.api('GET', `/workflows?name=${encodeURIComponent(wf.name)}&limit=250`);
	const matches = (found.data || []).filter((w) => w.name === wf.name && !w.isArchived);
	if (!matches.length) return { ...(await n8n.api('POST', '/workflows', wf)), created: true };
	const [keep, ...dupes] = matches;
	for (const d of dupes) {
		if (d.active) await n8n.api('POST', `/workflows/${d.id}/deactivate`);
		await n8n.api('DELETE', `/workflows/${d.id}`);
	}
	// Deactivate first: a restart does not re-run the trigger's activation, and the sandbox is new.
	if (keep.active) await n8n.api('POST', `/workflows/${keep.id}/deactivate`);
	return { ...(await n8n.api('PUT', `/workflows/${keep.id}`, wf)), created: false };
}

/**
 * The demo's n8n settings beyond the shared headless ones, chosen so that n8n 2.x prints no
 * deprecation for them: N8N_WEBHOOK_URL instead of WEBHOOK_URL (the same URL, for production and
 * test webhooks), and n8n's default expression engine. The tests keep the legacy engine, which
 * n8n 2.x deprecates: its default engine crashed at exit in some one-shot `n8n execute` runs the
 * e2e suite makes (n8n-headless.md in the shared notes); `n8n start` here makes none. n8n 1.x on
 * Node 20 cannot start with its default engine, so it keeps the legacy one. One warning is left
 * on 2.x: internal task runners, since the external ones need n8n's separate launcher.
 */
function demoEnv(o) {
	const url = `http://127.0.0.1:${o.port}/`;
	const modern = Number(String(o.version).split('.')[0]) >= 2;
	return modern ? { WEBHOOK_URL: null, N8N_WEBHOOK_URL: url, N8N_EXPRESSION_ENGINE: null } : {};
}

async function start(o) {
	const t0 = Date.now();
	// SIGINT, SIGTERM or SIGHUP to `npm start` (package.json execs this script, so npm's forwarded
	// signals reach it), or npm itself going away, stop n8n's process group, the sandbox and the
	// model within 5 s (test/demo/lifecycle.test.ts).
	require('./n8n/cache').stopOnSignals({ boundMs: STOP_BOUND_MS, withParent: true });
	ensureDependencies();
	const { cacheRoot } = require('./n8n/cache');
	const { ensureN8n } = require('./n8n/install');
	const { startN8n, DEFAULT_OWNER } = require('./n8n/instance');
	const lib = require('./e2e/lib');
	const ex = require('./e2e/examples');
	const { startAssistantModel } = require('./e2e/assistantModel');
	const { createModelCredential } = require('./e2e/agentWorkflow');

	for (const [what, port, flag] of [['n8n', o.port, 'port'], ['sandbox', o.sandboxPort, 'sandbox-port'], ['scripted model', o.modelPort, 'model-port']]) {
		if (!(await portFree(port))) {
			throw new DemoError(`port ${port} (${what}) is in use: stop what runs there (another npm start?) or pass --${flag} N`);
		}
	}

	say(`n8n ${o.version} (cached install, first time ~5 min)`);
	await ensureN8n(o.version);
	say('building the nodes and the sandbox');
	await lib.buildAll();
	const { tarball, dir: packDir } = await lib.packPackage();

	const sb = await lib.startSandbox({ port: o.sandboxPort, seed: DEMO_SEED, serviceRetries: true });
	await ex.seedExampleRecords(sb.control);
	say(`sandbox on ${sb.sandbox.url}`);
	const tryThese = await assistantPrompts(sb);
	const model = await startAssistantModel({ port: o.modelPort, hints: ['With the demo\'s data, for example:', ...tryThese.map((p) => `- ${p}`)] });
	say(`scripted model (stand-in for OpenAI, no key) on ${model.url}`);

	const userFolder = path.join(cacheRoot(), 'demo', `n8n-${o.version}`);
	fs.mkdirSync(userFolder, { recursive: true });
	// The fresh tarball replaces whatever an earlier run installed.
	fs.rmSync(path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-recruiting'), { recursive: true, force: true });
	const n8n = await startN8n({ version: o.version, port: o.port, userFolder, communityTarballs: [tarball], env: demoEnv(o) });
	fs.rmSync(packDir, { recursive: true, force: true });

	const credential = await upsertCredential(
		n8n,
		{ name: lib.CREDENTIAL_NAME, type: 'recruitingApi', data: { baseUrl: sb.sandbox.url, companyId: sb.sandbox.companyId, accessToken: sb.sandbox.token } },
		() => lib.createCredential(n8n, sb.sandbox),
	);
	say(`credential "${credential.name}" ${credential.updated ? 'updated' : 'created'} (${credential.id})`);
	const modelCredential = await upsertCredential(
		n8n,
		{ name: MODEL_CREDENTIAL.name, type: 'openAiApi', data: { apiKey: MODEL_CREDENTIAL.apiKey, url: model.url, header: false } },
		() => createModelCredential(n8n, model.url, MODEL_CREDENTIAL),
	);
	say(`credential "${modelCredential.name}" ${modelCredential.updated ? 'updated' : 'created'}: Base URL ${model.url}`);
	const eventsCredential = await eventsDatabase(n8n, upsertCredential);

	const inboxWf = ex.fillExample('inbox');
	const chatUrl = ex.webhookUrlOf(inboxWf, n8n.webhookUrl);
	const ids = {};
	const { jobIds } = await (await fetch(`${sb.sandbox.url}/__sandbox/info`)).json();
	for (const key of ['inbox', 'chat', 'chatPolling', 'hired', 'export', 'assistant', 'safetyNet']) {
		const wf = ex.fillExample(key, { credential, chatUrl, modelCredential, eventsCredential, publicChat: true, jobId: jobIds[0] });
		const saved = await upsertWorkflow(n8n, wf);
		ids[key] = saved.id;
		say(`workflow "${wf.name}" ${saved.created ? 'imported' : 'updated'} (${saved.id})`);
	}
	for (const key of ACTIVE.filter((k) => k !== 'safetyNet' || eventsCredential)) await n8n.api('POST', `/workflows/${ids[key]}/activate`);
	// The trigger points the sandbox's webhooks at n8n a moment after activation.
	await lib.waitFor('the triggers to take over wh_demo and wh_hires', async () => {
		const [a, b] = await Promise.all([sb.control.record('webhooks', 'wh_demo'), sb.control.record('webhooks', 'wh_hires')]);
		return a.endpoint.startsWith(n8n.webhookUrl) && b.endpoint.startsWith(n8n.webhookUrl);
	}).catch((e) => say(`warning: ${e.message}`));

	// The sandbox's own start-up lines for the polling trigger's events (sandbox/cli.ts).
	const { eventCommands } = require(path.join(ROOT, 'build', 'sandbox', 'sandbox', 'cli.js'));
	process.stdout.write(
		readyText({
			seconds: (Date.now() - t0) / 1000,
			editor: `http://127.0.0.1:${o.port}`,
			owner: DEFAULT_OWNER,
			sandbox: sb.sandbox,
			credentialName: credential.name,
			ids,
			modelUrl: model.url,
			chatPage: ex.chatUrlOf(ex.readExample('assistant'), n8n.webhookUrl),
			tryThese,
			tryWebhookId: ex.TRY_WEBHOOK_ID,
			jobIds,
			eventLines: eventCommands(sb.sandbox.url, jobIds),
			userFolder,
			logFile: n8n.logFile,
		}),
	);

	// Runs until Ctrl-C: scripts/n8n's signal hooks stop n8n gracefully; the sandbox and the model are in-process.
	n8n.proc.exitPromise.then((r) => {
		say(`n8n exited (${r.code ?? r.signal})`);
		process.exit(r.code === 0 ? 0 : 1);
	});
}

/**
 * What the demo prints once everything runs (test/demo/readyText.test.ts): where to click, what
 * each example is, and the commands of a second terminal.
 */
function readyText(v) {
	const { editor, ids } = v;
	const port = new URL(v.sandbox.url).port;
	const portFlag = port === String(DEFAULTS.sandboxPort) ? '' : ` --sandbox-port ${port}`;
	return [
		'',
		`Ready in ${v.seconds.toFixed(0)}s.`,
		'',
		`  n8n editor:  ${editor}/home/workflows`,
		`  login:       ${v.owner.email}  /  ${v.owner.password}`,
		`  sandbox:     ${v.sandbox.url}  (company ${v.sandbox.companyId}, token ${v.sandbox.token}; control API ${v.sandbox.url}/__sandbox/info)`,
		`  credential:  "${v.credentialName}"`,
		'  workflows:',
		`    ${editor}/workflow/${ids.chat}   new application -> chat message (published)`,
		`    ${editor}/workflow/${ids.chatPolling}   new application -> chat message, by polling: the Recruiting Polling Trigger`,
		'      checks the sandbox every minute (published); npm start -- apply makes an application for it',
		`    ${editor}/workflow/${ids.hired}   candidate hired -> tag + welcome e-mail draft (published)`,
		`    ${editor}/workflow/${ids.safetyNet}   every event once, instant with a safety net: the webhook, and a poll every`,
		'      15 minutes for what it missed while n8n was away; each key claimed in a private PostgreSQL (published)',
		`    ${editor}/workflow/${ids.export}   nightly applications export (CSV): open it and click "Execute workflow"`,
		`    ${editor}/workflow/${ids.inbox}   demo chat inbox: the messages of the chat examples land here`,
		`    ${editor}/workflow/${ids.assistant}   Recruiting assistant: click "Open chat" (bottom) and type; its model is`,
		`      the demo's scripted stand-in on ${v.modelUrl} (no key; README: switching to a real model)`,
		`      chat page: ${v.chatPage} (loads n8n's chat widget from cdn.jsdelivr.net)`,
		'',
		'  Ask the assistant, for example:',
		...v.tryThese.map((p) => `    ${p}`),
		'',
		'  Try it (in another terminal):',
		...[
			['deliver new-application', 'then see Executions of the chat + inbox workflows'],
			['deliver hired', "then see the hired workflow and the candidate's tags"],
			['apply', 'a candidate applies: the webhook examples post it at once, the polling one within a minute'],
			['', '(Executions of the polling workflow + inbox)'],
		].map(([args, what]) => `    ${(args && `npm start -- ${args}${portFlag}`).padEnd(36 + portFlag.length)}   # ${what}`),
		'',
		'  Try the Polling Trigger yourself: add one to a new workflow with the credential, an Event and, for stage',
		`  changes and job notes, Job IDs ${v.jobIds.join(', ')}; publish it (its first poll notes where the sandbox`,
		'  stands), then make the event, which its next poll reports:',
		...v.eventLines,
		'',
		`  Try the trigger yourself: webhook ${v.tryWebhookId} is free (no example holds it). Add a Recruiting Trigger`,
		`  with Webhook ID ${v.tryWebhookId} and the event application.created, click "Execute step" (it listens for a test event), then:`,
		`    npm start -- deliver new-application --webhook ${v.tryWebhookId}${portFlag}`,
		'',
		`  n8n data: ${v.userFolder}  (log ${v.logFile})`,
		'Press Ctrl-C to stop n8n and the sandbox.',
		'',
	].join('\n');
}

/**
 * Prompts the assistant's scripted model understands, with IDs from this sandbox: a job with
 * applications at the "screening" stage, one of them, its candidate, a tag they lack.
 */
async function assistantPrompts(sb) {
	const apps = sb.seeded.values('applications');
	const counts = new Map();
	for (const a of apps) if (a.stage.parent_stage === 'screening') counts.set(a.job.id, (counts.get(a.job.id) || 0) + 1);
	const [jobId] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] || [apps[0].job.id];
	const app = apps.find((a) => a.job.id === jobId && a.stage.parent_stage === 'screening') || apps[0];
	// A user whose first name no other user shares, so "with <name>" picks exactly them.
	const users = sb.seeded.values('users');
	const firstNames = users.map((u) => String(u.first_name || ''));
	const interviewer = users.find((u, i) => /^[A-Z][\w'-]+$/.test(firstNames[i]) && firstNames.filter((n) => n === firstNames[i]).length === 1);
	return [
		`find applications for job ${jobId} at screening`,
		`show application ${app.id}`,
		`tag ${app.candidate.id} as Hired`,
		`schedule an interview for ${app.id} on 2030-05-06 14:00 Europe/Dublin${interviewer ? ` with ${interviewer.first_name}` : ''}`,
	];
}

/** `deliver new-application|hired [--webhook ID]`: a signed delivery from the running sandbox. */
async function deliver(o) {
	const base = `http://127.0.0.1:${o.sandboxPort}`;
	const { event, webhookId: exampleWebhook } = DELIVERIES[o.what];
	const webhookId = o.webhook ?? exampleWebhook;
	const get = async (p, { allow404 = false } = {}) => {
		let res;
		try {
			res = await fetch(`${base}/v1.0/cmp_demo${p}`, { headers: { authorization: 'Bearer sandbox-token' } });
		} catch {
			throw new DemoError(`no sandbox on ${base}: start the demo first (npm start), or pass its --sandbox-port`);
		}
		if (allow404 && res.status === 404) return undefined;
		if (!res.ok) throw new DemoError(`GET ${p} -> ${res.status}: is the demo running (npm start)?`);
		return res.json();
	};
	const webhook = (await get(`/webhooks/${encodeURIComponent(webhookId)}`, { allow404: true }))?.data;
	if (!webhook) throw new DemoError(`the sandbox has no webhook ${webhookId} (the demo has wh_demo, wh_hires, ${require('./e2e/examples').TRY_WEBHOOK_ID} and the disabled wh_second)`);
	// What would make the delivery start nothing: said before sending, as one line each.
	const onN8n = /\/webhook(-test)?\//.test(webhook.endpoint);
	if (!onN8n) {
		say(`note: ${webhookId} points at ${webhook.endpoint}, not at n8n: no workflow will receive this. Click "Execute step" (listen for a test event) on a Recruiting Trigger with Webhook ID ${webhookId}, or publish its workflow, first.`);
	} else if (!(webhook.subscribed_events || []).includes(event)) {
		say(`note: ${webhookId} is subscribed to ${(webhook.subscribed_events || []).join(', ') || 'no events'}, not ${event}: select ${event} in the trigger's Events, or it answers 200 and starts nothing.`);
	}
	const apps = (await get('/applications?page_size=100&sort=-applied_at')).items;
	const app = apps[Math.floor(Math.random() * apps.length)];
	const object =
		o.what === 'hired'
			? { ...app, stage: { parent_stage: 'hired', custom_stage: { ...app.stage.custom_stage, name: 'Hired' } } }
			: app;
	const body = { webhookId, event, object };
	const res = await fetch(`${base}/__sandbox/deliver`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const record = await res.json();
	if (!res.ok) throw new DemoError(`the sandbox refused the delivery: ${JSON.stringify(record)}`);
	process.stdout.write(
		`${event} for ${app.candidate.full_name} (${app.job.title}) -> ${webhookId} at ${record.endpoint}: ${record.status ?? record.error}\n`,
	);
	if (record.status !== 200) process.exitCode = 1;
}

/**
 * `apply`, `move`, `note`, `feedback`: something happens in the running sandbox (the demo's or
 * `npm run sandbox`'s), through its control API, for the polling trigger to find at its next poll.
 * Each names the trigger's event, and what it did.
 */
const ACTIVITIES = {
	apply: {
		perJob: true,
		request: (job) => ['/applications', { jobId: job }],
		done: (app) => `${app.candidate.full_name} applied to ${app.job.title} (${app.id}, job ${app.job.id}): New Application; the webhook examples post it at once, the polling example at its next poll, within a minute`,
	},
	move: {
		perJob: true,
		request: (job) => [`/jobs/${encodeURIComponent(job)}/stage-moves`, {}],
		done: (app) => `${app.candidate.full_name}'s application ${app.id} (${app.job.title}, job ${app.job.id}) moved to ${app.stage.parent_stage}: Application Stage Changed, for a trigger whose Job IDs hold ${app.job.id}`,
	},
	note: {
		perJob: true,
		request: (job) => [`/jobs/${encodeURIComponent(job)}/notes`, { text: `A note from npm start -- note at ${new Date().toISOString()}` }],
		done: (note, job) => `note ${note.id} added to job ${job}: New Job Note, for a trigger whose Job IDs hold ${job}`,
	},
	feedback: {
		perJob: false,
		request: () => ['/feedback', {}],
		done: (fb) => `feedback ${fb.id} (${fb.name}) completed for ${fb.candidate.name}, application ${fb.application_id}: Feedback Completed`,
	},
};

async function activityCommand(o) {
	const base = `http://127.0.0.1:${o.sandboxPort}`;
	const call = async (p, body) => {
		let res;
		try {
			res = await fetch(`${base}/__sandbox${p}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		} catch {
			throw new DemoError(`no sandbox on ${base}: start the demo (npm start) or the sandbox (npm run sandbox) first, or pass its --sandbox-port`);
		}
		const answer = await res.json().catch(() => ({}));
		if (res.status === 404 && answer.status === undefined) throw new DemoError(`${base} is not the sandbox (no ${p}): pass the sandbox's --sandbox-port`);
		if (!res.ok) throw new DemoError(`the sandbox refused: ${answer.detail || answer.title || JSON.stringify(answer)}${answer.errors ? ` ${JSON.stringify(answer.errors)}` : ''}`);
		return answer;
	};
	const activity = ACTIVITIES[o.command];
	const job = o.job ?? (activity.perJob ? (await call('/info')).jobIds?.[0] : undefined);
	const [p, body] = activity.request(job);
	process.stdout.write(`${activity.done((await call(p, body)).data, job)}\n`);
}

/** Expected failures (a busy port, a wrong argument) as one line; anything else with its stack. */
function fail(e) {
	process.stderr.write(`[demo] ${e instanceof DemoError ? e.message : `failed: ${e.stack || e}`}\n`);
	process.exit(1);
}

if (require.main === module) {
	let o;
	try {
		o = parseArgs(process.argv.slice(2));
	} catch (e) {
		fail(e);
	}
	if (o.command === 'help') process.stdout.write(USAGE);
	else (o.command === 'deliver' ? deliver : ACTIVITIES[o.command] ? activityCommand : start)(o).catch(fail);
}

module.exports = { parseArgs, readyText, USAGE, DemoError };
