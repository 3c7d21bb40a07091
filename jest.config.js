/**
 * Jest runs two projects, through ts-jest against the TypeScript sources:
 * - unit: every suite in test/ except test/n8n (sandbox contract, nodes through n8n's engine,
 *   trigger, reliability);
 * - n8n: the suites that need a real n8n (test/n8n/suites.ts), run by its globalSetup, each of
 *   their checks reported as a test. RECRUITING_SKIP_E2E=1 leaves the project out, and so does a
 *   filter (a path, `-t name`, --onlyChanged, ...) that names neither test/n8n nor a project with
 *   --selectProjects: it would start minutes of real n8n, and its crash could fall outside the
 *   filter. Any other argument (`--maxWorkers 2`, `--bail`, `--ci`) keeps it: the arguments are
 *   read as Jest reads them (its own yargs and option table), so an option's value is never taken
 *   for a path.
 *
 * `--bail N` (or `-b N`): Jest 29 declares --bail a flag, so it reads N as a test path filter and
 * `--bail=N` as 0. `npm test -- --bail N` passes N here as RECRUITING_BAIL instead
 * (scripts/test.js); `npx jest --bail N` is refused with that explanation.
 */
const { projectsFor } = require('./scripts/jestProjects');

const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] };

const unit = {
	displayName: 'unit',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/n8n/'],
	transform,
};

const n8n = {
	displayName: 'n8n',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/n8n'],
	testMatch: ['**/*.test.ts'],
	globalSetup: '<rootDir>/test/n8n/globalSetup.ts',
	transform,
};

const { withN8n, bail } = projectsFor(process.argv.slice(2));

module.exports = {
	projects: withN8n ? [unit, n8n] : [unit],
	testTimeout: 30000,
	...(bail !== undefined && { bail }),
};
