'use strict';
/**
 * Start and drive a real n8n (from the cache, see install.js).
 *
 *   const { startN8n } = require('./instance');
 *   const n8n = await startN8n({ version: '2.41.1', userFolder: '/tmp/x' });
 *   await n8n.api('GET', '/workflows');          // public API, X-N8N-API-KEY
 *   await n8n.rest('GET', '/settings');          // internal /rest, owner cookie
 *   await n8n.cli(['list:workflow']);            // `n8n list:workflow`, same env
 *   await n8n.stop();
 *
 * Lower-level pieces (headlessEnv, spawnN8nProcess, createOwnerAndApiKey,
 * makeCli, makeHttp) are exported for queue mode (test/n8n/queue/queue.js).
 *
 * As a command, starts one instance and keeps it running until Ctrl-C (for demos/debugging):
 *   node scripts/n8n/instance.js [--version V] [--port P] [--user-folder DIR]
 *        [--tarball file.tgz ...] [--custom-extensions DIR]
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { createRequire } = require('module');
const { ensureN8n, NPM_CLI, npmEnv, majorOf, DEFAULT_VERSION } = require('./install');
const { log, sleep, freePort, freePorts, run, runOk, trackChild, markGraceful, secondsSince } = require('./cache');
const { parseCliArgs } = require('../cliArgs');

const DEFAULT_OWNER = Object.freeze({
	email: 'owner@n8n-nodes-recruiting.test',
	// Meets n8n's password rules (8+ chars, a digit, an uppercase letter).
	password: 'Recruiting-Owner-1',
	firstName: 'E2E',
	lastName: 'Owner',
});

// Prefixes of variables that would change n8n's behaviour if inherited from the
// caller's environment (e.g. a developer's own n8n settings, jest's NODE_OPTIONS).
const STRIPPED_ENV = [/^N8N_(?!NODES_RECRUITING_CACHE$)/, /^DB_/, /^QUEUE_/, /^EXECUTIONS_/, /^WEBHOOK_URL$/, /^NODE_OPTIONS$/];

class HttpError extends Error {
	constructor(method, url, status, body) {
		super(`${method} ${url} -> ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`.slice(0, 2000));
		this.status = status;
		this.body = body;
	}
}

/**
 * Environment for a headless n8n (see n8n-headless.md "Headless settings").
 * `overrides` wins; a value of null/undefined removes the variable.
 */
function headlessEnv({ install, userFolder, port, brokerPort, webhookUrl, customExtensions, overrides = {} }) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!STRIPPED_ENV.some((re) => re.test(k))) env[k] = v;
	// n8n spawns its JS task runner as plain `node` from PATH: put n8n's own Node
	// first, or 2.x's runner would run on the system Node 20.
	if (install) env.PATH = `${path.dirname(install.nodeBin)}${path.delimiter}${env.PATH || ''}`;
	Object.assign(env, {
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: webhookUrl || `http://127.0.0.1:${port}/`,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_EXPRESSION_ENGINE: 'legacy',
		DB_TYPE: 'sqlite',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LOG_OUTPUT: 'console',
		// Today's defaults, set explicitly: n8n 2.x warns at start-up that they will change.
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_TASK_TIMEOUT: '300',
		N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES: String(2 * 1024 ** 3),
		N8N_COMPRESSION_NODE_MAX_ZIP_ENTRIES: '5000',
	});
	// An empty N8N_CUSTOM_EXTENSIONS makes n8n scan the cwd, so only set it when given.
	if (customExtensions && [].concat(customExtensions).length) {
		env.N8N_CUSTOM_EXTENSIONS = [].concat(customExtensions).map((p) => path.resolve(p)).join(';');
	}
	for (const [k, v] of Object.entries(overrides)) {
		if (v === undefined || v === null) delete env[k];
		else env[k] = String(v);
	}
	return env;
}

/**
 * `npm i <tarballs>` into <userFolder>/.n8n/nodes, the way n8n installs
 * community packages, so node types are `<package>.<node>`. Uses n8n's Node;
 * peers (n8n-workflow) are not installed: n8n resolves them from its own
 * node_modules. No package-lock is written there.
 */
