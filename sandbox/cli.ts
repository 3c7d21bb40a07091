/**
 * `npm run sandbox`: serves the sandbox until SIGINT/SIGTERM.
 *   --port N (default 5679)  --host H  --company ID  --token T
 *   --applications N --jobs N --candidates N --tags N --email-templates N --user-categories N --job-notes-per-job N
 *   --spec-only (serve only the 18 endpoints of the spec, as a service without the full API)
 *   --rate-limit 10/s,burst=10[,retry-after=seconds|date|none][,info=none|x-ratelimit|x-ratelimit-delta|ratelimit][,shape=bucket|window]
 *     (a token bucket per access token, or a fixed window of burst per burst/rate seconds: see rateLimit.ts)
 */
import { startSandbox } from './server';
import { parseRateLimitSpec } from './rateLimit';
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

const USAGE = `Usage: npm run sandbox -- [--port 5679] [--host 127.0.0.1] [--company cmp_demo] [--token sandbox-token]
       [--${Object.keys(SIZE_FLAGS).join(' N] [--')} N] [--spec-only]
       [--rate-limit 10/s,burst=10[,retry-after=seconds|date|none][,info=none|x-ratelimit|x-ratelimit-delta|ratelimit]]`;

/** Parses the command line (`--flag value` or `--flag=value`); throws on anything unknown. */
export function parseArgs(argv: readonly string[]): SandboxOptions {
	const options: SandboxOptions = { port: 5679 };
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

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	if (argv.includes('--help') || argv.includes('-h')) {
		console.log(USAGE);
		return;
	}
	const options = parseArgs(argv);
	const sandbox = await startSandbox(options);
	const info = (await (await fetch(`${sandbox.url}/__sandbox/info`)).json()) as {
		apiBase: string;
		counts: Record<string, number>;
		webhookIds: string[];
		customPipelineIds: string[];
	};
	console.log(
		[
			`Recruiting sandbox listening on ${sandbox.url}`,
			`  API base URL:  ${info.apiBase}`,
			`  Company id:    ${sandbox.companyId}`,
			`  Token:         ${sandbox.token}   (Authorization: Bearer ${sandbox.token})`,
			`  Webhook ids:   ${info.webhookIds.join(', ')}`,
			`  Pipelines:     ${info.customPipelineIds.join(', ')}`,
			`  Records:       ${Object.entries(info.counts).map(([k, v]) => `${k} ${v}`).join(', ')}`,
			`  Rate limit:    ${options.rateLimit ? `${options.rateLimit.shape === 'window' ? `${options.rateLimit.burst} per ${options.rateLimit.burst / options.rateLimit.rate} s window` : `${options.rateLimit.rate}/s, burst ${options.rateLimit.burst}`} per token (Retry-After: ${options.rateLimit.retryAfter ?? 'seconds'}, headers: ${options.rateLimit.info ?? 'none'})` : 'none'}`,
			`  Control API:   ${sandbox.url}/__sandbox/info`,
			'Press Ctrl+C to stop.',
		].join('\n'),
	);
	const stop = (): void => {
		void sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
