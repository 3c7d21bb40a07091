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
