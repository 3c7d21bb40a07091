/**
 * `npm run sandbox` beside a real n8n (issue 33): a default port no n8n component uses, a taken
 * port named with the flag and a free port to pass instead (not a bare EADDRINUSE), the exact
 * value to paste into the credential's Base URL, and a stop on SIGINT, SIGTERM or SIGHUP whether
 * they reach npm alone or the whole process group (as test/demo/lifecycle.test.ts holds for
 * `npm start`). The signal cases run package.json's own `sandbox` script through the real npm,
 * with the build step swapped for a build made once here (tsc, into build/sandbox-cli-test).
 * Issue 43: it prints job IDs for the polling trigger's Job IDs and the `npm start -- …` commands
 * that make each of its events, which work as printed against it.
 */
import { execFileSync, spawn, type ChildProcess } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { DEFAULT_PORT, parseArgs, portInUseMessage, startupText } from '../../sandbox/cli';
import { checkBaseUrl } from '../../nodes/shared/baseUrl';
import { alive, listening, waitFor } from '../harness/processes';

const ROOT = path.join(__dirname, '..', '..');
const STOP_WITHIN_MS = 5000;
/** n8n's own default ports: editor/API, task broker, runner launcher and n8n health checks. */
const N8N_PORTS = [5678, 5679, 5680, 5681];

