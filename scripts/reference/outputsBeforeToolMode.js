#!/usr/bin/env node
'use strict';
/**
 * Writes test/recruiting/fixtures/outputs-before-tool-mode.json, the reference of
 * outsideToolMode.test.ts: what the package output before tool mode existed, computed BY that
 * package. Never part of `npm test`.
 *
 *   node scripts/reference/outputsBeforeToolMode.js [--checkout DIR] [--out FILE]
 *
 * BEFORE is the parent of 465fb86 (tool mode, issue #20). The script clones this repository at
 * BEFORE into a temporary directory (or uses --checkout DIR, which must be a clean checkout of
 * BEFORE), gives it node_modules (this tree's, linked, when every package BEFORE's lock file names
 * is here at the same version and integrity; `npm ci` otherwise), copies
 * test/recruiting/outputsOutsideToolMode.ts and a one-test generator into it and runs that with
 * BEFORE's own Jest, sandbox and nodes. It refuses to compute anything in a checkout whose HEAD
 * is not BEFORE, or whose tracked files differ from it: the reference is the old code's output,
 * never the current code's.
 */
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseCliArgs } = require('../cliArgs');

const BEFORE = '20baf4fcd5f63cab35a59c5135ddad30e81a02b7';
const ROOT = path.resolve(__dirname, '..', '..');
const SHARED = 'test/recruiting/outputsOutsideToolMode.ts';
const GENERATOR = 'test/recruiting/zzReferenceBeforeToolMode.test.ts';

const git = (dir, ...args) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

/** Refuses (throws) unless `dir` is a checkout of BEFORE with no tracked file changed. */
function assertBefore(dir) {
	const head = git(dir, 'rev-parse', 'HEAD');
	if (head !== BEFORE) {
		throw new Error(`${dir} is at ${head.slice(0, 7)}, not ${BEFORE.slice(0, 7)} (the commit before tool mode): refusing to write the reference from other code`);
	}
	const changed = git(dir, 'status', '--porcelain', '--untracked-files=no');
	if (changed) throw new Error(`${dir} has changed tracked files, refusing:\n${changed}`);
}

/** The lock file's packages: `node_modules/x` → `version integrity`. */
function lockedPackages(dir) {
	const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
	return Object.fromEntries(Object.entries(lock.packages).filter(([p]) => p).map(([p, v]) => [p, `${v.version} ${v.integrity}`]));
}

/** node_modules for the checkout: this tree's when it holds every package the old lock names, as locked. */
function provideNodeModules(dir) {
	if (fs.existsSync(path.join(dir, 'node_modules'))) return;
	const here = lockedPackages(ROOT);
	const missing = Object.entries(lockedPackages(dir)).filter(([p, v]) => here[p] !== v);
	if (missing.length === 0 && fs.existsSync(path.join(ROOT, 'node_modules'))) {
		fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
		return;
	}
	process.stderr.write(`${missing.length} package(s) differ from this tree's lock (e.g. ${missing[0]?.[0]}): npm ci in ${dir}\n`);
	execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
}

function main() {
	const o = parseCliArgs(__filename, { checkout: { type: 'string' }, out: { type: 'string' } }, process.argv.slice(2));
	const out = path.resolve(o.out ?? path.join(ROOT, 'test/recruiting/fixtures/outputs-before-tool-mode.json'));
	let dir = o.checkout && path.resolve(o.checkout);
	const temporary = !dir;
	if (!dir) {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-before-tool-mode-'));
		execFileSync('git', ['clone', '--quiet', '--no-checkout', git(ROOT, 'rev-parse', '--show-toplevel'), dir]);
		git(dir, 'checkout', '--quiet', BEFORE);
	}
	// Refused before anything is copied into the checkout or removed from it.
	assertBefore(dir);
	try {
		provideNodeModules(dir);
		fs.copyFileSync(path.join(ROOT, SHARED), path.join(dir, SHARED));
		fs.writeFileSync(
			path.join(dir, GENERATOR),
			[
				"import * as fs from 'fs';",
				"import { useRecruitingFixture } from './fixture';",
				"import { SEED, outputsOutsideToolMode } from './outputsOutsideToolMode';",
				'const fx = useRecruitingFixture(SEED);',
				"test('reference', async () => {",
				'\tconst outputs = await outputsOutsideToolMode(fx);',
				"\tfs.writeFileSync(process.env.RECRUITING_REFERENCE_OUT as string, JSON.stringify(outputs, null, 1) + '\\n');",
				'});',
				'',
			].join('\n'),
		);
		// Checked again just before the old code runs: the copies above are untracked files only.
		assertBefore(dir);
		const jest = spawnSync(process.execPath, [path.join(dir, 'node_modules/jest/bin/jest.js'), GENERATOR], {
			cwd: dir,
			env: { ...process.env, RECRUITING_REFERENCE_OUT: out, RECRUITING_SKIP_E2E: '1' },
			stdio: 'inherit',
		});
		if (jest.status !== 0) throw new Error(`the generator failed in ${dir} (exit ${jest.status})`);
		process.stdout.write(`wrote ${path.relative(ROOT, out)} from ${BEFORE.slice(0, 7)}\n`);
	} finally {
		if (temporary) fs.rmSync(dir, { recursive: true, force: true });
		else for (const file of [SHARED, GENERATOR]) fs.rmSync(path.join(dir, file), { force: true });
	}
}

if (require.main === module) {
	try {
		main();
	} catch (e) {
		process.stderr.write(`${e.message}\n`);
		process.exit(1);
	}
}

module.exports = { BEFORE, assertBefore };
