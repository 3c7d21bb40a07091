'use strict';
/**
 * n8n in queue mode on one machine: Redis + a private PostgreSQL cluster +
 * `n8n start` (main), `n8n worker`, `n8n webhook` as separate processes.
 *
 *   const { startQueueStack } = require('./queue');
 *   const stack = await startQueueStack({ version: '2.41.1' });
 *   // same driver as startN8n (api, rest, cli, ...) plus stack.webhookUrl,
 *   // which points at the webhook process; executions run on the worker.
 *   await stack.stop();   // stops webhook, worker, main, redis, postgres
 *
 * `webhookProcesses: 2` starts two `n8n webhook` processes behind a round-robin proxy
 * (roundRobinProxy.js): stack.webhookUrl is then the proxy (n8n's WEBHOOK_URL), and
 * stack.webhookUrls the processes themselves.
 *
 * Installs redis-server / postgresql with apt-get when missing (needs root).
 */
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const crypto = require('crypto');
const { execFileSync, spawn } = require('child_process');
const { log, sleep, freePorts, run, runOk, trackChild, markGraceful, onExit, secondsSince } = require('../../../scripts/n8n/cache');
const { ensureN8n, majorOf, DEFAULT_VERSION } = require('../../../scripts/n8n/install');
const { startRoundRobinProxy } = require('./roundRobinProxy');
const {
	headlessEnv,
	spawnN8nProcess,
	createOwnerAndApiKey,
	installCommunityTarballs,
	ownerEnvOf,
	makeCli,
	DEFAULT_OWNER,
} = require('../../../scripts/n8n/instance');

function which(bin) {
	for (const dir of (process.env.PATH || '').split(path.delimiter)) {
		const p = path.join(dir, bin);
		try {
			fs.accessSync(p, fs.constants.X_OK);
			return p;
		} catch {
			/* next */
		}
	}
	return null;
}

/**
 * apt-get's options for an unattended install: wait up to 10 minutes for the dpkg lock (another
 * apt, unattended-upgrades, a parallel CI job) instead of failing at once, retry downloads, and
 * keep a changed config file without asking.
 */
const APT_OPTIONS = ['-o', 'DPkg::Lock::Timeout=600', '-o', 'Acquire::Retries=3', '-o', 'Dpkg::Options::=--force-confold'];
let aptUpdated = false;
/** One apt-get at a time in this process: Redis and PostgreSQL are ensured in parallel. */
let aptQueue = Promise.resolve();

/**
 * apt-get install, with one `apt-get update` per process before the first install (tried three
 * times: a mirror can fail for a moment). Calls made together run one after the other.
 */
function aptInstall(pkgs) {
	const next = aptQueue.then(() => aptInstallNow(pkgs));
	aptQueue = next.catch(() => {});
	return next;
}

async function aptInstallNow(pkgs) {
	if (process.getuid && process.getuid() !== 0) throw new Error(`${pkgs.join(', ')} missing and not root: install them first`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	for (let attempt = 1; !aptUpdated; attempt++) {
		const t = Date.now();
		try {
			await runOk('apt-get', [...APT_OPTIONS, 'update'], { env });
			aptUpdated = true;
			log('queue', `apt-get update in ${secondsSince(t)}s`);
		} catch (e) {
			if (attempt >= 3) throw new Error(`apt-get update failed ${attempt} times, so ${pkgs.join(', ')} cannot be installed: ${e.message}`);
			log('queue', `apt-get update failed (attempt ${attempt}), trying again in 10 s: ${e.message.split('\n')[0]}`);
			await sleep(10_000);
		}
	}
	const t = Date.now();
	await runOk('apt-get', [...APT_OPTIONS, 'install', '-y', '--no-install-recommends', ...pkgs], { env });
	log('queue', `apt-get install ${pkgs.join(' ')} in ${secondsSince(t)}s`);
}

async function ensureRedis() {
	let bin = which('redis-server');
	if (!bin) {
		await aptInstall(['redis-server']);
		// /usr/bin may not be on a CI runner's PATH.
		bin = which('redis-server') || (fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
		if (!bin) throw new Error('apt-get installed redis-server but there is no redis-server binary');
	}
	return bin;
}

/** Directory of the newest Debian PostgreSQL's binaries (initdb, pg_ctl, ...). */
function pgBinDir() {
	const base = '/usr/lib/postgresql';
	if (!fs.existsSync(base)) return null;
	const versions = fs
		.readdirSync(base)
		.filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(base, versions[0], 'bin') : null;
}

/**
 * Whether a queue stack can start here: redis-server and PostgreSQL are installed, or this
 * process is root and ensureRedis/ensurePostgres will apt-get them.
 */
function queueModePossible() {
	if (!process.getuid || process.getuid() === 0) return true;
	return Boolean(which('redis-server') && pgBinDir());
}

async function ensurePostgres() {
	let dir = pgBinDir();
	if (!dir) {
		await aptInstall(['postgresql']);
		dir = pgBinDir();
		if (!dir) throw new Error('postgresql installed but no /usr/lib/postgresql/*/bin/initdb');
	}
	return dir;
}

/** PING a Redis until it answers +PONG. */
async function waitRedis(port, timeoutMs = 20000) {
	const t0 = Date.now();
	for (;;) {
		const ok = await new Promise((resolve) => {
			const s = net.connect(port, '127.0.0.1');
			s.setTimeout(1000);
			s.on('connect', () => s.write('PING\r\n'));
			s.on('data', (d) => {
				resolve(String(d).startsWith('+PONG'));
				s.destroy();
			});
			s.on('error', () => resolve(false));
			s.on('timeout', () => {
				resolve(false);
				s.destroy();
			});
		});
		if (ok) return;
		if (Date.now() - t0 > timeoutMs) throw new Error(`redis on ${port} not ready`);
		await sleep(100);
	}
}

async function startRedis({ port, dir, logFile }) {
	const bin = await ensureRedis();
	fs.mkdirSync(dir, { recursive: true });
	const fd = fs.openSync(logFile, 'a');
	const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
		stdio: ['ignore', fd, fd],
	});
	fs.closeSync(fd);
	trackChild(child);
	markGraceful(child);
	await waitRedis(port);
	return {
		port,
		async stop() {
			if (child.exitCode !== null || child.signalCode !== null) return;
			const exited = new Promise((r) => child.on('exit', r));
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
			await exited;
			clearTimeout(timer);
		},
	};
}