async function installCommunityTarballs(install, userFolder, tarballs) {
	if (!tarballs || !tarballs.length) return;
	const start = Date.now();
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const pkgJson = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(pkgJson)) {
		fs.writeFileSync(pkgJson, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	}
	const files = tarballs.map((t) => path.resolve(t));
	for (const f of files) if (!fs.existsSync(f)) throw new Error(`community tarball not found: ${f}`);
	await runOk(
		install.nodeBin,
		[NPM_CLI, 'i', ...files, '--ignore-scripts', '--no-package-lock', '--legacy-peer-deps', '--no-audit', '--no-fund', '--bin-links=false'],
		{ cwd: nodesDir, env: npmEnv(install.nodeBin, install.nodedir) },
	);
	log('instance', `installed ${files.length} community tarball(s) into ${nodesDir} in ${secondsSince(start)}s`);
}

/** bcrypt hash with the bcryptjs that ships inside the n8n install. */
/**
 * n8n 2.x creates the owner from these variables at start-up; 1.x has no such variables and is
 * set up through its REST API instead (see createOwnerAndApiKey).
 */
function ownerEnvOf(install, version, owner) {
	if (majorOf(version) < 2) return {};
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: owner.email,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcryptHash(install, owner.password),
		N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
	};
}

function bcryptHash(install, password) {
	const req = createRequire(path.join(install.nodeModules, 'n8n', 'package.json'));
	const bcrypt = req('bcryptjs');
	return bcrypt.hashSync(password, 10);
}

function tailFile(file, lines = 60) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/**
 * Spawn one long-running n8n process (`start`, `worker`, `webhook`), output
 * appended to logFile. `readyUrl` is polled until it answers 200.
 * Returns { child, ready: Promise<ms>, stop(), logFile }.
 */
function spawnN8nProcess({ install, command = 'start', args = [], env, cwd, logFile, readyUrls, readyTimeoutMs = 180000, name = command }) {
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	const fd = fs.openSync(logFile, 'a');
	fs.writeSync(fd, `\n===== ${new Date().toISOString()} n8n ${command} ${args.join(' ')} =====\n`);
	const t0 = Date.now();
	// detached => own process group, so stop()/exit cleanup also reaches the
	// task-runner processes n8n forks.
	const child = spawn(install.nodeBin, [install.n8nBin, command, ...args], {
		cwd,
		env,
		stdio: ['ignore', fd, fd],
		detached: true,
	});
	fs.closeSync(fd);
	trackChild(child, { group: true });
	let exited = null;
	const exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			resolve(exited);
		}),
	);

	const ready = (async () => {
		for (const url of readyUrls) {
			for (;;) {
				if (exited) throw new Error(`n8n ${name} exited (${exited.code ?? exited.signal}) before ready; log ${logFile}:\n${tailFile(logFile)}`);
				if (Date.now() - t0 > readyTimeoutMs) throw new Error(`n8n ${name} not ready after ${readyTimeoutMs} ms; log ${logFile}:\n${tailFile(logFile)}`);
				try {
					const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
					const body = await res.text();
					// While booting, n8n answers every path with 200 text/html
					// "n8n is starting up. Please wait": require JSON from /rest.
					const json = /json/.test(res.headers.get('content-type') || '');
					if (res.status === 200 && (json || !url.includes('/rest/')) && !body.includes('is starting up')) break;
				} catch {
					/* not listening yet */
				}
				await sleep(200);
			}
		}
		markGraceful(child); // from now on a Ctrl-C of the parent may SIGTERM it
		return Date.now() - t0;
	})();
	ready.catch(() => {}); // observed by callers; avoid unhandled-rejection noise

	let stopping = null;
	/**
	 * SIGTERM only once ready (n8n mishandles a SIGTERM during startup), wait
	 * for exit, SIGKILL the group after `timeoutMs`. `force`: SIGKILL at once.
	 * Idempotent.
	 */
	function stop({ timeoutMs = 20000, force = false } = {}) {
		if (stopping) return stopping;
		stopping = (async () => {
			if (force && !exited) {
				// Failure paths: no graceful shutdown needed, and the process may be hung.
				killGroup(child.pid, 'SIGKILL');
				await exitPromise;
			}
			if (!exited) {
				await Promise.race([ready.catch(() => {}), exitPromise]);
			}
			if (!exited) {
				child.kill('SIGTERM');
				const timer = setTimeout(() => {
					log('instance', `n8n ${name} did not exit ${timeoutMs} ms after SIGTERM: SIGKILL`);
					killGroup(child.pid, 'SIGKILL');
				}, timeoutMs);
				await exitPromise;
				clearTimeout(timer);
			}
			killGroup(child.pid, 'SIGKILL'); // sweep task runners left in the group
			return exited;
		})();
		return stopping;
	}

	return { child, ready, stop, exited: () => exited, exitPromise, logFile, startedAt: t0 };
}

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		/* group already gone */
	}
}

