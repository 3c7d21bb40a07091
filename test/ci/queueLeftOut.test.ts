/**
 * The queue-mode load suite (test/n8n/reliability/queueLoad.js) leaves itself out where Redis or
 * PostgreSQL cannot be installed. Under CI=true that fails the run (the README quotes its figures);
 * elsewhere it is one skipped test. And its installs (test/n8n/queue/queue.js) do not trip over
 * each other: Redis and PostgreSQL are ensured in parallel, and apt-get holds one lock.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { verdictOf } from '../n8n/checks';
import { SUITES } from '../n8n/suites';

const ROOT = path.resolve(__dirname, '..', '..');

/** queueLoad.js as a user who is not root, with no redis-server on PATH (an empty directory). */
function queueLoadWithoutRedis(env: Record<string, string>) {
	const { CI: _ci, RECRUITING_CHECKS_FILE: _file, ...rest } = process.env;
	const emptyPath = fs.mkdtempSync(path.join(os.tmpdir(), 'no-redis-'));
	return spawnSync(process.execPath, ['--require', path.join(__dirname, 'fixtures', 'notRoot.js'), 'test/n8n/reliability/queueLoad.js', '--no-build'], {
		cwd: ROOT,
		env: { ...rest, PATH: emptyPath, ...env },
		encoding: 'utf8',
		timeout: 60_000,
	});
}

test('without Redis and root, queueLoad.js under CI=true fails with a failed check saying why', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-left-out-'));
	const checksFile = path.join(dir, 'checks.jsonl');
	const run = queueLoadWithoutRedis({ CI: 'true', RECRUITING_CHECKS_FILE: checksFile });
	expect([run.status, run.stdout.trim().split('\n').pop()]).toEqual([1, '0 passed, 1 failed']);
	const checks = fs.readFileSync(checksFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { ok: boolean; error: string });
	expect(checks).toEqual([expect.objectContaining({ ok: false, error: expect.stringMatching(/redis-server\/PostgreSQL are missing/) })]);
});

test('without CI=true it leaves itself out: exit 0, no checks', () => {
	const run = queueLoadWithoutRedis({});
	expect([run.status, run.stdout.trim().split('\n').pop()]).toEqual([0, '0 passed, 0 failed']);
	expect(run.stderr + run.stdout).toMatch(/queue load left out/);
});

test("the suite's test file: a suite that left itself out is a skipped test, and under CI=true a failed one", () => {
	const suite = SUITES.queueLoad;
	const ended = { status: 0 };
	expect(verdictOf(suite, ended, [], {})).toEqual({ kind: 'skip', name: 'queue load: no checks ran (see build/test.log)' });
	expect(verdictOf(suite, ended, [], { CI: 'true' })).toMatchObject({ kind: 'fail', error: expect.stringMatching(/left itself out .* under CI=true/) });
	// Checks that ran are reported as they are, under CI or not.
	expect(verdictOf(suite, ended, [{ name: 'x', ok: true }], { CI: 'true' })).toEqual({ kind: 'checks' });
	expect(verdictOf(suite, { status: 1 }, [], {})).toMatchObject({ kind: 'fail', name: 'queue load ran to its end' });
});

test('Redis and PostgreSQL installed together: one apt-get at a time, update once, waiting for the dpkg lock', async () => {
	// A stand-in apt-get that fails as the real one does when another apt-get holds the lock.
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-apt-'));
	const logFile = path.join(dir, 'calls.log');
	fs.writeFileSync(
		path.join(dir, 'apt-get'),
		[
			'#!/bin/sh',
			`if ! mkdir "${dir}/lock" 2>/dev/null; then echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2; exit 100; fi`,
			`echo "$*" >> "${logFile}"`,
			'sleep 0.3',
			`rmdir "${dir}/lock"`,
		].join('\n'),
		{ mode: 0o755 },
	);
	const saved = { PATH: process.env.PATH, getuid: process.getuid };
	process.env.PATH = `${dir}${path.delimiter}${process.env.PATH}`;
	process.getuid = () => 0;
	try {
		let queue: { aptInstall(pkgs: string[]): Promise<void> } | undefined;
		jest.isolateModules(() => {
			queue = require('../n8n/queue/queue') as typeof queue;
		});
		await Promise.all([queue!.aptInstall(['redis-server']), queue!.aptInstall(['postgresql'])]);
	} finally {
		process.env.PATH = saved.PATH;
		process.getuid = saved.getuid;
	}
	const calls = fs.readFileSync(logFile, 'utf8').trim().split('\n');
	expect(calls.map((c) => c.replace(/^(-o \S+ )+/, ''))).toEqual([
		'update',
		'install -y --no-install-recommends redis-server',
		'install -y --no-install-recommends postgresql',
	]);
	for (const call of calls) expect(call).toContain('-o DPkg::Lock::Timeout=600');
});