const sandboxScript = (): string =>
	(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.sandbox;

/** A free port on 127.0.0.1, released before it is returned. */
const freePort = (): Promise<number> =>
	new Promise((resolve) => {
		const server = net.createServer();
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});

describe('the default port and what the sandbox prints', () => {
	test('the default port is none of n8n\'s (5679 is n8n 2.x\'s task broker)', () => {
		expect(parseArgs([]).port).toBe(DEFAULT_PORT);
		expect(N8N_PORTS).not.toContain(DEFAULT_PORT);
	});

	test('a taken port: the message names it and the flag with a free port to pass instead', () => {
		const message = portInUseMessage(5679, '127.0.0.1', 5731);
		expect(message).toContain('127.0.0.1:5679');
		expect(message).toContain('task broker');
		expect(message).toContain('npm run sandbox -- --port 5731');
		expect(message).not.toMatch(/EADDRINUSE/);
		expect(portInUseMessage(5730, '127.0.0.1', undefined)).toContain('npm run sandbox -- --port N');
	});

	test('the Base URL line is the value the credential keeps as it is (the origin, not /v1.0/<company>)', () => {
		const text = startupText(
			{ url: 'http://127.0.0.1:5730', companyId: 'cmp_demo', token: 'sandbox-token' },
			{ apiBase: 'http://127.0.0.1:5730/v1.0/cmp_demo', counts: {}, webhookIds: [], customPipelineIds: [] },
			{},
		);
		const baseUrl = /Base URL: +(\S+)/.exec(text)?.[1];
		expect(baseUrl).toBe('http://127.0.0.1:5730');
		expect(checkBaseUrl(baseUrl, false)).toEqual({ baseUrl });
		expect(text).toMatch(/Company ID: +cmp_demo/);
		expect(text).toMatch(/Access Token: +sandbox-token/);
		expect(text).not.toMatch(/Base URL: +\S*\/v1\.0/);
	});

	test('it names job IDs for the polling trigger and the commands that make each of its events (issue 43)', () => {
		const info = { apiBase: '', counts: {}, webhookIds: [], customPipelineIds: [], jobIds: ['job_a', 'job_b'] };
		const text = startupText({ url: 'http://127.0.0.1:5730', companyId: 'cmp_demo', token: 'sandbox-token' }, info, {});
		expect(text).toMatch(/Job IDs: +job_a, job_b /);
		for (const name of ['apply', 'move', 'note', 'feedback']) expect(text).toMatch(new RegExp(`^ +npm start -- ${name} +# `, 'm'));
		expect(text).toMatch(/npm start -- move +# Application Stage Changed: an application of job_a/);
		// Another port: each command carries it, as npm start -- --help says.
		const other = startupText({ url: 'http://127.0.0.1:5731', companyId: 'cmp_demo', token: 'sandbox-token' }, info, { specOnly: true });
		expect(other).toMatch(/npm start -- note --sandbox-port 5731 +# New Job Note/);
		expect(other).toMatch(/npm start -- feedback --sandbox-port 5731 +# Feedback Completed: .*--spec-only/);
	});
});

describe('npm run sandbox, run as a user runs it', () => {
	let dir: string;
	let cli: string;
	beforeAll(() => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'recruiting-sandbox-cli-'));
		// Inside the project (build/ is ignored), so the sandbox finds its packages in node_modules.
		const out = path.join(ROOT, 'build', 'sandbox-cli-test');
		execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.sandbox.json'), '--outDir', out], { stdio: 'inherit' });
		cli = path.join(out, 'sandbox', 'cli.js');
	}, 120000);
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	test('package.json execs the CLI after the build, so npm\'s forwarded signals reach it (a shell in between keeps it running)', () => {
		expect(sandboxScript()).toBe('npm run build:sandbox && exec node build/sandbox/sandbox/cli.js');
	});

	test('a taken port: exits 1 saying so and which port to pass, not a bare EADDRINUSE', async () => {
		const holder = net.createServer();
		await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
		const { port } = holder.address() as net.AddressInfo;
		try {
			const child = spawn(process.execPath, [cli, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
			let stderr = '';
			child.stderr.on('data', (d) => (stderr += d));
			const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
			expect(code).toBe(1);
			expect(stderr).toContain(`127.0.0.1:${port}: the port is already in use`);
			expect(stderr).toMatch(/npm run sandbox -- --port \d+/);
			expect(stderr).not.toMatch(/EADDRINUSE/);
		} finally {
			holder.close();
		}
	}, 30000);

	test('the commands its start-up text prints work as printed: each makes its entry in the lists the polling trigger reads', async () => {
		const port = await freePort();
		const child = spawn(process.execPath, [cli, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
		try {
			let out = '';
			child.stdout!.on('data', (d) => (out += d));
			await waitFor('the start-up text', () => (out.includes('Press Ctrl+C') ? true : undefined), 20000);
			const jobId = /Job IDs: +(job_\w+)/.exec(out)?.[1];
			const lines = [...out.matchAll(/^ +npm start -- (\w+) --sandbox-port (\d+) +# /gm)];
			expect(lines.map((m) => [m[1], Number(m[2])])).toEqual(['apply', 'move', 'note', 'feedback'].map((name) => [name, port]));
			const api = async (p: string) =>
				(await (await fetch(`http://127.0.0.1:${port}/v1.0/cmp_demo${p}`, { headers: { authorization: 'Bearer sandbox-token' } })).json()) as { items: Array<Record<string, unknown>> };
			const said: Record<string, string> = {};
			for (const [, name] of lines) {
				said[name] = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'demo.js'), name, '--sandbox-port', String(port)], { encoding: 'utf8' });
			}
			const applied = /\((app_\w+), job /.exec(said.apply)![1];
			const moved = /application (app_\w+) .* moved to (\w+)/.exec(said.move)!;
			const note = /note (note_\w+) added/.exec(said.note)![1];
			const feedback = /feedback (fdbk_\w+) /.exec(said.feedback)![1];
			expect((await api('/applications?sort=-applied_at&page_size=1')).items[0]).toMatchObject({ id: applied, job: { id: jobId } });
			expect((await api(`/applications?job_id=${jobId}&page_size=100`)).items).toContainEqual(expect.objectContaining({ id: moved[1], stage: expect.objectContaining({ parent_stage: moved[2] }) }));
			expect((await api(`/jobs/${jobId}/notes?page_size=100`)).items.map((n) => n.id)).toContain(note);
			expect((await api('/feedback?sort=-date_complete&page_size=1')).items[0]).toMatchObject({ id: feedback, status: 'complete' });
		} finally {
			child.kill('SIGTERM');
		}
	}, 40000);

	describe.each([
		['SIGINT', 'npm'],
		['SIGTERM', 'npm'],
		['SIGHUP', 'npm'],
		['SIGINT', 'group'],
		['SIGTERM', 'group'],
		['SIGHUP', 'group'],
	] as const)('%s to %s', (signal, target) => {
		let npm: ChildProcess | undefined;
		let sandboxPid = 0;

		afterEach(() => {
			// Whatever a failed run left: by pid, never by name.
			for (const pid of [sandboxPid, npm?.pid ?? 0]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
		});

		test(`stops the sandbox and frees its port within ${STOP_WITHIN_MS / 1000} s`, async () => {
			const project = mkdtempSync(path.join(dir, 'project-'));
			const script = sandboxScript().replace('npm run build:sandbox', 'true').replace('build/sandbox/sandbox/cli.js', JSON.stringify(cli));
			expect(script).toContain(JSON.stringify(cli));
			writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'sandbox-stop', version: '1.0.0', private: true, scripts: { sandbox: script } }));
			const port = await freePort();
			const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
			// A process group of its own, as a terminal gives a command (`group`: the terminal's Ctrl-C or hang-up).
			npm = spawn('npm', ['run', 'sandbox', '--silent', '--', '--port', String(port)], { cwd: project, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
			let out = '';
			npm.stdout!.on('data', (d) => (out += d));
			const npmPid = npm.pid!;
			await waitFor('the sandbox to print its Base URL', () => (out.includes('Press Ctrl+C') ? true : undefined), 20000);
			expect(out).toContain(`Base URL:      http://127.0.0.1:${port} `);
			sandboxPid = Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(npmPid)], { encoding: 'utf8' }).trim().split(/\s+/)[0]);
			expect(sandboxPid).toBeGreaterThan(0);
			expect(await listening(port)).toBe(true);

			const t0 = Date.now();
			if (target === 'npm') process.kill(npmPid, signal);
			else process.kill(-npmPid, signal);
			await waitFor(
				'the sandbox to end and its port to close',
				async () => (alive(sandboxPid) || (await listening(port)) ? undefined : true),
				STOP_WITHIN_MS + 5000,
			);
			const ms = Date.now() - t0;
			expect({ signal, target, ms, withinBound: ms <= STOP_WITHIN_MS }).toEqual({ signal, target, ms, withinBound: true });
			if (alive(npmPid)) process.kill(npmPid, 'SIGKILL');
		}, 40000);
	});
});
