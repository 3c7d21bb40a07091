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
const path = require('path');

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

/** The arguments as Jest parses them: the same yargs and option table as jest-cli (build/run.js). */
function parseAsJest(args) {
	const cliDir = path.dirname(require.resolve('jest-cli/package.json'));
	const yargs = require(require.resolve('yargs', { paths: [cliDir] }));
	const { options } = require(path.join(cliDir, 'build', 'args.js'));
	return yargs(args).help(false).version(false).exitProcess(false).options(options).parseSync();
}

/** Options that choose which tests run; every other option only says how they run. */
const FILTERS = ['testPathPattern', 'testNamePattern', 'findRelatedTests', 'onlyChanged', 'onlyFailures', 'changedSince', 'lastCommit', 'watch', 'testMatch', 'testRegex', 'shard'];

/** Which projects a command line runs: `{ withN8n, bail }`; throws where Jest would misread it. */
function projectsFor(args, env = process.env) {
	const bailAt = args.findIndex((a) => a === '--bail' || a === '-b');
	if (bailAt >= 0 && /^\d+$/.test(args[bailAt + 1] ?? '')) {
		throw new Error(
			`${args[bailAt]} ${args[bailAt + 1]}: Jest 29 takes ${args[bailAt + 1]} for a test path filter (--bail is a flag). ` +
				'Write --bail (stop after the first failing suite), or npm test -- --bail N.',
		);
	}
	const argv = parseAsJest(args);
	const paths = [...argv._, ...(argv.testPathPattern ?? [])].map(String);
	const filtered = paths.length > 0 || FILTERS.some((name) => argv[name] !== undefined && argv[name] !== false);
	const n8nAskedFor = argv.selectProjects !== undefined || paths.some((p) => p.includes('test/n8n'));
	const bail = /^\d+$/.test(env.RECRUITING_BAIL ?? '') ? Number(env.RECRUITING_BAIL) : undefined;
	return { withN8n: env.RECRUITING_SKIP_E2E !== '1' && (!filtered || n8nAskedFor), bail };
}

const { withN8n, bail } = projectsFor(process.argv.slice(2));

module.exports = {
	projects: withN8n ? [unit, n8n] : [unit],
	testTimeout: 30000,
	...(bail !== undefined && { bail }),
};
