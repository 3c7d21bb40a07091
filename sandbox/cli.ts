/**
 * `npm run sandbox`: serves the sandbox until SIGINT, SIGTERM or SIGHUP (to this process or its
 * process group), or until the process that started it (npm) is gone.
 *   --port N (default 5730: no n8n component's default)  --host H  --company ID  --token T
 *   --applications N --jobs N --candidates N --tags N --email-templates N --user-categories N --job-notes-per-job N
 *   --spec-only (serve only the 18 endpoints of the spec, as a service without the full API)
 *   --rate-limit 10/s,burst=10[,retry-after=seconds|date|none][,info=none|x-ratelimit|x-ratelimit-delta|ratelimit][,shape=bucket|window]
 *     (a token bucket per access token, or a fixed window of burst per burst/rate seconds: see rateLimit.ts)
 */
import { createServer } from 'net';
import { startSandbox } from './server';
import { describeRateLimit, parseRateLimitSpec } from './rateLimit';
import type { SandboxOptions, SeedSizes } from './types';

const SIZE_FLAGS: Record<string, keyof SeedSizes> = {
	applications: 'applications',
	jobs: 'jobs',
	candidates: 'candidates',
	tags: 'tags',
	'email-templates': 'emailTemplates',
	'user-categories': 'userCategories',
	'job-notes-per-job': 'jobNotesPerJob',
};

/**
 * The CLI's default port, and the demo's. Not one of n8n's defaults: 5678 (editor and API), 5679
 * (n8n 2.x's task broker, on 127.0.0.1), 5680 and 5681 (the task-runner launcher's and n8n's
 * health checks in external runner mode).
 */
export const DEFAULT_PORT = 5730;

const USAGE = `Usage: npm run sandbox -- [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--company cmp_demo] [--token sandbox-token]
       [--${Object.keys(SIZE_FLAGS).join(' N] [--')} N] [--spec-only]
       [--rate-limit 10/s,burst=10[,retry-after=seconds|date|none][,info=none|x-ratelimit|x-ratelimit-delta|ratelimit][,shape=bucket|window|leaky][,status=429|503]]`;

/** Parses the command line (`--flag value` or `--flag=value`); throws on anything unknown. */
export function parseArgs(argv: readonly string[]): SandboxOptions {
	const options: SandboxOptions = { port: DEFAULT_PORT };
	const seed: SeedSizes = {};
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--spec-only') {
			options.specOnly = true;
			continue;
		}
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		const name = flag.replace(/^--/, '');
		const value = inline ?? argv[++i];
		if (!flag.startsWith('--') || value === undefined) throw new Error(`Expected --flag value, got '${argv[i - 1] ?? flag}'.\n${USAGE}`);
		const count = (): number => {
			if (!/^\d+$/.test(value)) throw new Error(`--${name} needs a whole number, got '${value}'.`);
			return Number(value);
		};
		if (name === 'port') options.port = count();
		else if (name === 'host') options.host = value;
		else if (name === 'company') options.companyId = value;
		else if (name === 'token') options.token = value;
		else if (name === 'rate-limit') options.rateLimit = parseRateLimitSpec(value);
		else if (SIZE_FLAGS[name]) seed[SIZE_FLAGS[name]] = count();
		else throw new Error(`Unknown flag --${name}.\n${USAGE}`);
	}
	return { ...options, seed };
}

/** Whether `port` can be listened on at `host` now. */
function portFree(port: number, host: string): Promise<boolean> {
	return new Promise((resolve) => {
		const probe = createServer();
		probe.once('error', () => resolve(false));
		probe.listen(port, host, () => probe.close(() => resolve(true)));
	});
}

/** The first port after `port` free at `host` (tried up to 50 on), else undefined. */
export async function nextFreePort(port: number, host: string): Promise<number | undefined> {
	for (let candidate = port + 1; candidate <= Math.min(port + 50, 65535); candidate++) {
		if (await portFree(candidate, host)) return candidate;
	}
	return undefined;
}

/** What to say when the port is taken: which port, what likely holds it, and the flag to pass. */
export function portInUseMessage(port: number, host: string, suggestion: number | undefined): string {
	const likely =
		port === 5679
			? ' (n8n 2.x runs its task broker on 127.0.0.1:5679)'
			: port === 5678
				? ' (n8n\'s default port)'
				: '';
	const instead =
		suggestion === undefined
			? 'Pass a free port: npm run sandbox -- --port N'
			: `Port ${suggestion} is free: npm run sandbox -- --port ${suggestion}`;
	return `The sandbox cannot listen on ${host}:${port}: the port is already in use${likely}. ${instead} ` +
		'(and use that port in the credential\'s Base URL).';
}

