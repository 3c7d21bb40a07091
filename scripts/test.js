#!/usr/bin/env node
'use strict';
/**
 * The README's test command (`npm test`): runs every suite and ends with one plain line,
 * `N passed, N failed`, summing them all. Extra arguments go to Jest (`npm test -- test/sandbox`).
 *
 * Suites: Jest's two projects (jest.config.js): the unit project (sandbox contract, nodes through
 * n8n's engine, trigger, reliability) and the n8n project (test/n8n), whose globalSetup runs the
 * suites that need a real n8n (the end-to-end suite, the trigger lifecycle cycles, exactly once under
 * load in queue mode) and reports each of their checks as a test. RECRUITING_SKIP_E2E=1 leaves the
 * real-n8n suites out.
 *
 * The terminal gets what a reader needs: one line per Jest file, each failure with its assertion
 * and stack, the real-n8n suites' progress and failed checks. Everything the suites print (console
 * output of passing tests, n8n's progress, every check) goes to build/test.log.
 */
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { bailApart } = require('./bailArg');

const root = path.resolve(__dirname, '..');
// With a filter (a path, `-t name`) jest.config.js leaves the real-n8n suites out.
const { jestArgs, bail } = bailApart(process.argv.slice(2));

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
 * Runs a child with its stdout and stderr going to the full log. An extra pipe (`extraFd`) is
 * handed to `onExtra`.
 */
function runChild(args, { env = process.env, extraFd = false, onExtra } = {}) {
	return new Promise((resolve) => {
		const stdio = ['ignore', 'pipe', 'pipe', ...(extraFd ? ['pipe'] : [])];
		const child = spawn(process.execPath, args, { cwd: root, env, stdio });
		const follow = (stream) => {
			readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
				toLog(line);
			});
		};
		follow(child.stdout);
		follow(child.stderr);
		if (extraFd) child.stdio[3].on('data', (chunk) => onExtra(chunk.toString('utf8')));
		child.on('close', (status) => resolve({ status }));
	});
}

/** When Jest started: its own report starts after the real-n8n suites of its globalSetup. */
let jestStarted = Date.now();

async function runJest() {
	jestStarted = Date.now();
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
			env: { ...process.env, RECRUITING_TEST_SUMMARY_FD: '3', ...(bail !== undefined && { RECRUITING_BAIL: bail }) },
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
	sayTimes(report);
}

/**
 * Each suite's time, so growth shows: the test folders of the unit project (their files' times
 * summed; files run in parallel, so the sum can exceed the wall time) and each real-n8n suite.
 */
function sayTimes(report) {
	const times = new Map();
	let realN8n = false;
	for (const file of report.testResults) {
		const parts = path.relative(root, file.name).split(path.sep);
		realN8n ||= parts[1] === 'n8n';
		// The real-n8n suites run in the n8n project's globalSetup: their own records say how long.
		if (parts[1] !== 'n8n') times.set(parts.slice(0, 2).join('/'), (times.get(parts.slice(0, 2).join('/')) ?? 0) + Math.max(0, file.endTime - file.startTime));
	}
	const checksDir = path.join(root, 'build', 'n8n-checks');
	for (const name of realN8n && fs.existsSync(checksDir) ? fs.readdirSync(checksDir) : []) {
		if (!name.endsWith('.exit.json')) continue;
		const { seconds } = JSON.parse(fs.readFileSync(path.join(checksDir, name), 'utf8'));
		if (typeof seconds === 'number') times.set(`real n8n: ${name.slice(0, -'.exit.json'.length)}`, seconds * 1000);
	}
	say(`suite times (s): ${[...times].sort((a, b) => b[1] - a[1]).map(([suite, ms]) => `${suite} ${Math.round(ms / 1000)}`).join(', ')}; jest wall time ${Math.round((Date.now() - jestStarted) / 1000)}`);
}

function tail(file, lines) {
	return fs.readFileSync(file, 'utf8').split('\n').slice(-lines - 1).join('\n');
}

async function main() {
	await runJest();
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
