'use strict';
/**
 * Shared helpers for the n8n tooling: where the cache lives, stderr logging
 * with timings, a cross-process lock, and small process/port utilities.
 * Node built-ins only.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');
const { spawn } = require('child_process');

/** Root of the cache shared by all checkouts/runs (outside the repo). */
function cacheRoot() {
	if (process.env.N8N_NODES_RECRUITING_CACHE) return path.resolve(process.env.N8N_NODES_RECRUITING_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-recruiting');
}

const T0 = Date.now();
/** Progress goes to stderr so stdout stays usable for machine-readable output. */
function log(scope, ...args) {
	const t = ((Date.now() - T0) / 1000).toFixed(1).padStart(6);
	process.stderr.write(`[n8n:${scope} +${t}s] ${args.join(' ')}\n`);
}

function sleep(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

function secondsSince(start) {
	return ((Date.now() - start) / 1000).toFixed(1);
}

function pidAlive(pid) {
	if (!pid) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return e.code === 'EPERM';
	}
}

/**
 * Cross-process mutex built on an atomic mkdir. The holder's pid is written
 * inside; a lock whose holder is dead (crash, SIGKILL) is taken over, so an
 * interrupted run never blocks later ones.
 */
async function withLock(lockDir, fn, { timeoutMs = 30 * 60 * 1000, scope = 'lock' } = {}) {
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	const pidFile = path.join(lockDir, 'pid');
	const start = Date.now();
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(pidFile, String(process.pid));
			break;
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			let holder = 0;
			try {
				holder = Number(fs.readFileSync(pidFile, 'utf8'));
			} catch {
				/* pid not written yet (holder between mkdir and write) */
			}
			// Stale: holder died. A missing pid file older than a few seconds is also stale.
			let stale = holder ? !pidAlive(holder) : false;
			if (!holder) {
				try {
					stale = Date.now() - fs.statSync(lockDir).mtimeMs > 10000;
				} catch {
					continue; // vanished: retry immediately
				}
			}
			if (stale) {
				log(scope, `removing stale lock ${lockDir} (holder ${holder || '?'} is gone)`);
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!announced) {
				log(scope, `waiting for lock ${lockDir} held by pid ${holder}`);
				announced = true;
			}
			if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${lockDir}`);
			await sleep(1000);
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/** A free TCP port on 127.0.0.1 (bind port 0, read it, release it). */
function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/** Several distinct free ports (held simultaneously so they differ). */
async function freePorts(n) {
	const servers = [];
	try {
		for (let i = 0; i < n; i++) {
			const srv = net.createServer();
			await new Promise((res, rej) => {
				srv.on('error', rej);
				srv.listen(0, '127.0.0.1', res);
			});
			servers.push(srv);
		}
		return servers.map((s) => s.address().port);
	} finally {
		await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
	}
}

/**
 * Run a command to completion; resolves {code, signal, stdout, stderr}.
 * `echo` streams the child's output to our stderr (for long installs).
 */
function run(cmd, args, { cwd, env, echo = false, input, timeoutMs } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd, env: env || process.env, stdio: ['pipe', 'pipe', 'pipe'] });
		trackChild(child);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => {
			stdout += d;
			if (echo) process.stderr.write(d);
		});
		child.stderr.on('data', (d) => {
			stderr += d;
			if (echo) process.stderr.write(d);
		});
		let timer;
		if (timeoutMs) timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr });
		});
		child.stdin.end(input);
	});
}

/** Like run() but throws with the output tail on a non-zero exit. */
async function runOk(cmd, args, opts) {
	const r = await run(cmd, args, opts);
	if (r.code !== 0) {
		const tail = (r.stdout + r.stderr).split('\n').slice(-40).join('\n');
		throw new Error(`${cmd} ${args.join(' ')} exited with ${r.code ?? r.signal}\n${tail}`);
	}
	return r;
}

// ---- children cleanup ------------------------------------------------------
// Every process we spawn is registered here and killed when this process
// exits, so an aborted test run never leaves an n8n/redis/postgres behind.
const children = new Set();
const exitHooks = new Set();
let hooksInstalled = false;
/** How long a signal waits for graceful children before SIGKILL (stopOnSignals may shorten it). */
let gracefulBoundMs = 10000;

function killAllSync() {
	for (const hook of exitHooks) {
		try {
			hook();
		} catch {
			/* best effort */
		}
	}
	for (const child of children) {
		if (child.exitCode === null && child.signalCode === null) {
			try {
				// Children are spawned detached (own process group) when they may
				// fork further; kill the whole group then.
				if (child._n8nGroup) process.kill(-child.pid, 'SIGKILL');
				else child.kill('SIGKILL');
			} catch {
				/* already gone */
			}
		}
	}
}

function installHooks() {
	if (hooksInstalled) return;
	hooksInstalled = true;
	process.on('exit', killAllSync);
	let signalled = false;
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(sig, () => {
			const code = 128 + os.constants.signals[sig];
			if (signalled) {
				// Second Ctrl-C: no more waiting.
				killAllSync();
				process.exit(code);
			}
			signalled = true;
			gracefulThenExit(code);
		});
	}
}

/**
 * On a signal: SIGTERM children that can take it (n8n only once ready, see
 * markGraceful), give them a bounded time to exit, then SIGKILL whatever is
 * left (killAllSync, also via 'exit') and exit with the signal's status.
 */
function gracefulThenExit(code, boundMs = gracefulBoundMs) {
	const alive = [...children].filter((c) => c.exitCode === null && c.signalCode === null);
	const graceful = alive.filter((c) => c._n8nGraceful);
	for (const c of alive) {
		try {
			if (c._n8nGraceful) c.kill('SIGTERM');
			else if (c._n8nGroup) process.kill(-c.pid, 'SIGKILL');
			else c.kill('SIGKILL');
		} catch {
			/* gone */
		}
	}
	if (!graceful.length) process.exit(code);
	const timer = setTimeout(() => process.exit(code), boundMs);
	// A group leader that stopped gracefully (n8n) may leave its group behind (task runners): the
	// group is swept the moment the leader is gone, while its members still hold the group's id.
	const sweep = (c) => {
		if (!c._n8nGroup) return;
		try {
			process.kill(-c.pid, 'SIGKILL');
		} catch {
			/* the group is empty */
		}
	};
	const exited = (c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.on('exit', r)));
	Promise.all(graceful.map((c) => exited(c).then(() => sweep(c)))).then(() => {
		clearTimeout(timer);
		process.exit(code);
	});
}

/**
 * For a long-running foreground tool (`npm start`): stop everything it started on SIGINT, SIGTERM
 * and SIGHUP within `boundMs` (graceful children get SIGTERM, then every tracked child and process
 * group SIGKILL), and also when its parent goes away. npm forwards SIGINT and SIGTERM to the
 * script's process but not SIGHUP, and dies of SIGHUP or SIGKILL without passing anything on: the
 * script then only sees its parent change.
 */
function stopOnSignals({ boundMs = gracefulBoundMs, withParent = false, pollMs = 200 } = {}) {
	installHooks();
	gracefulBoundMs = boundMs;
	if (!withParent) return;
	const parent = process.ppid;
	const timer = setInterval(() => {
		if (process.ppid === parent && pidAlive(parent)) return;
		clearInterval(timer);
		log('exit', `parent process ${parent} is gone: stopping everything`);
		gracefulThenExit(128 + os.constants.signals.SIGHUP);
	}, pollMs);
	timer.unref();
}

/** Mark a tracked child as safe to stop with SIGTERM on Ctrl-C (e.g. n8n once ready). */
function markGraceful(child, graceful = true) {
	child._n8nGraceful = graceful;
}

/** Register a child so it is killed on parent exit. `group`: kill its process group. */
function trackChild(child, { group = false } = {}) {
	installHooks();
	child._n8nGroup = group;
	children.add(child);
	child.on('exit', () => children.delete(child));
	return child;
}

/** Register a synchronous cleanup (e.g. `pg_ctl stop`) run at parent exit. Returns an unregister fn. */
function onExit(fn) {
	installHooks();
	exitHooks.add(fn);
	return () => exitHooks.delete(fn);
}

module.exports = {
	cacheRoot,
	log,
	sleep,
	secondsSince,
	pidAlive,
	withLock,
	freePort,
	freePorts,
	run,
	runOk,
	trackChild,
	markGraceful,
	onExit,
	stopOnSignals,
};
