/**
 * Turns the checks a real-n8n suite recorded (globalSetup.ts ran it) into Jest tests, one per
 * check, named as the suite named it; a failed check fails its test with the suite's detail.
 */
import * as fs from 'fs';
import { SUITES, checksFile, endedHow, exitFile } from './suites';

interface RecordedCheck {
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

export function reportChecks(key: keyof typeof SUITES) {
	const suite = SUITES[key];
	const checks = readLines(checksFile(suite));
	const ended = fs.existsSync(exitFile(suite))
		? (JSON.parse(fs.readFileSync(exitFile(suite), 'utf8')) as { status: number | string; seconds: number })
		: undefined;

	describe(suite.name, () => {
		for (const check of checks) {
			test(check.name, () => {
				if (!check.ok) throw new Error(check.detail ?? check.error);
			});
		}
		if (suite.leftOut?.()) {
			test.skip(`${suite.name}: left out of this run`, () => {});
		} else if (ended?.status === 0 && checks.length === 0 && suite.mayLeaveItselfOut) {
			// Queue load leaves itself out where redis-server/PostgreSQL cannot be installed.
			test.skip(`${suite.name}: no checks ran (see build/test.log)`, () => {});
		} else if (!ended || checks.length === 0 || (ended.status !== 0 && checks.every((c) => c.ok))) {
			// A suite that crashed, never ran or checked nothing fails the run even when no check of it failed.
			test(`${suite.name} ran to its end`, () => {
				throw new Error(
					ended
						? `${suite.script} ended (${endedHow(ended.status)}) after ${checks.length} passing checks: see build/test.log`
						: `${suite.script} did not run: see build/test.log`,
				);
			});
		}
	});
}
