/**
 * Jest runs two projects, through ts-jest against the TypeScript sources:
 * - unit: every suite in test/ except test/n8n (sandbox contract, nodes through n8n's engine,
 *   trigger, reliability);
 * - n8n: the suites that need a real n8n (test/n8n/suites.ts), run by its globalSetup, each of
 *   their checks reported as a test. RECRUITING_SKIP_E2E=1 leaves the project out, and so does a
 *   filter (a path, `-t name`) that names neither test/n8n nor a project with --selectProjects:
 *   it would start minutes of real n8n, and its crash could fall outside the filter.
 */
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

const args = process.argv.slice(2);
const filtered = args.some((a) => !a.startsWith('-') || a === '-t' || a.startsWith('--testNamePattern'));
const n8nAskedFor = args.some((a) => a.startsWith('--selectProjects') || a.includes('test/n8n'));
const withN8n = process.env.RECRUITING_SKIP_E2E !== '1' && (!filtered || n8nAskedFor);

module.exports = {
	projects: withN8n ? [unit, n8n] : [unit],
	testTimeout: 30000,
};