/** fetch helpers bound to a base URL. */
function makeHttp(baseUrl) {
	async function request(method, url, { body, headers = {}, raw = false } = {}) {
		const init = { method, headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(60000) };
		if (body !== undefined) {
			init.body = typeof body === 'string' ? body : JSON.stringify(body);
			init.headers['content-type'] = init.headers['content-type'] || 'application/json';
		}
		const res = await fetch(url.startsWith('http') ? url : baseUrl + url, init);
		const text = await res.text();
		let parsed = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			/* not JSON */
		}
		if (raw) return { status: res.status, headers: res.headers, body: parsed };
		if (res.status >= 400) throw new HttpError(method, url, res.status, parsed);
		return { status: res.status, headers: res.headers, body: parsed };
	}
	return request;
}

/**
 * Log in as owner (creating it on 1.x), create an API key, and return
 * bound `rest` and `api` functions.
 */
async function createOwnerAndApiKey({ baseUrl, version, owner }) {
	const request = makeHttp(baseUrl);
	const browserId = 'n8n-nodes-recruiting-e2e';
	let cookie = '';

	if (majorOf(version) < 2) {
		// 1.x: unauthenticated setup works once on a fresh instance; a reused
		// userFolder already has the owner (400) and we just log in.
		const r = await request('POST', '/rest/owner/setup', {
			body: { email: owner.email, password: owner.password, firstName: owner.firstName, lastName: owner.lastName },
			raw: true,
		});
		if (r.status >= 400 && r.status !== 400) throw new HttpError('POST', '/rest/owner/setup', r.status, r.body);
	}

	// Login DTO is {emailOrLdapLoginId, password} on recent versions, {email, password} on older ones.
	let login = await request('POST', '/rest/login', {
		body: { emailOrLdapLoginId: owner.email, password: owner.password },
		headers: { 'browser-id': browserId },
		raw: true,
	});
	if (login.status === 400) {
		login = await request('POST', '/rest/login', { body: { email: owner.email, password: owner.password }, headers: { 'browser-id': browserId }, raw: true });
	}
	if (login.status !== 200) throw new HttpError('POST', '/rest/login', login.status, login.body);
	const setCookies = login.headers.getSetCookie ? login.headers.getSetCookie() : [login.headers.get('set-cookie')];
	const auth = setCookies.find((c) => c && c.startsWith('n8n-auth='));
	if (!auth) throw new Error('login returned no n8n-auth cookie');
	cookie = auth.split(';')[0];

	/** internal REST (/rest) as the owner; returns the `data` payload n8n wraps responses in. */
	async function rest(method, p, body, opts = {}) {
		const r = await request(method, `/rest${p.startsWith('/') ? p : '/' + p}`, {
			body,
			headers: { cookie, 'browser-id': browserId, ...(opts.headers || {}) },
			raw: opts.raw,
		});
		if (opts.raw) return r;
		return r.body && typeof r.body === 'object' && 'data' in r.body ? r.body.data : r.body;
	}

	let scopes;
	try {
		scopes = await rest('GET', '/api-keys/scopes');
	} catch (e) {
		if (!(e instanceof HttpError) || e.status !== 404) throw e;
	}
	const keyBody = { label: `e2e-${Date.now()}-${process.pid}`, expiresAt: null };
	if (Array.isArray(scopes)) keyBody.scopes = scopes;
	const created = await rest('POST', '/api-keys', keyBody);
	const apiKey = created.rawApiKey || created.apiKey;
	if (!apiKey) throw new Error(`no API key in ${JSON.stringify(created)}`);

	/** public API (/api/v1) with X-N8N-API-KEY; returns the parsed body. */
	async function api(method, p, body, opts = {}) {
		const r = await request(method, `/api/v1${p.startsWith('/') ? p : '/' + p}`, {
			body,
			headers: { 'X-N8N-API-KEY': apiKey, ...(opts.headers || {}) },
			raw: opts.raw,
		});
		return opts.raw ? r : r.body;
	}
	return { apiKey, cookie, rest, api };
}

