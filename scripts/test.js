#!/usr/bin/env node
'use strict';
/**
 * The README's test command (`npm test`): runs every suite and ends with one plain line,
 * `N passed, N failed`, summing them all. Extra arguments go to Jest (`npm test -- test/sandbox`).
 *
 * Suites: Jest (sandbox contract, nodes through n8n's engine, trigger, reliability), then inside a
 * real n8n the end-to-end suite (scripts/e2e/run.js) and the trigger lifecycle cycles
 * (scripts/reliability/lifecycle.js) and exactly once under load in queue mode
 * (scripts/reliability/queueLoad.js); each prints its own `N passed, N failed` line, read back here.
 * RECRUITING_SKIP_E2E=1 leaves out the real-n8n suites.
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const jestArgs = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedToRun = false;

function runJest() {
	const resultsFile = path.join(root, 'build', 'jest-results.json');
	fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
	fs.rmSync(resultsFile, { force: true });
	const jestBin = require.resolve('jest/bin/jest');
	const result = spawnSync(
		process.execPath,
		[jestBin, '--ci', '--json', `--outputFile=${resultsFile}`, ...jestArgs],
		{ cwd: root, stdio: 'inherit' },
	);
	if (!fs.existsSync(resultsFile)) {
		console.error(`jest did not produce results (exit ${result.status})`);
		failedToRun = true;
		return;
	}
	const report = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	totals.passed += report.numPassedTests;
	totals.failed += report.numFailedTests;
	totals.skipped += report.numPendingTests + report.numTodoTests;
	// A suite that fails to compile has no failed tests but must still fail the run.
	if (report.numRuntimeErrorTestSuites > 0 || (result.status !== 0 && report.numFailedTests === 0)) {
		console.error(`jest: ${report.numRuntimeErrorTestSuites} suite(s) could not run`);
		failedToRun = true;
	}
	console.log(`jest: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}

function runNodeSuite(name, script, args = []) {
	const file = path.join(root, script);
	if (!fs.existsSync(file)) return;
	const result = spawnSync(process.execPath, [file, ...args], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	process.stdout.write(result.stdout);
	const match = /^(?:\w+: )?(\d+) passed, (\d+) failed/m.exec(
		result.stdout.split('\n').reverse().join('\n'),
	);
	if (!match) {
		console.error(`${name}: no summary line (exit ${result.status})`);
		failedToRun = true;
		return;
	}
	totals.passed += Number(match[1]);
	totals.failed += Number(match[2]);
	if (result.status !== 0 && Number(match[2]) === 0) failedToRun = true;
}

runJest();
if (jestArgs.length === 0 && process.env.RECRUITING_SKIP_E2E !== '1') {
	// Both build and pack the package; the e2e run builds it, the lifecycle run reuses that build.
	runNodeSuite('e2e', 'scripts/e2e/run.js');
	runNodeSuite('lifecycle', 'scripts/reliability/lifecycle.js', ['--no-build']);
	// Exactly once under load in queue mode; RECRUITING_E2E_QUEUE=0 leaves queue mode out here too.
	if (process.env.RECRUITING_E2E_QUEUE !== '0') runNodeSuite('queue load', 'scripts/reliability/queueLoad.js', ['--no-build']);
}
// The reliability counts of this run into build/reliability/RELIABILITY.md (npm test writes nothing
// tracked; `npm run docs:reliability` copies them into docs/).
if (jestArgs.length === 0 && fs.existsSync(path.join(root, 'scripts/reliability/report.js'))) {
	spawnSync(process.execPath, [path.join(root, 'scripts/reliability/report.js')], { cwd: root, stdio: 'inherit' });
}

const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 || failedToRun ? 1 : 0);