interface SandboxInfo {
	apiBase: string;
	counts: Record<string, number>;
	webhookIds: string[];
	customPipelineIds: string[];
	jobIds?: string[];
}

/**
 * The commands that make each of the polling trigger's events happen in this sandbox (scripts/demo.js
 * runs them through the control API), with the port flag when the port is not the default.
 */
export function eventCommands(sandboxUrl: string, jobIds: readonly string[], specOnly = false): string[] {
	const port = new URL(sandboxUrl).port;
	const flag = port === String(DEFAULT_PORT) ? '' : ` --sandbox-port ${port}`;
	const job = jobIds[0] ?? 'the first job';
	const rows: Array<[string, string]> = [
		['apply', `New Application: a candidate applies to ${job}`],
		['move', `Application Stage Changed: an application of ${job} moves one stage on`],
		['note', `New Job Note: a note is added to ${job}`],
		['feedback', `Feedback Completed: a reviewer completes feedback${specOnly ? ' (the trigger needs GET /feedback, which --spec-only leaves out)' : ''}`],
	];
	const width = Math.max(...rows.map(([name]) => `npm start -- ${name}${flag}`.length));
	return rows.map(([name, what]) => `    ${`npm start -- ${name}${flag}`.padEnd(width)}   # ${what}`);
}

/** What the CLI prints once listening: first the three values the Recruiting API credential takes. */
export function startupText(sandbox: { url: string; companyId: string; token: string }, info: SandboxInfo, options: SandboxOptions): string {
	return [
		`Recruiting sandbox listening on ${sandbox.url}`,
		'  For the Recruiting API credential in n8n:',
		`    Base URL:      ${sandbox.url}   (paste exactly this: the nodes add /v1.0/<company> themselves)`,
		`    Company ID:    ${sandbox.companyId}`,
		`    Access Token:  ${sandbox.token}`,
		`  Requests go to: ${info.apiBase}/…   (for curl: Authorization: Bearer ${sandbox.token})`,
		`  Webhook ids:    ${info.webhookIds.join(', ')}`,
		`  Pipelines:      ${info.customPipelineIds.join(', ')}`,
		`  Job IDs:        ${(info.jobIds ?? []).join(', ')}   (for the Polling Trigger's Job IDs)`,
		`  Records:        ${Object.entries(info.counts).map(([k, v]) => `${k} ${v}`).join(', ')}`,
		`  Rate limit:     ${describeRateLimit(options.rateLimit)}`,
		`  Control API:    ${sandbox.url}/__sandbox/info`,
		'  Make the Polling Trigger\'s events (in another terminal, in this repository; each is found at the next poll):',
		...eventCommands(sandbox.url, info.jobIds ?? [], options.specOnly),
		'Press Ctrl+C to stop.',
	].join('\n');
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	if (argv.includes('--help') || argv.includes('-h')) {
		console.log(USAGE);
		return;
	}
	const options = parseArgs(argv);
	const host = options.host ?? '127.0.0.1';
	let sandbox: Awaited<ReturnType<typeof startSandbox>>;
	try {
		sandbox = await startSandbox(options);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
		const port = options.port ?? DEFAULT_PORT;
		throw new Error(portInUseMessage(port, host, await nextFreePort(port, host)));
	}
	// Stops on SIGINT, SIGTERM or SIGHUP, whether sent to this process alone or to its group, and
	// when its parent goes away: npm forwards SIGINT and SIGTERM to the script it runs (package.json
	// execs this process, so no shell stands between), but dies of a SIGHUP without forwarding it.
	let stopping = false;
	const stop = (): void => {
		if (stopping) return;
		stopping = true;
		const force = setTimeout(() => process.exit(0), 3000);
		force.unref();
		void sandbox.close().then(() => process.exit(0));
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
	const parent = process.ppid;
	const watch = setInterval(() => {
		if (process.ppid !== parent) stop();
	}, 200);
	watch.unref();
	const info = (await (await fetch(`${sandbox.url}/__sandbox/info`)).json()) as SandboxInfo;
	console.log(startupText(sandbox, info, options));
}

if (require.main === module) {
	main().catch((error) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
