/**
 * The Recruiting node against the sandbox, over real HTTP, through n8n's own engine:
 * `const fx = await startRecruitingFixture(); const { items, error } = await fx.run({ resource, operation, ... })`.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { startSandbox, type Sandbox, type SandboxOptions, type SeedSizes } from '../../sandbox';
import { runNode, type RunNodeResult } from '../harness';

export type RunResult = RunNodeResult;

export interface RunOptions {
	/** Items the node receives; default one empty item. */
	input?: IDataObject[];
	/** The node's "Continue (using error output)" setting off, "Continue" on. */
	continueOnFail?: boolean;
	/** Overrides of the credential values (e.g. a wrong `accessToken`). */
	credentials?: Partial<{ baseUrl: string; companyId: string; accessToken: string }>;
	/**
	 * The node's version; default 1, whose Get operations output the service's full resource, as
	 * these suites assert. 1.1 adds Simplify (on by default); test/recruiting/simplify.test.ts.
	 */
	typeVersion?: number;
	/** Run the node as n8n runs it as an AI agent's tool: its `recruitingTool` variant. */
	asTool?: boolean;
}

export interface RecruitingFixture {
	sandbox: Sandbox;
	/** The credential values `run` uses. */
	credentials: ICredentialDataDecryptedObject;
	run(parameters: INodeParameters, options?: RunOptions): Promise<RunResult>;
	close(): Promise<void>;
}

/**
 * The node's AI-tool variant as n8n's CLI builds it for a node with `usableAsTool`
 * (`convertNodeToAiTool`: the type name gains `Tool`, which turns on `@tool` display options, and
 * the tool description fields are added). Inputs and outputs stay `main` so the harness can run it
 * like any node; the agent's side of a tool call is exercised in real n8n (test/n8n/e2e).
 */
export function toolVariant(node: Recruiting): Recruiting {
	const variant = Object.create(node) as Recruiting;
	variant.description = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
		usableAsTool: undefined,
		// As n8n's convertNodeToAiTool: its own Tool Description fields only for a node that declares none.
		properties: node.description.properties.some((property) => property.name === 'toolDescription')
			? node.description.properties
			: [
					{
						displayName: 'Tool Description',
						name: 'descriptionType',
						type: 'options',
						noDataExpression: true,
						options: [
							{ name: 'Set Automatically', value: 'auto' },
							{ name: 'Set Manually', value: 'manual' },
						],
						default: 'auto',
					},
					{
						displayName: 'Description',
						name: 'toolDescription',
						type: 'string',
						default: node.description.description,
						displayOptions: { show: { descriptionType: ['manual'] } },
					},
					...node.description.properties,
				],
	};
	return variant;
}

/** `sandboxOptions` sets anything else of the sandbox (token, company…). */
export async function startRecruitingFixture(
	seed?: SeedSizes,
	sandboxOptions: SandboxOptions = {},
): Promise<RecruitingFixture> {
	const sandbox = await startSandbox({ port: 0, ...sandboxOptions, seed: seed ?? sandboxOptions.seed });
	// The token as the sandbox accepts it at each run (tests rotate it).
	const credentials = {
		baseUrl: sandbox.url,
		companyId: sandbox.companyId,
		get accessToken() {
			return sandbox.token;
		},
	};
	const node = new Recruiting();
	const tool = toolVariant(node);
	const credentialType = new RecruitingApi();
	return {
		sandbox,
		credentials,
		async run(parameters, options = {}) {
			const result = await runNode({
				nodeTypes: { recruiting: node, recruitingTool: tool },
				node: {
					type: options.asTool ? 'recruitingTool' : 'recruiting',
					typeVersion: options.typeVersion ?? 1,
					parameters,
					...(options.continueOnFail && { onError: 'continueRegularOutput' as const }),
				},
				input: options.input,
				credentials: { recruitingApi: { ...credentials, ...options.credentials } },
				credentialTypes: [credentialType],
			});
			// What the service would let pass (a tag field beyond { id, name }) fails the test here.
			const violations = sandbox.violations.splice(0);
			if (violations.length > 0) {
				const lines = violations.map(({ method, path, problem }) => `${method} ${path}: ${problem}`);
				throw new Error(`The node broke the API contract (sandbox violations):\n${lines.join('\n')}`);
			}
			return result;
		},
		close: async () => await sandbox.close(),
	};
}

/**
 * The fixture of one test file: started before its tests, closed after them, and reseeded (then
 * given `records`) before each test. Its `sandbox` and `run` are usable inside the tests.
 */
export function useRecruitingFixture(seed: SeedSizes, records: (sandbox: Sandbox) => void = () => {}): RecruitingFixture {
	let fixture: RecruitingFixture | undefined;
	const started = () => {
		if (!fixture) throw new Error('useRecruitingFixture: used outside a test');
		return fixture;
	};
	beforeAll(async () => {
		fixture = await startRecruitingFixture(seed);
	});
	afterAll(async () => await fixture?.close());
	beforeEach(() => {
		started().sandbox.reset(seed);
		// A token of its own per test: a 429's pause or pace (kept per credential) must not carry into the next test.
		started().sandbox.rotateToken();
		records(started().sandbox);
	});
	return {
		get sandbox() {
			return started().sandbox;
		},
		get credentials() {
			return started().credentials;
		},
		run: async (parameters, options) => await started().run(parameters, options),
		close: async () => await started().close(),
	};
}

