/**
 * Stopping `npm start` (issue 26): SIGINT, SIGTERM and SIGHUP sent to the npm process alone (an
 * IDE's stop button, a process manager, `kill <pid>`) stop everything the demo started within
 * 5 s, the whole process group included, and free every port. A full demo installs and starts a
 * real n8n (minutes); this runs package.json's own `start` command through the real npm with
 * scripts/demo.js swapped for fixtures/supervised.js, which sets up the same supervisor
 * (scripts/n8n/cache.js's stopOnSignals, trackChild, markGraceful) around an in-process server
 * and a detached process group that leaves a child behind, as n8n's task runners are.
 */
import { spawn, type ChildProcess } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import os from 'os';
import path from 'path';
import { alive, listening, waitFor } from '../harness/processes';

const ROOT = path.join(__dirname, '..', '..');
const STOP_WITHIN_MS = 5000;

interface State {
	pids: number[];
	ports: number[];
}

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(path.join(os.tmpdir(), 'recruiting-demo-stop-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('package.json execs the demo, so npm\'s forwarded SIGINT and SIGTERM reach it (a shell in between would swallow SIGINT)', () => {
	const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
	expect(start).toBe('exec node scripts/demo.js');
	// demo.js sets up the supervisor as the fixture does.
	const demo = readFileSync(path.join(ROOT, 'scripts', 'demo.js'), 'utf8');
	expect(demo).toMatch(/stopOnSignals\(\{ boundMs: STOP_BOUND_MS, withParent: true \}\)/);
	expect(demo).toMatch(/const STOP_BOUND_MS = 4000;/);
});

describe.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s to the npm start process', (signal) => {
	let npm: ChildProcess | undefined;
	let state: State | undefined;

	afterEach(() => {
		// Whatever a failed run left: by pid, never by name.
		for (const pid of [...(state?.pids ?? []), npm?.pid ?? 0]) {
			if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
		}
	});

	test(`stops every process it started and frees every port within ${STOP_WITHIN_MS / 1000} s`, async () => {
		const project = mkdtempSync(path.join(dir, 'project-'));
		const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
		const fixture = path.join(__dirname, 'fixtures', 'supervised.js');
		writeFileSync(
			path.join(project, 'package.json'),
			JSON.stringify({ name: 'demo-stop', version: '1.0.0', private: true, scripts: { start: start.replace('scripts/demo.js', JSON.stringify(fixture)) } }),
		);
		const stateFile = path.join(project, 'state.json');
		// As a user's shell would start it: none of this test runner's npm_* variables.
		const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
		npm = spawn('npm', ['start', '--silent', '--', stateFile], { cwd: project, env, stdio: 'ignore' });
		const npmPid = npm.pid!;
		state = await waitFor('the fixture to start', () => (existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State) : undefined), 20000);
		expect(state.pids).toHaveLength(3);
		for (const port of state.ports) expect(await listening(port)).toBe(true);

		const t0 = Date.now();
		process.kill(npmPid, signal);
		const pids = [npmPid, ...state.pids];
		await waitFor(
			'every process to end and every port to close',
			async () => {
				if (pids.some(alive)) return undefined;
				for (const port of state!.ports) if (await listening(port)) return undefined;
				return true;
			},
			STOP_WITHIN_MS + 5000,
		);
		const ms = Date.now() - t0;
		expect({ signal, ms, withinBound: ms <= STOP_WITHIN_MS }).toEqual({ signal, ms, withinBound: true });
	}, 40000);
});
