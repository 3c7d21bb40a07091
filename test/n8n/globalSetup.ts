/**
 * Jest's real-n8n project (jest.config.js): before its test files run, the suites of suites.ts run
 * here one after the other as child processes, each recording its checks for the test files to
 * report as Jest tests. Their output goes to Jest's stdout (build/test.log under `npm test`); the
 * terminal gets their sections and install progress (failed checks come with Jest's report). A
 * suite that fails, crashes or cannot start is written down, not thrown: a throw here would stop
 * Jest before the unit project's tests too.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as readline from 'readline';
import { CHECKS_DIR, ROOT, SUITES, type Suite, checksFile, endedHow, exitFile } from './suites';

/** The terminal: `npm test`'s summary pipe when there is one, stderr otherwise. */
function toTerminal(line: string) {
	const fd = Number(process.env.RECRUITING_TEST_SUMMARY_FD);
	fs.writeSync(Number.isInteger(fd) && fd > 2 ? fd : 2, `${line}\n`);
}

/** Section lines, and an install in progress (first run) is worth seeing; a cached one is not. */
const worthShowing = (line: string) => /\] === /.test(line) || (/\[n8n:install /.test(line) && !/ cached \(/.test(line));

/** How the suite's process ended: its exit code, else the signal that killed it or why it did not start. */
function runSuite(suite: Suite): Promise<number | string> {
	return new Promise((resolve) => {
		// Jest sets NODE_ENV=test when it is unset; n8n then exits at start without a word.
		const { NODE_ENV, ...env } = process.env;
		// Built already by `npm test` (scripts/test.js), which runs the unit project meanwhile: a
		// second build would remove dist/ while unit tests read it.
		const built = process.env.RECRUITING_TEST_BUILT === '1' && !suite.args.includes('--no-build');
		const child = spawn(process.execPath, [suite.script, ...suite.args, ...(built ? ['--no-build'] : [])], {
			cwd: ROOT,
			env: { ...env, ...(NODE_ENV === 'test' ? {} : { NODE_ENV }), RECRUITING_CHECKS_FILE: checksFile(suite) },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		for (const stream of ['stdout', 'stderr'] as const) {
			readline.createInterface({ input: child[stream], crlfDelay: Infinity }).on('line', (line) => {
				process.stdout.write(`${line}\n`);
				if (stream === 'stderr' && worthShowing(line)) toTerminal(line);
			});
		}
		child.on('error', (error) => resolve(`not started: ${error.message}`));
		child.on('close', (code, signal) => resolve(code ?? `killed by ${signal}`));
	});
}

export default async function globalSetup() {
	fs.rmSync(CHECKS_DIR, { recursive: true, force: true });
	fs.mkdirSync(CHECKS_DIR, { recursive: true });
	for (const suite of Object.values(SUITES)) {
		if (suite.leftOut?.()) continue;
		const started = Date.now();
		toTerminal(`${suite.name}: running in a real n8n (every check in build/test.log)`);
		const status = await runSuite(suite).catch((error: Error) => `not run: ${error.message}`);
		const seconds = Math.round((Date.now() - started) / 1000);
		fs.writeFileSync(exitFile(suite), JSON.stringify({ status, seconds }));
		toTerminal(`${suite.name}: ended (${endedHow(status)}, ${seconds} s)`);
	}
}
