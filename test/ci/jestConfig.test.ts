/**
 * jest.config.js decides from the command line whether the real-n8n project runs: a filter (a
 * path, `-t name`, --onlyChanged, ...) leaves it out unless it names test/n8n or selects projects;
 * any other argument, an option's value included, keeps it. Loaded here as Jest loads it, with
 * the command line in process.argv.
 */
const CONFIG = '../../jest.config.js';

interface Config {
	projects: Array<{ displayName: string }>;
	bail?: number;
}

function load(args: string[], env: Record<string, string | undefined> = {}): Config {
	const saved = { argv: process.argv, env: { ...process.env } };
	process.argv = ['node', 'jest', ...args];
	delete process.env.RECRUITING_SKIP_E2E;
	delete process.env.RECRUITING_BAIL;
	Object.assign(process.env, env);
	try {
		let config: Config | undefined;
		jest.isolateModules(() => {
			config = require(CONFIG) as Config;
		});
		return config!;
	} finally {
		process.argv = saved.argv;
		process.env = saved.env;
	}
}

const projects = (args: string[], env?: Record<string, string>) => load(args, env).projects.map((p) => p.displayName);

test.each([
	[[]],
	[['--maxWorkers', '2']],
	[['-w', '2']],
	[['--maxWorkers=2']],
	[['--bail']],
	[['--ci', '--json', '--outputFile=build/jest-results.json', '--reporters=default', '--reporters=x.js']],
	[['--ci', '--json', '--outputFile', 'build/jest-results.json']],
	[['--testTimeout', '60000', '--verbose']],
	[['--config', 'jest.config.js']],
	[['--reporters', 'default']],
	[['--runInBand', '--silent', '--logHeapUsage']],
	[['--coverage', '--coverageDirectory', 'build/coverage']],
	[['--testPathIgnorePatterns', 'redos']],
])('not a filter, the real-n8n project stays: %j', (args) => {
	expect(projects(args)).toEqual(['unit', 'n8n']);
});

test.each([
	[['test/sandbox']],
	[['--maxWorkers', '2', 'test/sandbox']],
	[['-t', 'paging']],
	[['--testNamePattern', 'paging']],
	[['--testNamePattern=paging']],
	[['--testPathPattern', 'sandbox']],
	[['--onlyChanged']],
	[['-o']],
	[['--changedSince', 'main']],
	[['--lastCommit']],
	[['--findRelatedTests', 'nodes/Recruiting/Recruiting.node.ts']],
	[['--shard', '1/2']],
])('a filter leaves the real-n8n project out: %j', (args) => {
	expect(projects(args)).toEqual(['unit']);
});

test.each([[['test/n8n/e2e.test.ts']], [['--selectProjects', 'n8n']], [['--selectProjects', 'unit', 'n8n']], [['--testPathPattern', 'test/n8n']]])(
	'a filter that names test/n8n or selects projects keeps it: %j',
	(args) => {
		expect(projects(args)).toEqual(['unit', 'n8n']);
	},
);

test('RECRUITING_SKIP_E2E=1 leaves it out whatever the arguments', () => {
	expect(projects([], { RECRUITING_SKIP_E2E: '1' })).toEqual(['unit']);
	expect(projects(['--maxWorkers', '2'], { RECRUITING_SKIP_E2E: '1' })).toEqual(['unit']);
});

test('--bail N, which Jest 29 reads as --bail and a path filter N, is refused with why; npm test passes N as RECRUITING_BAIL', () => {
	expect(() => load(['--bail', '1'])).toThrow(/Jest 29 takes 1 for a test path filter/);
	expect(() => load(['-b', '3'])).toThrow(/npm test -- --bail N/);
	const config = load(['--maxWorkers', '2'], { RECRUITING_BAIL: '3' });
	expect([config.projects.map((p) => p.displayName), config.bail]).toEqual([['unit', 'n8n'], 3]);
	expect(load([]).bail).toBeUndefined();
});

test('npm test (scripts/test.js) takes --bail N, -b N and --bail=N out of Jest\'s arguments as RECRUITING_BAIL', () => {
	const { bailApart } = require('../../scripts/bailArg') as { bailApart(args: string[]): { jestArgs: string[]; bail?: string } };
	expect(bailApart(['--bail', '2', '--maxWorkers', '2'])).toEqual({ jestArgs: ['--maxWorkers', '2'], bail: '2' });
	expect(bailApart(['-b', '1'])).toEqual({ jestArgs: [], bail: '1' });
	expect(bailApart(['--bail=3', 'test/sandbox'])).toEqual({ jestArgs: ['test/sandbox'], bail: '3' });
	// A bare --bail is Jest's own flag (stop after the first failing suite) and stays.
	expect(bailApart(['--bail', 'test/sandbox'])).toEqual({ jestArgs: ['--bail', 'test/sandbox'], bail: undefined });
	// What is left keeps the real-n8n project, with bail set from RECRUITING_BAIL.
	const { jestArgs, bail } = bailApart(['--bail', '2', '--maxWorkers', '2']);
	const config = load(jestArgs, { RECRUITING_BAIL: bail! });
	expect([config.projects.map((p) => p.displayName), config.bail]).toEqual([['unit', 'n8n'], 2]);
});
