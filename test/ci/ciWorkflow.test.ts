/**
 * The hosted CI (.github/workflows/ci.yml, issue 43): on every pull request and push, Node 20,
 * `npm ci`, lint, the tests' types, build, the sandbox's build, n8n's scanner and the in-process
 * suites; each `npm run` names a script package.json has, `RECRUITING_SKIP_E2E=1 npm test` is the
 * unit project alone (jest.config.js), and docs/development.md says the same.
 */
import { readFileSync } from 'fs';
import path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const workflow = readFileSync(path.join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8');
const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The `run:` commands, in order. */
const runs = [...workflow.matchAll(/^\s+- run: (.+)$/gm)].map((m) => m[1].trim());

test('runs on every pull request and every push, on Node 20', () => {
	expect(workflow).toMatch(/^on:\n {2}pull_request:\n {2}push:\n/m);
	expect(workflow).toMatch(/node-version: '20\.x'/);
});

test('installs, lints, type-checks, builds, scans, then runs the in-process suites', () => {
	expect(runs).toEqual([
		'npm ci --no-audit --no-fund',
		'npm run lint',
		'npm run typecheck',
		'npm run build',
		'npm run build:sandbox',
		'npm run scan',
		'npm test',
	]);
	for (const run of runs.filter((r) => r.startsWith('npm run '))) expect(Object.keys(scripts)).toContain(run.slice('npm run '.length));
	expect(workflow).toMatch(/- run: npm test\n\s+env:\n\s+RECRUITING_SKIP_E2E: '1'\n/);
});

test('RECRUITING_SKIP_E2E=1 npm test is the unit project alone: no real n8n on the hosted runner', () => {
	const saved = { argv: process.argv, skip: process.env.RECRUITING_SKIP_E2E };
	process.argv = ['node', 'jest'];
	process.env.RECRUITING_SKIP_E2E = '1';
	try {
		jest.isolateModules(() => {
			const config = require('../../jest.config.js') as { projects: Array<{ displayName: string }> };
			expect(config.projects.map((p) => p.displayName)).toEqual(['unit']);
		});
	} finally {
		process.argv = saved.argv;
		if (saved.skip === undefined) delete process.env.RECRUITING_SKIP_E2E;
		else process.env.RECRUITING_SKIP_E2E = saved.skip;
	}
});

test('docs/development.md names the same steps for GitHub Actions', () => {
	const docs = readFileSync(path.join(ROOT, 'docs', 'development.md'), 'utf8');
	const row = docs.split('\n').find((line) => line.startsWith('| GitHub Actions, `.github/workflows/ci.yml`'));
	expect(row).toBeDefined();
	for (const run of runs.slice(1, -1)) expect(row).toContain(`\`${run}\``);
	expect(row).toContain('`RECRUITING_SKIP_E2E=1 npm test`');
	expect(row).toContain('each pull request and each push');
});