/**
 * Private PostgreSQL cluster in its own temp dir (postgres refuses to run as
 * root, so when root everything runs as the `postgres` user, and the dir is
 * under os.tmpdir() where that user can reach it).
 */
async function startPostgres({ port, logFile }) {
	const bin = await ensurePostgres();
	const asRoot = process.getuid && process.getuid() === 0;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-pg-'));
	const data = path.join(dir, 'data');
	const pgLog = path.join(dir, 'postgres.log');
	if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
	const as = (cmd, args) => (asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args]);

	await runOk(...as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']), { cwd: dir });
	// fsync off: throwaway test data, and it makes n8n's migrations much faster.
	const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
	await runOk(...as('pg_ctl', ['-D', data, '-l', pgLog, '-o', opts, '-w', '-t', '60', 'start']), { cwd: dir });
	// pg_ctl daemonizes postgres: it is not our child, so stop it explicitly at exit.
	const stopArgs = as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
	const unhook = onExit(() => {
		try {
			execFileSync(stopArgs[0], stopArgs[1], { stdio: 'ignore', cwd: dir });
		} catch {
			/* already stopped */
		}
		fs.rmSync(dir, { recursive: true, force: true });
	});
	await runOk(...as('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'n8n']), { cwd: dir });
	return {
		port,
		dir,
		database: 'n8n',
		user: 'postgres',
		logFile: pgLog,
		/** Runs SQL with psql (stops at the first error); resolves its output. */
		sql: async (statement, database = 'n8n') =>
			(await runOk(...as('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-At', '-c', statement]), { cwd: dir })).stdout,
		/** Creates another database in this cluster (for data of the workflows under test). */
		createDatabase: (name) => runOk(...as('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]), { cwd: dir }),
		async stop() {
			unhook();
			await run(...as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']), { cwd: dir });
			try {
				fs.appendFileSync(logFile, fs.readFileSync(pgLog, 'utf8'));
			} catch {
				/* log is a convenience */
			}
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/**
 * @param {object} o  same as startN8n's options (version, userFolder, env,
 *                    customExtensions, communityTarballs, owner) plus
 *                    logDir (default <userFolder>/logs), webhookProcesses (default 1),
 *                    workerEnv (extra environment of the worker only).
 * @returns driver of the main process + { webhookUrl, webhookUrls, workerUrl, processes, proxy, stop() }
 */
async function startQueueStack(o = {}) {
	const t0 = Date.now();
	const version = o.version || DEFAULT_VERSION;
	const install = await ensureN8n(version);
	const userFolder = path.resolve(o.userFolder || fs.mkdtempSync(path.join(os.tmpdir(), `n8n-queue-${version}-`)));
	fs.mkdirSync(userFolder, { recursive: true });
	const logDir = path.resolve(o.logDir || path.join(userFolder, 'logs'));
	fs.mkdirSync(logDir, { recursive: true });
	const webhookCount = o.webhookProcesses || 1;
	const ports = await freePorts(6 + 2 * webhookCount + (webhookCount > 1 ? 1 : 0));
	const [mainPort, workerPort, redisPort, pgPort, brokerMain, brokerWorker] = ports;
	const webhookPorts = ports.slice(6, 6 + webhookCount);
	const webhookBrokers = ports.slice(6 + webhookCount, 6 + 2 * webhookCount);
	const owner = { ...DEFAULT_OWNER, ...(o.owner || {}) };
	const url = `http://127.0.0.1:${mainPort}`;
	const webhookUrls = webhookPorts.map((p) => `http://127.0.0.1:${p}`);
	// With several webhook processes n8n's one public webhook URL is the proxy in front of them.
	const proxyPort = webhookCount > 1 ? ports[ports.length - 1] : null;
	const webhookBase = proxyPort ? `http://127.0.0.1:${proxyPort}` : webhookUrls[0];

	// Each entry: (opts) => Promise; run in reverse start order.
	const stoppers = [];
	const stopAll = async (opts = {}) => {
		for (const s of stoppers.splice(0).reverse()) await s(opts).catch((e) => log('queue', `stop error: ${e.message}`));
	};
	try {
		const [redis, pg] = await Promise.all([
			startRedis({ port: redisPort, dir: path.join(userFolder, 'redis'), logFile: path.join(logDir, 'redis.log') }),
			startPostgres({ port: pgPort, logFile: path.join(logDir, 'postgres.log') }),
		]);
		stoppers.push(() => pg.stop(), () => redis.stop());
		log('queue', `redis :${redisPort} and postgres :${pgPort} up in ${secondsSince(t0)}s`);

		const common = {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(pgPort),
			DB_POSTGRESDB_DATABASE: pg.database,
			DB_POSTGRESDB_USER: pg.user,
			DB_POSTGRESDB_PASSWORD: '',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redisPort),
			// All processes must share one key; they also share the userFolder.
			N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
			...ownerEnvOf(install, version, owner),
			...(o.env || {}),
		};
		const envFor = (port, brokerPort, extra = {}) =>
			headlessEnv({
				install,
				userFolder,
				port,
				brokerPort,
				webhookUrl: `${webhookBase}/`,
				customExtensions: o.customExtensions,
				overrides: { ...common, ...extra },
			});
		const mainEnv = envFor(mainPort, brokerMain);
		const workerEnv = envFor(mainPort, brokerWorker, {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(workerPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			...(o.workerEnv || {}),
		});

		await installCommunityTarballs(install, userFolder, o.communityTarballs);

		// Main first: it owns DB migrations; worker/webhook would race them.
		const tMain = Date.now();
		const spawnMain = () =>
			spawnN8nProcess({
				install,
				command: 'start',
				env: mainEnv,
				cwd: userFolder,
				logFile: path.join(logDir, 'main.log'),
				readyUrls: [`${url}/healthz`, `${url}/rest/settings`],
				name: 'main',
			});
		const spawnWorker = () =>
			spawnN8nProcess({
				install,
				command: 'worker',
				env: workerEnv,
				cwd: userFolder,
				logFile: path.join(logDir, 'worker.log'),
				readyUrls: [`http://127.0.0.1:${workerPort}/healthz`],
				name: 'worker',
			});
		// The first keeps the names of a one-webhook stack (webhook, webhook.log); others get -2, -3...
		const spawnWebhooks = () =>
			webhookUrls.map((webhookUrl, i) => {
				const name = i === 0 ? 'webhook' : `webhook-${i + 1}`;
				return spawnN8nProcess({
					install,
					command: 'webhook',
					env: envFor(webhookPorts[i], webhookBrokers[i]),
					cwd: userFolder,
					logFile: path.join(logDir, `${name}.log`),
					readyUrls: [`${webhookUrl}/healthz`],
					name,
				});
			});
		// The processes of the moment: stopN8n/startN8n replace them.
		const n8nProcesses = { main: spawnMain(), worker: undefined, webhooks: [] };
		stoppers.push((opts) => n8nProcesses.main.stop(opts));
		const mainReadyMs = await n8nProcesses.main.ready;
		log('queue', `main ready in ${(mainReadyMs / 1000).toFixed(1)}s`);

		n8nProcesses.worker = spawnWorker();
		stoppers.push((opts) => n8nProcesses.worker.stop(opts));
		const proxy = proxyPort ? await startRoundRobinProxy({ port: proxyPort, backends: webhookUrls }) : null;
		n8nProcesses.webhooks = spawnWebhooks();
		stoppers.push((opts) => Promise.all(n8nProcesses.webhooks.map((w) => w.stop(opts))));
		// Stopped first: no new requests, and its kept-alive connections do not hold the processes open.
		if (proxy) stoppers.push(() => proxy.close());
		const { main, worker, webhooks } = n8nProcesses;
		const webhook = webhooks[0];
		const [workerReadyMs, ...webhooksReadyMs] = await Promise.all([worker.ready, ...webhooks.map((w) => w.ready)]);
		const webhookReadyMs = Math.max(...webhooksReadyMs);
		const auth = await createOwnerAndApiKey({ baseUrl: url, version, owner });
		const readyMs = Date.now() - t0;
		log(
			'queue',
			`stack ready in ${(readyMs / 1000).toFixed(1)}s (main ${(mainReadyMs / 1000).toFixed(1)}s, worker ${(workerReadyMs / 1000).toFixed(1)}s, webhook ${(webhookReadyMs / 1000).toFixed(1)}s after main; total since main spawn ${secondsSince(tMain)}s)`,
		);

		return {
			version,
			mode: 'queue',
			url,
			port: mainPort,
			webhookUrl: webhookBase,
			webhookUrls,
			proxy,
			workerUrl: `http://127.0.0.1:${workerPort}`,
			userFolder,
			logDir,
			logFile: path.join(logDir, 'main.log'),
			env: mainEnv,
			install,
			owner: { email: owner.email, password: owner.password },
			apiKey: auth.apiKey,
			api: auth.api,
			rest: auth.rest,
			...makeCli({ install, env: mainEnv, cwd: userFolder, version }),
			redis: { port: redisPort },
			postgres: { port: pgPort, database: pg.database, user: pg.user, sql: pg.sql, createDatabase: pg.createDatabase },
			processes: { main, worker, webhook, webhooks },
			readyMs,
			timings: { mainReadyMs, workerReadyMs, webhookReadyMs },
			/** Stops webhook, worker, main, then redis and postgres. `{force: true}`: SIGKILL n8n processes. */
			stop: (opts) => stopAll(opts),
			/** n8n away: webhook, worker and main stopped; Redis, PostgreSQL and the proxy stay. */
			async stopN8n() {
				for (const w of n8nProcesses.webhooks) await w.stop();
				await n8nProcesses.worker.stop();
				await n8nProcesses.main.stop();
			},
			/** n8n back: main first, then worker and webhook; resolves when all are ready. */
			async startN8n() {
				n8nProcesses.main = spawnMain();
				await n8nProcesses.main.ready;
				n8nProcesses.worker = spawnWorker();
				n8nProcesses.webhooks = spawnWebhooks();
				await Promise.all([n8nProcesses.worker.ready, ...n8nProcesses.webhooks.map((w) => w.ready)]);
			},
		};
	} catch (e) {
		await stopAll({ force: true });
		throw e;
	}
}

/**
 * `node test/n8n/queue/queue.js install` (.ci/run): Redis and PostgreSQL installed before the
 * tests, or exit 1 saying why; a CI run must not reach the queue-mode suite without them.
 */
async function installPrerequisites() {
	const redis = await ensureRedis();
	const pg = await ensurePostgres();
	log('queue', `queue mode's prerequisites: ${redis}, ${pg}`);
}

if (require.main === module) {
	if (process.argv[2] !== 'install') {
		process.stderr.write('usage: node test/n8n/queue/queue.js install\n');
		process.exit(2);
	}
	installPrerequisites().then(
		() => process.exit(0),
		(e) => {
			process.stderr.write(`queue mode's prerequisites (redis-server, postgresql) could not be installed: ${e.message}\n`);
			process.exit(1);
		},
	);
}

/**
 * A database of a PostgreSQL (startPostgres's) made by `create` (its tables), and a Postgres
 * credential in n8n for it. `stack`: a queue stack, or `{ postgres, api }`.
 */
async function claimsDatabase(stack, { database, create }) {
	await stack.postgres.createDatabase(database);
	await stack.postgres.sql(create, database);
	return stack.api('POST', '/credentials', { name: `Claims (${database})`, type: 'postgres', data: postgresCredentialData(stack.postgres, database) });
}

/** A Postgres credential's data for `database` of a private PostgreSQL (startPostgres's: trust auth, no TLS). */
function postgresCredentialData(postgres, database) {
	return { host: '127.0.0.1', port: postgres.port, database, user: postgres.user, password: '', ssl: 'disable', allowUnauthorizedCerts: false, maxConnections: 20, sshTunnel: false };
}

module.exports = { claimsDatabase, postgresCredentialData, startQueueStack, startRedis, startPostgres, ensureRedis, ensurePostgres, queueModePossible, aptInstall, APT_OPTIONS };
