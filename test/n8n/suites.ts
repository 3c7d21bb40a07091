/**
 * The suites that need a real n8n, in the order globalSetup.ts runs them: the e2e suite (builds and
 * packs the package), then the trigger's lifecycle cycles and exactly-once under load in queue mode,
 * both reusing that build. Each records its checks (scripts/e2e/lib.js `Checks`) in its own file.
 */
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CHECKS_DIR = path.join(ROOT, 'build', 'n8n-checks');

export interface Suite {
	name: string;
	script: string;
	args: string[];
	/** Left out of this run (the suite's test file then reports one skipped test). */
	leftOut?: () => boolean;
	/** The suite may end well with no check at all: it leaves itself out where it cannot run. */
	mayLeaveItselfOut?: boolean;
}

export const SUITES: Record<'e2e' | 'lifecycle' | 'queueLoad', Suite> = {
	e2e: { name: 'e2e', script: 'test/n8n/e2e/run.js', args: [] },
	lifecycle: { name: 'lifecycle', script: 'test/n8n/reliability/lifecycle.js', args: ['--no-build'] },
	queueLoad: {
		name: 'queue load',
		script: 'test/n8n/reliability/queueLoad.js',
		args: ['--no-build'],
		leftOut: () => process.env.RECRUITING_E2E_QUEUE === '0',
		mayLeaveItselfOut: true,
	},
};

/** Where a suite's checks are recorded, one JSON object per line. */
export const checksFile = (suite: Suite) => path.join(CHECKS_DIR, `${suite.name.replace(/\W+/g, '-')}.jsonl`);
/** How a suite's process ended, for a reader: `exit 1`, `killed by SIGKILL`, `not started: …`. */
export const endedHow = (status: number | string) => (typeof status === 'number' ? `exit ${status}` : status);
/** How the suite's process ended: `{ status, seconds }`, status an exit code or why there is none. */
export const exitFile = (suite: Suite) => path.join(CHECKS_DIR, `${suite.name.replace(/\W+/g, '-')}.exit.json`);
