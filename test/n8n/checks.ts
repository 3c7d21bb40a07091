/**
 * Turns the checks a real-n8n suite recorded (globalSetup.ts ran it) into Jest tests, one per
 * check, named as the suite named it; a failed check fails its test with the suite's detail.
 */
import * as fs from 'fs';
import { SUITES, type Suite, checksFile, endedHow, exitFile } from './suites';

export interface RecordedCheck {
	name: string;
	ok: boolean;
	error?: string;
	detail?: string;
}

function readLines(file: string): RecordedCheck[] {
	if (!fs.existsSync(file)) return [];
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as RecordedCheck);
}

/** What the suite's test file reports beside its checks: nothing, one skipped test, or one failing test. */
export type Verdict = { kind: 'checks' } | { kind: 'skip'; name: string } | { kind: 'fail'; name: string; error: string };

export function verdictOf(
	suite: Suite,
	ended: { status: number | string } | undefined,
	checks: RecordedCheck[],
	env: NodeJS.ProcessEnv = process.env,
): Verdict {
	if (suite.leftOut?.()) return { kind: 'skip', name: `${suite.name}: left out of this run` };
	const leftItselfOut = ended?.status === 0 && checks.length === 0 && suite.mayLeaveItselfOut;
	// Queue load leaves itself out where redis-server/PostgreSQL cannot be installed; CI must run it.
	if (leftItselfOut && env.CI !== 'true') return { kind: 'skip', name: `${suite.name}: no checks ran (see build/test.log)` };
	if (leftItselfOut) {
		return {
			kind: 'fail',
			name: `${suite.name} ran (CI=true)`,
			error: `${suite.script} left itself out (no checks) under CI=true: see build/test.log`,
		};
	}
	if (!ended || checks.length === 0 || (ended.status !== 0 && checks.every((c) => c.ok))) {
		// A suite that crashed, never ran or checked nothing fails the run even when no check of it failed.
		return {
			kind: 'fail',
			name: `${suite.name} ran to its end`,
			error: ended
				? `${suite.script} ended (${endedHow(ended.status)}) after ${checks.length} passing checks: see build/test.log`
				: `${suite.script} did not run: see build/test.log`,
		};
	}
	return { kind: 'checks' };
}

export function reportChecks(key: keyof typeof SUITES) {
	const suite = SUITES[key];
	const checks = readLines(checksFile(suite));
	const ended = fs.existsSync(exitFile(suite))
		? (JSON.parse(fs.readFileSync(exitFile(suite), 'utf8')) as { status: number | string; seconds: number })
		: undefined;
	const verdict = verdictOf(suite, ended, checks);

	describe(suite.name, () => {
		for (const check of checks) {
			test(check.name, () => {
				if (!check.ok) throw new Error(check.detail ?? check.error);
			});
		}
		if (verdict.kind === 'skip') test.skip(verdict.name, () => {});
		if (verdict.kind === 'fail') {
			test(verdict.name, () => {
				throw new Error(verdict.error);
			});
		}
	});
}