/**
 * `n8n <args>` runner sharing the instance env. Each call gets its own free
 * N8N_RUNNERS_BROKER_PORT (and N8N_PORT), since commands like `execute` start
 * a task broker and would otherwise clash with a running server.
 */
function makeCli({ install, env, cwd, version }) {
	async function cli(args, { input, timeoutMs = 180000, env: extra = {} } = {}) {
		const [broker, port] = await freePorts(2);
		const e = { ...env, N8N_RUNNERS_BROKER_PORT: String(broker), ...extra };
		// N8N_PORT only matters for commands that listen; keep WEBHOOK_URL as is.
		if (!extra.N8N_PORT) e.N8N_PORT = String(port);
		return run(install.nodeBin, [install.n8nBin, ...args], { cwd, env: e, input, timeoutMs });
	}
	async function cliOk(args, opts) {
		const r = await cli(args, opts);
		if (r.code !== 0) throw new Error(`n8n ${args.join(' ')} exited ${r.code ?? r.signal}\n${(r.stdout + r.stderr).slice(-4000)}`);
		return r;
	}
	/** import:workflow from an object (needs an `id` of <= 21 chars); returns the id. */
	async function importWorkflow(workflow) {
		if (!workflow.id) throw new Error('importWorkflow: workflow.id is required (<= 21 chars)');
		const file = path.join(os.tmpdir(), `n8n-wf-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
		fs.writeFileSync(file, JSON.stringify(workflow));
		try {
			await cliOk(['import:workflow', `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true });
		}
		return workflow.id;
	}
	/** `n8n execute --id --rawOutput`; returns the parsed run data (log lines before the JSON are cut). */
	async function executeWorkflow(id) {
		const r = await cli(['execute', `--id=${id}`, '--rawOutput']);
		const lines = r.stdout.split('\n');
		const first = lines.findIndex((l) => l.startsWith('{'));
		if (r.code !== 0 || first < 0) {
			throw new Error(`n8n execute --id=${id} exited ${r.code ?? r.signal}\n${(r.stdout + r.stderr).slice(-4000)}`);
		}
		return JSON.parse(lines.slice(first).join('\n'));
	}
	/** Mark a workflow active without a running server (takes effect at next start). */
	async function activateOffline(id) {
		if (majorOf(version) >= 2) return cliOk(['publish:workflow', `--id=${id}`]);
		return cliOk(['update:workflow', `--id=${id}`, '--active=true']);
	}
	return { cli, cliOk, importWorkflow, executeWorkflow, activateOffline };
}

/**
 * Start a single-process n8n (sqlite) and return its driver.
 *
 * @param {object} o
 * @param {string} [o.version='2.41.1']
 * @param {string} [o.userFolder]       data dir (n8n uses <userFolder>/.n8n); temp dir if omitted
 * @param {number} [o.port]             free port if omitted
 * @param {object} [o.env]              extra env; null/undefined value removes a variable
 * @param {string|string[]} [o.customExtensions]  N8N_CUSTOM_EXTENSIONS (node types CUSTOM.<node>)
 * @param {string[]} [o.communityTarballs]        npm-packed tarballs (node types <package>.<node>)
 * @param {string} [o.logFile]          default <userFolder>/n8n.log
 * @param {object} [o.owner]            {email,password,firstName,lastName}
 * @param {boolean} [o.start=true]      false: prepare (install, env, CLI) without starting the server
 */
