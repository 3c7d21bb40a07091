/** Shared set-up for the sandbox contract tests: one sandbox per test file, a small fetch wrapper. */
import { startSandbox } from '../../sandbox';
import type { Sandbox, SandboxOptions } from '../../sandbox';
import { seed } from '../../sandbox/seed';
import { Store } from '../../sandbox/store';

export interface ApiResponse {
	status: number;
	headers: Headers;
	/** Parsed JSON, or undefined when the body is empty or not JSON. */
	body: any;
	text: string;
}

export interface CallOptions {
	/** null = no Authorization header; a string = that token. */
	token?: string | null;
	company?: string;
	/** Sent as is instead of JSON.stringify(body). */
	raw?: string;
	headers?: Record<string, string>;
}

/** Starts a sandbox for the file (beforeAll) and closes it (afterAll). */
export function useSandbox(options: SandboxOptions = {}) {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, ...options });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	const sb = (): Sandbox => {
		if (!sandbox) throw new Error('The sandbox is not started yet.');
		return sandbox;
	};
	async function call(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<ApiResponse> {
		const s = sb();
		const headers: Record<string, string> = { ...opts.headers };
		if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? s.token}`;
		const payload = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
		if (payload !== undefined) headers['content-type'] ??= 'application/json';
		const prefix = path.startsWith('/__sandbox') ? '' : `/v1.0/${opts.company ?? s.companyId}`;
		return request(`${s.url}${prefix}${path}`, { method, headers, body: payload });
	}
	return { sb, call };
}

export async function request(url: string, init: RequestInit = {}): Promise<ApiResponse> {
	const res = await fetch(url, init);
	const text = await res.text();
	let body: unknown;
	try {
		body = text === '' ? undefined : JSON.parse(text);
	} catch {
		body = undefined;
	}
	return { status: res.status, headers: res.headers, body, text };
}

/** The records the default seed makes, computed independently of any running sandbox. */
export function seededStore(companyId = 'cmp_demo'): Store {
	const store = new Store();
	seed(store, companyId);
	return store;
}

/** Polls until `check` returns a value (not undefined), or fails after `ms` (a guard against a hang, generous for a loaded machine; not a speed bound). */
export async function waitFor<T>(check: () => T | undefined, ms = 15_000): Promise<T> {
	const until = Date.now() + ms;
	for (;;) {
		const value = check();
		if (value !== undefined) return value;
		if (Date.now() > until) throw new Error('waitFor timed out');
		await new Promise((r) => setTimeout(r, 10));
	}
}
