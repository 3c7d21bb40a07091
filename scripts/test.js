#!/usr/bin/env node
'use strict';
/**
 * The README's test command (`npm test`): runs every suite and ends with one plain line,
 * `N passed, N failed`, summing them all. Extra arguments go to Jest (`npm test -- test/sandbox`).
 *
 * Suites: Jest's two projects (jest.config.js): the unit project (sandbox contract, nodes through
 * n8n's engine, trigger, reliability) and the n8n project (test/n8n), whose globalSetup runs the
 * suites that need a real n8n (the end-to-end suite, the trigger lifecycle cycles, exactly once under
 * load in queue mode) and reports each of their checks as a test. When both run, they are two Jest
 * runs at once (plannedRuns). RECRUITING_SKIP_E2E=1 leaves the real-n8n suites out.
 *
 * The summary: one line per suite (passed, failed, seconds), each Jest run's wall time, then the
 * last line, `N passed, N failed[, N skipped]`, summing every run.
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
const { projectsFor } = require('./jestProjects');
const { buildAll } = require('./e2e/lib');

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
		// By whole lines: two runs at once share the terminal.
		if (extraFd) readline.createInterface({ input: child.stdio[3], crlfDelay: Infinity }).on('line', onExtra);
		child.on('close', (status) => resolve({ status }));
	});
}

/**
 * One Jest run: its report (from --json), or undefined when it produced none. `projects` adds
 * --selectProjects; `label` names it in the full log.
 */
