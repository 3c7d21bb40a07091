'use strict';
/**
 * Which of Jest's projects a command line runs, read as Jest reads it: jest.config.js builds its
 * projects from it, and `npm test` (scripts/test.js) decides from it whether the real-n8n suites
 * run beside the unit project.
 */
const path = require('path');

/** The arguments as Jest parses them: the same yargs and option table as jest-cli (build/run.js). */
function parseAsJest(args) {
	const cliDir = path.dirname(require.resolve('jest-cli/package.json'));
	const yargs = require(require.resolve('yargs', { paths: [cliDir] }));
	const { options } = require(path.join(cliDir, 'build', 'args.js'));
	return yargs(args).help(false).version(false).exitProcess(false).options(options).parseSync();
}

/** Options that choose which tests run; every other option only says how they run. */
const FILTERS = ['testPathPattern', 'testNamePattern', 'findRelatedTests', 'onlyChanged', 'onlyFailures', 'changedSince', 'lastCommit', 'watch', 'testMatch', 'testRegex', 'shard'];

/**
 * Which projects a command line runs: `{ withN8n, selected, bail }` (`selected`: the projects named
 * with --selectProjects, if any); throws where Jest would misread it.
 */
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
	return { withN8n: env.RECRUITING_SKIP_E2E !== '1' && (!filtered || n8nAskedFor), selected: argv.selectProjects, bail };
}

module.exports = { parseAsJest, projectsFor };
