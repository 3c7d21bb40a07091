/**
 * 20 cycles of restarts and unpublish/publish with applications added at random moments (before a
 * poll, while n8n is stopped, between two polls, sharing timestamps, turning up late), and failed
 * polls: every application exactly once (issue 31, "Measured"), on n8n's default polling and on its
 * durable engine (the harness's model of it). The figures go to BENCHMARKS.md.
 */
import { LOOK_BACK_MS } from '../../nodes/RecruitingPollingTrigger/cursor';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

it.each([
	['default', 1],
	['default', 2],
	['default', 3],
	['durable', 1],
	['durable', 2],
] as const)('20 restart/republish cycles, %s engine, seed %i: 0 missed, 0 repeated', async (engine, seed) => {
	const rng = random(seed);
	const trigger = fx.trigger({ event: 'application.created' }, engine);
	await trigger.activate();
	const added: string[] = [];
	let clock = Date.now();
	const addSome = () => {
		const n = Math.floor(rng() * 4);
		for (let i = 0; i < n; i++) {
			const r = rng();
			// Same time as the last one, a little later, or turning up late within the look-back.
			if (r < 0.2) clock += 0;
			else if (r < 0.8) clock += 1 + Math.floor(rng() * 5000);
			const time = r >= 0.8 ? clock - Math.floor(rng() * (LOOK_BACK_MS / 2)) : clock;
			added.push(fx.apply(new Date(time).toISOString()).id);
		}
	};
	let failedPolls = 0;
	for (let cycle = 0; cycle < 20; cycle++) {
		for (let poll = 0; poll < 1 + Math.floor(rng() * 3); poll++) {
			addSome();
			const fail = rng() < 0.15;
			if (fail) fx.sandbox.setFaults([{ kind: 'status', status: 500, path: 'applications', times: -1 }]);
			const outcome = await trigger.tick();
			if (fail) {
				expect(outcome.error).toBeDefined();
				failedPolls += 1;
				fx.sandbox.setFaults([]);
			}
		}
		trigger.stop();
		addSome();
		await trigger.activate(rng() < 0.5 ? 'init' : 'activate');
	}
	await trigger.tick();
	const emitted = trigger.executions.flat().map((item) => (item.object as { id: string }).id);
	const missed = added.filter((id) => !emitted.includes(id));
	const repeated = emitted.length - new Set(emitted).size;
	process.stdout.write(`cycles ${engine} engine, seed ${seed}: ${added.length} added, ${emitted.length} emitted, ${missed.length} missed, ${repeated} repeated, ${failedPolls} failed polls, ${trigger.executions.length} executions\n`);
	expect(missed).toEqual([]);
	expect(repeated).toBe(0);
	expect(emitted.sort()).toEqual([...added].sort());
}, 60_000);
