/**
 * Simulates a second n8n process: loads a module (e.g. our trigger node) in a fresh Jest
 * module registry, so module-level memory (caches, keys held in variables) starts empty, while
 * `n8n-workflow` and `n8n-core` stay shared, as they are one installation in a real n8n.
 *
 *   const { RecruitingTrigger } = loadInFreshProcess(
 *     () => require('../../nodes/RecruitingTrigger/RecruitingTrigger.node') as typeof import('../../nodes/RecruitingTrigger/RecruitingTrigger.node'),
 *   );
 *
 * Only the static data you pass on (`hookHarness(..., { staticData: saved })`) crosses over.
 */
const SHARED = ['n8n-workflow', 'n8n-core'] as const;

export function loadInFreshProcess<T>(load: () => T): T {
	let loaded: T | undefined;
	const shared = SHARED.map((name) => [name, require(name) as unknown] as const);
	jest.isolateModules(() => {
		for (const [name, mod] of shared) jest.doMock(name, () => mod);
		loaded = load();
	});
	for (const [name] of shared) jest.dontMock(name);
	return loaded as T;
}

/**
 * The n8n process behind a test's URLs and static data, which the test can restart. `start`
 * requires the node's module and returns an instance (it runs in a fresh module registry, see
 * `loadInFreshProcess`); `node` returns the instance of the process running now. Pass `node`
 * itself (the function) to `webhookServer` / `hookHarness`: they call it for every request and
 * hook call, so after `restart()` the servers and harnesses made before run in the new process,
 * as a restarted n8n serves the same URLs with nothing in memory.
 *
 * A process alongside this one (a queue-mode webhook process, a second n8n instance) is
 * `loadInFreshProcess(start)`: its own memory, while this one keeps its own.
 */
export class RestartableProcess<T> {
	private current: T;

	constructor(private readonly start: () => T) {
		this.current = loadInFreshProcess(start);
	}

	readonly node = (): T => this.current;

	/** n8n restarted: from now on a freshly started process (empty module memory) runs the node. */
	restart(): void {
		this.current = loadInFreshProcess(this.start);
	}
}
