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
 *
 * The terminal gets what a reader needs: one line per Jest file, each failure with its assertion
 * and stack, the real-n8n suites' progress and failed checks, a summary per suite. Everything the
 * suites print (console output of passing tests, n8n's progress, every check) goes to
 * build/test.log.
 */
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const root = path.resolve(__dirname, '..');
const jestArgs = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedToRun = false;

const LOG_FILE = path.join(root, 'build', 'test.log');
fs.mkdirSync(path.dirname(LOG_FILE), { recursive: true });
const logFd = fs.openSync(LOG_FILE, 'w');

/** To the full log only. */
function toLog(text) {
	fs.writeSync(logFd, text.endsWith('\n') ? text : `${text}\n`);
}

/** To the terminal and the full log. */
function say(text) {
	process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
	toLog(text);
}

/**
 * Runs a child with its stdout and stderr going to the full log; `onLine(line, stream)` decides
 * what of it the terminal shows as well. Extra pipes (`fds`) are handed to `onExtra`.
 */
function runChild(args, { env = process.env, onLine, extraFd = false, onExtra } = {}) {
	return new Promise((resolve) => {
		const stdio = ['ignore', 'pipe', 'pipe', ...(extraFd ? ['pipe'] : [])];
		const child = spawn(process.execPath, args, { cwd: root, env, stdio });
		let stdout = '';
		const follow = (stream, name) => {
			readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
				toLog(line);
				if (name === 'stdout') stdout += `${line}\n`;
				if (onLine) onLine(line, name);
			});
		};
		follow(child.stdout, 'stdout');
		follow(child.stderr, 'stderr');
		if (extraFd) child.stdio[3].on('data', (chunk) => onExtra(chunk.toString('utf8')));
		child.on('close', (status) => resolve({ status, stdout }));
	});
}

async function runJest() {
	const resultsFile = path.join(root, 'build', 'jest-results.json');
	fs.rmSync(resultsFile, { force: true });
	const jestBin = require.resolve('jest/bin/jest');
	toLog(`== jest ${jestArgs.join(' ')}`);
	const result = await runChild(
		[
			jestBin,
			...jestArgs,
			'--ci',
			'--json',
			`--outputFile=${resultsFile}`,
			// Last: Jest's --reporters takes every argument after it.
			'--reporters=default',
			`--reporters=${path.join(__dirname, 'jest-summary-reporter.js')}`,
		],
		{
			env: { ...process.env, RECRUITING_TEST_SUMMARY_FD: '3' },
			extraFd: true,
			// The reporter's lines, as they come: the per-file summaries and failures.
			onExtra: (text) => process.stdout.write(text),
		},
	);
	if (!fs.existsSync(resultsFile)) {
		const end = tail(LOG_FILE, 40);
		say(`jest did not produce results (exit ${result.status}); the end of its output (all of it in build/test.log):`);
		say(end);
		failedToRun = true;
		return;
	}
	const report = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	totals.passed += report.numPassedTests;
	totals.failed += report.numFailedTests;
	totals.skipped += report.numPendingTests + report.numTodoTests;
	// A suite that fails to compile has no failed tests but must still fail the run.
	if (report.numRuntimeErrorTestSuites > 0 || (result.status !== 0 && report.numFailedTests === 0)) {
		say(`jest: ${report.numRuntimeErrorTestSuites} suite(s) could not run`);
		failedToRun = true;
	}
	toLog(`jest: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}

/** What of a real-n8n suite the terminal shows: section and install progress, failed checks with their detail. */
function nodeSuiteFilter() {
	let inFailure = false;
	return (line, stream) => {
		if (stream === 'stdout') {
			// A failed check: `  FAIL name (…)` and its indented detail lines.
			if (/^\s{2}FAIL /.test(line)) inFailure = true;
			else if (!/^\s{7}/.test(line)) inFailure = false;
			if (inFailure) process.stdout.write(`${line}\n`);
			return;
		}
		// An install in progress (first run) is worth seeing; a cached one is not.
		if (/\] === /.test(line) || (/\[n8n:install /.test(line) && !/ cached \(/.test(line))) process.stdout.write(`${line}\n`);
	};
}

async function runNodeSuite(name, script, args = []) {
	const file = path.join(root, script);
	if (!fs.existsSync(file)) return;
	const t0 = Date.now();
	say(`${name}: running in a real n8n (every check in build/test.log)`);
	toLog(`== ${name}: node ${script} ${args.join(' ')}`);
	const result = await runChild([file, ...args], { onLine: nodeSuiteFilter() });
	const match = /^(?:\w+: )?(\d+) passed, (\d+) failed/m.exec(result.stdout.split('\n').reverse().join('\n'));
	if (!match) {
		const end = tail(LOG_FILE, 40);
		say(`${name}: no summary line (exit ${result.status}); the end of its output (all of it in build/test.log):`);
		say(end);
		failedToRun = true;
		return;
	}
	totals.passed += Number(match[1]);
	totals.failed += Number(match[2]);
	if (result.status !== 0 && Number(match[2]) === 0) failedToRun = true;
	say(`${name}: ${match[1]} passed, ${match[2]} failed (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

function tail(file, lines) {
	return fs.readFileSync(file, 'utf8').split('\n').slice(-lines - 1).join('\n');
}

async function main() {
	await runJest();
	if (jestArgs.length === 0 && process.env.RECRUITING_SKIP_E2E !== '1') {
		// Both build and pack the package; the e2e run builds it, the lifecycle run reuses that build.
		await runNodeSuite('e2e', 'test/n8n/e2e/run.js');
		await runNodeSuite('lifecycle', 'test/n8n/reliability/lifecycle.js', ['--no-build']);
		// Exactly once under load in queue mode; RECRUITING_E2E_QUEUE=0 leaves queue mode out here too.
		if (process.env.RECRUITING_E2E_QUEUE !== '0') {
			await runNodeSuite('queue load', 'test/n8n/reliability/queueLoad.js', ['--no-build']);
		}
	}
	// The reliability counts of this run into build/reliability/RELIABILITY.md (npm test writes
	// nothing tracked; `npm run docs:reliability` copies them into docs/).
	if (jestArgs.length === 0 && fs.existsSync(path.join(root, 'scripts/reliability/report.js'))) {
		toLog('== reliability report');
		const report = await runChild([path.join(root, 'scripts/reliability/report.js')]);
		if (report.status !== 0) say(`reliability report failed (exit ${report.status}): see build/test.log`);
		else say('reliability counts: build/reliability/RELIABILITY.md');
	}
	say(`full log: ${path.relative(root, LOG_FILE)}`);
	const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
	// The last line; CI reads it.
	say(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
	fs.closeSync(logFd);
	process.exit(totals.failed > 0 || failedToRun ? 1 : 0);
}

main().catch((e) => {
	say(`npm test failed to run: ${e.stack || e}`);
	say('0 passed, 1 failed');
	process.exit(1);
});