async function runJest({ projects, label, env = {} }) {
	const started = Date.now();
	const resultsFile = path.join(root, 'build', `jest-results${label ? `-${label}` : ''}.json`);
	fs.rmSync(resultsFile, { force: true });
	const jestBin = require.resolve('jest/bin/jest');
	const args = [...jestArgs, ...(projects ? ['--selectProjects', ...projects] : [])];
	toLog(`== jest ${args.join(' ')}`);
	const result = await runChild(
		[
			jestBin,
			...args,
			'--ci',
			'--json',
			`--outputFile=${resultsFile}`,
			// Last: Jest's --reporters takes every argument after it.
			'--reporters=default',
			`--reporters=${path.join(__dirname, 'jest-summary-reporter.js')}`,
		],
		{
			env: {
				...process.env,
				...env,
				RECRUITING_TEST_SUMMARY_FD: '3',
				...(label && { RECRUITING_TEST_SUMMARY_LABEL: label }),
				...(bail !== undefined && { RECRUITING_BAIL: bail }),
			},
			extraFd: true,
			// The reporter's lines, as they come: the per-file summaries and failures.
			onExtra: (line) => process.stdout.write(`${line}\n`),
		},
	);
	const seconds = (Date.now() - started) / 1000;
	if (!fs.existsSync(resultsFile)) {
		const end = tail(LOG_FILE, 40);
		say(`jest${label ? ` (${label})` : ''} did not produce results (exit ${result.status}); the end of the full log (all of it in build/test.log):`);
		say(end);
		failedToRun = true;
		return undefined;
	}
	const report = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	totals.passed += report.numPassedTests;
	totals.failed += report.numFailedTests;
	totals.skipped += report.numPendingTests + report.numTodoTests;
	// A suite that fails to compile has no failed tests but must still fail the run.
	if (report.numRuntimeErrorTestSuites > 0 || (result.status !== 0 && report.numFailedTests === 0)) {
		say(`jest${label ? ` (${label})` : ''}: ${report.numRuntimeErrorTestSuites} suite(s) could not run`);
		failedToRun = true;
	}
	toLog(`jest${label ? ` (${label})` : ''}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
	return { report, seconds, label };
}

/**
 * The runs to make. With the real-n8n suites in the run and no --selectProjects of the caller's,
 * two Jest runs at once: the unit project, and the n8n project, whose globalSetup runs the
 * real-n8n suites first. Those mostly wait on n8n (deliveries, polls, restarts), so the unit
 * project's CPU-bound files fill the time instead of following it. Otherwise one run, as Jest
 * would make it.
 */
function plannedRuns() {
	const { withN8n, selected } = projectsFor(jestArgs, { ...process.env, ...(bail !== undefined && { RECRUITING_BAIL: bail }) });
	if (!withN8n || selected !== undefined) return [{}];
	return [
		{ projects: ['n8n'], label: 'n8n', env: { RECRUITING_TEST_BUILT: '1' } },
		{ projects: ['unit'], label: 'unit' },
	];
}

/**
 * Each suite's line, so growth shows: name, passed/failed(/skipped), seconds. The unit project's
 * suites are its test folders (their files' times summed: files run in parallel, so a sum can
 * exceed the wall time); the real-n8n suites are timed by their own records (globalSetup.ts).
 */
function sayTimes(runs) {
	const suites = new Map();
	const suite = (name) => {
		if (!suites.has(name)) suites.set(name, { passed: 0, failed: 0, skipped: 0, ms: 0 });
		return suites.get(name);
	};
	const checksDir = path.join(root, 'build', 'n8n-checks');
	const realN8nSeconds = new Map();
	for (const name of fs.existsSync(checksDir) ? fs.readdirSync(checksDir) : []) {
		if (!name.endsWith('.exit.json')) continue;
		const { seconds } = JSON.parse(fs.readFileSync(path.join(checksDir, name), 'utf8'));
		if (typeof seconds === 'number') realN8nSeconds.set(squash(name.slice(0, -'.exit.json'.length)), seconds);
	}
	for (const { report } of runs) {
		for (const file of report.testResults) {
			const parts = path.relative(root, file.name).split(path.sep);
			const realN8n = parts[1] === 'n8n';
			const base = path.basename(file.name, '.test.ts');
			const entry = suite(realN8n ? `real n8n: ${base}` : parts.slice(0, 2).join('/'));
			const counts = { passed: 0, failed: 0, skipped: 0 };
			for (const t of file.assertionResults ?? []) {
				if (t.status === 'passed') counts.passed++;
				else if (t.status === 'failed') counts.failed++;
				else counts.skipped++;
			}
			// A file that could not run counts as one failure here, as it fails the run.
			if (file.status === 'failed' && counts.failed === 0) counts.failed = 1;
			entry.passed += counts.passed;
			entry.failed += counts.failed;
			entry.skipped += counts.skipped;
			entry.ms += realN8n ? (realN8nSeconds.get(squash(base)) ?? 0) * 1000 : Math.max(0, file.endTime - file.startTime);
		}
	}
	say('suite times:');
	const width = Math.max(0, ...[...suites.keys()].map((name) => name.length));
	for (const [name, s] of [...suites].sort((a, b) => b[1].ms - a[1].ms)) {
		const counts = `${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ''}`;
		say(`  ${name.padEnd(width)}  ${counts.padEnd(32)} ${String(Math.round(s.ms / 1000)).padStart(5)} s`);
	}
	for (const run of runs) say(`  jest ${run.label ?? 'run'}: wall time ${Math.round(run.seconds)} s`);
}

/** A suite's name as its exit file and its test file both spell it: `queue-load`, `queueLoad`. */
const squash = (name) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function tail(file, lines) {
	return fs.readFileSync(file, 'utf8').split('\n').slice(-lines - 1).join('\n');
}

/**
 * Builds dist/ and the sandbox once, before two runs at once: the real-n8n suites would build at
 * their start (removing dist/ first) while unit tests read the built tree (the README's pack
 * figures); they are told it is built (globalSetup.ts passes --no-build).
 */
async function buildOnce() {
	try {
		await buildAll();
		return true;
	} catch (error) {
		toLog(String(error.message));
		say('the build failed: see build/test.log');
		// Nothing runs on a broken build; the last line counts it as the one failure.
		totals.failed++;
		return false;
	}
}

async function main() {
	const started = Date.now();
	const planned = plannedRuns();
	if (planned.length > 1 && !(await buildOnce())) planned.splice(0, planned.length);
	const runs = (await Promise.all(planned.map((run) => runJest(run)))).filter(Boolean);
	if (runs.length > 0) sayTimes(runs);
	say(`tests' wall time: ${Math.round((Date.now() - started) / 1000)} s`);
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
