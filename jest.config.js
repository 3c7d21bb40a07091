/**
 * Jest runs two projects, through ts-jest against the TypeScript sources:
 * - unit: every suite in test/ except test/n8n (sandbox contract, nodes through n8n's engine,
 *   trigger, reliability);
 * - n8n: the suites that need a real n8n (test/n8n/suites.ts), run by its globalSetup, each of
 *   their checks reported as a test. Jest runs that globalSetup only when a test file of the
 *   project is selected; RECRUITING_SKIP_E2E=1 leaves the project out.
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

module.exports = {
	projects: process.env.RECRUITING_SKIP_E2E === '1' ? [unit] : [unit, n8n],
	testTimeout: 30000,
};