async function startN8n(o = {}) {
	const version = o.version || DEFAULT_VERSION;
	const install = await ensureN8n(version);
	const userFolder = path.resolve(o.userFolder || fs.mkdtempSync(path.join(os.tmpdir(), `n8n-${version}-`)));
	fs.mkdirSync(userFolder, { recursive: true });
	const logFile = path.resolve(o.logFile || path.join(userFolder, 'n8n.log'));
	const port = o.port || (await freePort());
	const brokerPort = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const owner = { ...DEFAULT_OWNER, ...(o.owner || {}) };

	const ownerEnv = ownerEnvOf(install, version, owner);
	const env = headlessEnv({
		install,
		userFolder,
		port,
		brokerPort,
		webhookUrl: o.webhookUrl,
		customExtensions: o.customExtensions,
		overrides: { ...ownerEnv, ...(o.env || {}) },
	});

	await installCommunityTarballs(install, userFolder, o.communityTarballs);

	const cliHelpers = makeCli({ install, env, cwd: userFolder, version });
	const inst = {
		version,
		url,
		port,
		userFolder,
		logFile,
		env,
		install,
		owner: { email: owner.email, password: owner.password },
		apiKey: null,
		// N8N_WEBHOOK_URL (2.x) when the caller replaced WEBHOOK_URL with it, as the demo does.
		webhookUrl: (env.WEBHOOK_URL || env.N8N_WEBHOOK_URL || `${url}/`).replace(/\/$/, ''),
		...cliHelpers,
		api: () => Promise.reject(new Error('n8n not started')),
		rest: () => Promise.reject(new Error('n8n not started')),
		proc: null,
		readyMs: null,
		/** Start (or restart after stop()) the server; resolves when ready and authenticated. */
		async start() {
			if (inst.proc && !inst.proc.exited()) throw new Error('already running');
			log('instance', `starting n8n ${version} on ${url} (userFolder ${userFolder}, log ${logFile})`);
			inst.proc = spawnN8nProcess({
				install,
				command: 'start',
				env,
				cwd: userFolder,
				logFile,
				readyUrls: [`${url}/healthz`, `${url}/rest/settings`],
				name: `start:${port}`,
			});
			try {
				inst.readyMs = await inst.proc.ready;
				const t = Date.now();
				const auth = await createOwnerAndApiKey({ baseUrl: url, version, owner });
				Object.assign(inst, { apiKey: auth.apiKey, api: auth.api, rest: auth.rest });
				log('instance', `n8n ${version} ready in ${(inst.readyMs / 1000).toFixed(1)}s (+${secondsSince(t)}s owner/API key)`);
			} catch (e) {
				await inst.proc.stop({ force: true }).catch(() => {});
				throw e;
			}
			return inst;
		},
		/** Stop the server (SIGTERM after ready, SIGKILL after a bound). CLI keeps working. */
		async stop(opts) {
			if (!inst.proc) return null;
			const r = await inst.proc.stop(opts);
			return r;
		},
		async restart() {
			await inst.stop();
			return inst.start();
		},
	};
	if (o.start !== false) await inst.start();
	return inst;
}

module.exports = {
	startN8n,
	headlessEnv,
	spawnN8nProcess,
	createOwnerAndApiKey,
	installCommunityTarballs,
	bcryptHash,
	ownerEnvOf,
	makeCli,
	makeHttp,
	HttpError,
	DEFAULT_OWNER,
	tailFile,
};

if (require.main === module) {
	let o;
	try {
		const values = parseCliArgs(__filename, {
			version: { type: 'string' },
			port: { type: 'string' },
			'user-folder': { type: 'string' },
			tarball: { type: 'string', multiple: true, default: [] },
			'custom-extensions': { type: 'string' },
		});
		o = {
			version: values.version,
			port: values.port === undefined ? undefined : Number(values.port),
			userFolder: values['user-folder'],
			communityTarballs: values.tarball,
			customExtensions: values['custom-extensions'],
		};
	} catch (e) {
		process.stderr.write(`${e.message}\n`);
		process.exit(2);
	}
	startN8n(o)
		.then((n) => {
			process.stdout.write(
				JSON.stringify({ url: n.url, apiKey: n.apiKey, owner: n.owner, userFolder: n.userFolder, logFile: n.logFile }, null, 2) + '\n',
			);
			log('instance', 'running; Ctrl-C to stop');
			n.proc.exitPromise.then((r) => {
				log('instance', `n8n exited (${r.code ?? r.signal})`);
				process.exit(r.code === 0 ? 0 : 1);
			});
		})
		.catch((e) => {
			process.stderr.write(`${e.stack || e}\n`);
			process.exit(1);
		});
}