/* Helpers for the node tests. */

/** The raw path the node must request: `/v1.0/{company}/{segment}/…`, each segment percent-encoded. */
export function apiPath(sandbox: Sandbox, ...segments: string[]): string {
	return ['v1.0', sandbox.companyId, ...segments].map((s) => '/' + encodeURIComponent(s)).join('');
}

/**
 * Every item of a list, read straight from the sandbox (not through the node), page by page;
 * the recorded requests are cleared afterwards so a test sees only the node's own.
 */
export async function listDirect(
	sandbox: Sandbox,
	segments: string[],
	query: Record<string, string> = {},
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const params = new URLSearchParams({ ...query, page: String(page), page_size: '100' });
		const response = await fetch(`${sandbox.url}${apiPath(sandbox, ...segments)}?${params}`, {
			headers: { authorization: `Bearer ${sandbox.token}` },
		});
		if (!response.ok) throw new Error(`listDirect: HTTP ${response.status} ${await response.text()}`);
		const envelope = (await response.json()) as { items: IDataObject[]; meta: { has_next_page: boolean } };
		items.push(...envelope.items);
		if (!envelope.meta.has_next_page) break;
	}
	sandbox.clearRequests();
	return items;
}

/** The json of each output item. */
export const jsonOf = (result: RunResult): IDataObject[] => result.items.map((item) => item.json);

/** The ids of the output items, in order. */
export const idsOf = (result: RunResult): string[] => result.items.map((item) => String(item.json.id));

/** The error n8n recorded, with the fields the tests look at. */
export function errorOf(result: RunResult): { message: string; description: string; itemIndex?: number; httpCode?: string } {
	const error = result.error as
		| (Error & { description?: string | null; httpCode?: string | null; context?: { itemIndex?: number } })
		| undefined;
	if (!error) throw new Error(`expected the node to fail, it returned ${result.items.length} items`);
	return {
		message: error.message,
		description: error.description ?? '',
		itemIndex: error.context?.itemIndex,
		httpCode: error.httpCode ?? undefined,
	};
}

export interface ListContract {
	resource: string;
	/** Raw path segments after the company, e.g. `['users', 'categories']`; read when the tests run. */
	segments: string[] | (() => string[]);
	/** Parameters the operation needs besides paging (e.g. `{ jobId }`); read when the tests run. */
	parameters?: () => INodeParameters;
	/** How many items the list holds in the fixture's seed (more than 2). */
	size: number;
}

/**
 * The behaviour every Get Many shares, as jest tests: Return All, Limit, the additional query
 * escape hatch, and Limit validation before any request. Call inside a file that sets up `fx`.
 */
export function describeListContract(fixture: () => RecruitingFixture, contract: ListContract): void {
	const base = () => ({ resource: contract.resource, operation: 'getMany', ...contract.parameters?.() });
	const segments = () => (typeof contract.segments === 'function' ? contract.segments() : contract.segments);
	const path = () => apiPath(fixture().sandbox, ...segments());

	describe(`${contract.resource} getMany (list contract)`, () => {
		beforeEach(() => fixture().sandbox.clearRequests());

		test('Return All: every item, one output item each, from one page of 100', async () => {
			const { sandbox } = fixture();
			const expected = await listDirect(sandbox, segments());
			expect(expected).toHaveLength(contract.size);
			const result = await fixture().run({ ...base(), returnAll: true });
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual(expected);
			expect(sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
				{ method: 'GET', path: path(), query: { page: '1', page_size: '100' }, body: undefined },
			]);
		});

		test('Limit 2: the first two items, page_size 2', async () => {
			const { sandbox } = fixture();
			const expected = await listDirect(sandbox, segments());
			const result = await fixture().run({ ...base(), limit: 2 });
			expect(jsonOf(result)).toEqual(expected.slice(0, 2));
			expect(sandbox.requests.map((r) => r.query)).toEqual([{ page: '1', page_size: '2' }]);
		});

		test('additional query parameters are sent, except the paging names', async () => {
			const result = await fixture().run({
				...base(),
				limit: 1,
				options: {
					additionalQuery: {
						parameter: [
							{ name: 'q', value: 'a&b=c' },
							{ name: 'page_size', value: '3' },
						],
					},
				},
			});
			expect(result.error).toBeUndefined();
			expect(fixture().sandbox.requests.map((r) => r.query)).toEqual([{ q: 'a&b=c', page: '1', page_size: '1' }]);
		});

		test.each([0, -1, 1.5])('Limit %p is rejected before any request', async (limit) => {
			const error = errorOf(await fixture().run({ ...base(), limit }));
			expect(error.message).toBe('Invalid "Limit": must be a whole number of at least 1');
			expect(error.itemIndex).toBe(0);
			expect(fixture().sandbox.requests).toHaveLength(0);
		});
	});
}

/** A parameter value as an n8n expression that evaluates to `value` (so n8n's own "required" check does not see it). */
export const expr = (value: unknown): string => `={{ ${JSON.stringify(value)} }}`;
