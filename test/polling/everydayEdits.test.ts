/**
 * Issue 41: the nine defects of the review at 3bc95fa (../shared/review/polling-3bc95fa/), each as
 * a test of the right behaviour, and n8n's durable polling engine (the harness's `engine: 'durable'`).
 */
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { stageChanges } from '../../nodes/RecruitingPollingTrigger/stages';
import type { Application } from '../../sandbox';
import { pollHarness } from '../harness';
import { startFakeListService } from '../harness/fakeServices';
import { usePollingFixture, warningsDuring } from './fixture';

const fx = usePollingFixture();
const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const ids = (items: IDataObject[]) => items.map((item) => String((item.object as { id: string }).id));
const noteIds = (items: IDataObject[]) => items.map((i) => `${String(i.jobId)}:${(i.object as { id: string }).id}`);
const twoJobs = () => [fx.seeded[0].job.id, fx.seeded.find((a) => a.job.id !== fx.seeded[0].job.id)!.job.id];
const note = (id: string, jobId: string, date = at(0)) =>
	fx.sandbox.put('jobNotes', { id, job_id: jobId, date_created: date, text: id, creator: { name: 'T' }, files: [], mentioned_users: [], restricted: false });

describe('Start From counts once, at the trigger\'s first poll', () => {
	it('a job added to Job IDs later is seeded (no backlog); removed and added back, nothing is delivered again', async () => {
		const [jobA, jobB] = twoJobs();
		for (let i = 0; i < 3; i++) note(`jnote_b_old${i}`, jobB, at(-7 * 86_400_000 + i * 1000));
		const startFrom = at(-30 * 86_400_000);
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: jobA, options: { startFrom } });
		await trigger.activate();
		trigger.stop();
		trigger.setParameters({ event: 'job.note.created', jobIds: `${jobA},${jobB}`, options: { startFrom } });
		expect((await trigger.activate('update')).emitted).toEqual([]);
		const fresh = 'jnote_b_fresh';
		note(fresh, jobB);
		expect(noteIds((await trigger.tick()).emitted)).toEqual([`${jobB}:${fresh}`]);
		trigger.stop();
		trigger.setParameters({ event: 'job.note.created', jobIds: jobA, options: { startFrom } });
		await trigger.activate('update');
		trigger.stop();
		trigger.setParameters({ event: 'job.note.created', jobIds: `${jobA},${jobB}`, options: { startFrom } });
		expect((await trigger.activate('update')).emitted).toEqual([]);
		const all = trigger.executions.flat().map((i) => String(i.messageId));
		expect(all.length).toBe(new Set(all).size);
	});

	it('the event switched away and back: nothing delivered again', async () => {
		const NEW_APPLICATION = { event: 'application.created', options: { startFrom: fx.seeded[4].applied_at } };
		const trigger = fx.trigger(NEW_APPLICATION);
		expect((await trigger.activate()).emitted).toHaveLength(5);
		trigger.stop();
		trigger.setParameters({ ...NEW_APPLICATION, event: 'feedback.submitted' });
		await trigger.activate('update');
		trigger.stop();
		trigger.setParameters(NEW_APPLICATION);
		expect((await trigger.activate('update')).emitted).toEqual([]);
		const added = fx.apply(at(0));
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
	});
});

describe('stage changes are moves', () => {
	it('renaming a custom stage reports nothing; the next real move is reported with the new name', async () => {
		const jobId = fx.seeded[0].job.id;
		const ofJob = fx.seeded.filter((a) => a.job.id === jobId && a.stage.custom_stage);
		expect(ofJob.length).toBeGreaterThan(0);
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: jobId });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		for (const a of ofJob) {
			const stage = a.stage as unknown as { parent_stage: string; custom_stage: { id: string; name: string } };
			fx.sandbox.put('applications', { ...a, stage: { ...stage, custom_stage: { ...stage.custom_stage, name: `${stage.custom_stage.name} | renamed` } } } as Application);
		}
		expect((await trigger.tick()).emitted).toEqual([]);
		const moved = { ...(fx.sandbox.get('applications', ofJob[0].id) as Application) };
		fx.sandbox.put('applications', { ...moved, stage: { parent_stage: 'hired', custom_stage: null } } as unknown as Application);
		const [item] = (await trigger.tick()).emitted as Array<IDataObject & { previousStage: { custom_stage: { name: string } } }>;
		expect(item.previousStage.custom_stage.name).toMatch(/\| renamed$/);
	});

	it('the same move found twice has the same messageId; a move back and forth again a new one', () => {
		const application = { id: 'app_1', stage: { parent_stage: 'interview', custom_stage: null } } as IDataObject;
		const byJob = new Map([['job_1', [application]]]);
		const before = { job_1: { app_1: '0:["new","",""]' } };
		const first = stageChanges(byJob, before, '2026-01-01T00:00:00.000Z');
		const again = stageChanges(byJob, before, '2026-01-01T00:01:00.000Z');
		expect(again.items[0].messageId).toBe(first.items[0].messageId);
		const back = stageChanges(new Map([['job_1', [{ ...application, stage: { parent_stage: 'new', custom_stage: null } }]]]), first.stages, 'x');
		const forth = stageChanges(byJob, back.stages, 'y');
		expect(new Set([first.items[0].messageId, back.items[0].messageId, forth.items[0].messageId]).size).toBe(3);
	});
});

describe("the service's clock", () => {
	it('a new job without notes, the service 2 minutes behind n8n: the first note after publishing is reported', async () => {
		const job = fx.sandbox.get('jobs', fx.seeded[0].job.id) as Record<string, unknown>;
		fx.sandbox.put('jobs', { ...job, id: 'job_fresh' });
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: 'job_fresh' });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		note('jnote_first', 'job_fresh', at(-2 * MINUTE));
		expect(noteIds((await trigger.tick()).emitted)).toEqual(['job_fresh:jnote_first']);
	});
});

describe('a followed job deleted', () => {
	it.each([
		['job.note.created', 'notes'],
		['application.stage.updated', 'stage changes'],
	])('%s: the other job\'s events keep coming; n8n\'s log names the job gone at every poll, a failed execution once (stage changes: from the next activation)', async (event, what) => {
		const [jobA, jobB] = twoJobs();
		const trigger = fx.trigger({ event, jobIds: `${jobA}, ${jobB}` });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const response = await fetch(`${fx.sandbox.url}/v1.0/${fx.sandbox.companyId}/jobs/${encodeURIComponent(jobB)}`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${fx.sandbox.token}` },
		});
		expect(response.status).toBeLessThan(300);
		if (event === 'job.note.created') note('jnote_a_new', jobA);
		else {
			const application = fx.seeded.find((a) => a.job.id === jobA)!;
			fx.sandbox.put('applications', { ...application, stage: { parent_stage: 'hired', custom_stage: null } } as unknown as Application);
		}
		let outcome: Awaited<ReturnType<typeof trigger.tick>> = { emitted: [] };
		const warnings = await warningsDuring(async () => {
			if (event === 'application.stage.updated') {
				// An application list does not tell that its job is gone: the job is looked up at activation (a restart here).
				trigger.stop();
				outcome = await trigger.activate('init');
			} else outcome = await trigger.tick();
		});
		expect(outcome.error).toBeUndefined();
		expect(outcome.emitted).toHaveLength(1);
		expect(warnings).toEqual([expect.stringContaining(`job "${jobB}" no longer exists`)]);
		expect(warnings[0]).toContain(what);
		// Once, a failed execution names it (n8n's __emitError: the executions list and the error workflow).
		expect(trigger.failures.map((f) => f.message)).toEqual([expect.stringMatching(new RegExp(`^Job IDs: job "${jobB}" no longer exists.*${what}`))]);
		// A poll and a restart later: the log says it again, no second failed execution.
		const later = await warningsDuring(async () => {
			expect((await trigger.tick()).error).toBeUndefined();
			trigger.stop();
			expect((await trigger.activate('init')).error).toBeUndefined();
		});
		expect(later).toEqual(Array(event === 'job.note.created' ? 2 : 1).fill(expect.stringContaining(`job "${jobB}" no longer exists`)));
		expect(trigger.failures).toHaveLength(1);
	});
});

describe('rate limits at activation', () => {
	it.each(['activate', 'init', 'update', 'leadershipChange'] as const)(
		'%s of a published workflow under a long rate limit: the activation succeeds, the next poll catches up',
		async (mode) => {
			const trigger = fx.trigger({ event: 'application.created' });
			expect(await trigger.activate()).toEqual({ emitted: [] });
			trigger.stop();
			fx.sandbox.rotateToken();
			fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: -1 }]);
			const added = fx.apply(at(0));
			expect(await trigger.activate(mode)).toEqual({ emitted: [] });
			fx.sandbox.setFaults([]);
			fx.sandbox.rotateToken();
			expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
		},
		60_000,
	);

	it('a scheduled poll past its wait fails declaring the cause, naming no setting the trigger lacks', async () => {
		const trigger = fx.trigger({ event: 'application.created' }, 'durable');
		await trigger.activate();
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 3600, times: -1 }]);
		const { error } = await trigger.tick();
		expect((error as { failure?: unknown }).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 3_600_000 });
		expect(`${error?.message} ${(error as { description?: string }).description}`).not.toContain('Max Wait');
	}, 60_000);

	it.each([
		[401, 'credential-invalid'],
		[500, 'temporarily-unavailable'],
	] as const)('a failed poll (HTTP %s) declares %s', async (status, cause) => {
		const trigger = fx.trigger({ event: 'application.created' });
		await trigger.activate();
		fx.sandbox.setFaults([{ kind: 'status', status, path: 'applications', times: -1 }]);
		const { error } = await trigger.tick();
		expect((error as { failure?: { cause: string } }).failure?.cause).toBe(cause);
	});
});

describe('cost', () => {
	it('after 250 at once, an idle poll is one request once a poll has read the list a look-back after the newest', async () => {
		const trigger = fx.trigger({ event: 'application.created' });
		await trigger.activate();
		const base = Date.parse(fx.seeded[0].applied_at) + 1000;
		for (let i = 0; i < 250; i++) fx.apply(new Date(base + i * 100).toISOString());
		expect((await trigger.tick()).emitted).toHaveLength(250);
		// Within the look-back an entry may still turn up late among them: their pages are read.
		fx.sandbox.clearRequests();
		expect((await trigger.tick()).emitted).toEqual([]);
		expect(fx.applicationRequests()).toHaveLength(3);
		// Six minutes on (n8n's clock and the service's Date header; timers stay real).
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });
		try {
			jest.setSystemTime(Date.now() + 6 * MINUTE);
			// The last read was 6 minutes ago: an entry may have turned up, 5 minutes late, just after it.
			fx.sandbox.clearRequests();
			expect((await trigger.tick()).emitted).toEqual([]);
			expect(fx.applicationRequests()).toHaveLength(3);
			for (let poll = 0; poll < 2; poll++) {
				jest.setSystemTime(Date.now() + MINUTE);
				fx.sandbox.clearRequests();
				expect((await trigger.tick()).emitted).toEqual([]);
				expect(fx.applicationRequests()).toHaveLength(1);
			}
		} finally {
			jest.useRealTimers();
		}
	});

	it('stage changes read full pages: a job of 95 applications is one request per idle poll', async () => {
		const job = fx.seeded[0].job;
		const have = fx.seeded.filter((a) => a.job.id === job.id).length;
		for (let i = have; i < 95; i++) fx.apply(at(-i * 1000), { job });
		const trigger = fx.trigger({ event: 'application.stage.updated', jobIds: job.id });
		await trigger.activate();
		fx.sandbox.clearRequests();
		expect((await trigger.tick()).emitted).toEqual([]);
		expect(fx.applicationRequests().map((r) => r.query.page_size)).toEqual(['100']);
	});

	it('Fetch Test Event stops at the first page with a match', async () => {
		const now = Date.now();
		for (let i = 0; i < 400; i++) fx.apply(new Date(now - 20 * MINUTE - i * 1000).toISOString());
		const hired = fx.apply(new Date(now - 10 * MINUTE).toISOString(), { stage: { ...fx.seeded[0].stage, parent_stage: 'hired' } });
		fx.apply(new Date(now).toISOString());
		const trigger = fx.trigger({ event: 'application.created', options: { parentStages: ['hired'] } });
		fx.sandbox.clearRequests();
		expect(ids((await trigger.manual()).emitted)).toEqual([hired.id]);
		expect(fx.applicationRequests()).toHaveLength(1);
	});

	it('entries arriving between page 1 and page 2: no false order warning, no full read', async () => {
		const fake = await startFakeListService();
		const items: IDataObject[] = [];
		fake.lists.set('/applications', { items, order: 'newestFirst', field: 'applied_at' });
		try {
			const app = (id: string, appliedAt: string) => ({ id, applied_at: appliedAt, job: { id: 'job_1' }, stage: { parent_stage: 'new', custom_stage: null } });
			// A minute apart: the look-back before the newest holds few of them, so the pages read are the race's.
			for (let i = 0; i < 1000; i++) items.push(app(`app_old${i}`, at(-30 * 24 * 60 * MINUTE + i * MINUTE)));
			const trigger = pollHarness(new RecruitingPollingTrigger(), { event: 'application.created', options: {} }, {
				credentials: { recruitingApi: { baseUrl: fake.url, companyId: 'co_fake', accessToken: 'tok_race' } },
				credentialTypes: [new RecruitingApi()],
			});
			await trigger.activate();
			const added = Array.from({ length: 150 }, (_, i) => app(`app_new${String(i).padStart(3, '0')}`, at(-(150 - i) * MINUTE)));
			items.push(...added);
			const late = [app('app_race1', at(0)), app('app_race2', at(1))];
			fake.beforePage = (_path, page) => {
				if (page !== 2) return;
				items.push(...late);
				fake.beforePage = undefined;
			};
			fake.requests.length = 0;
			let emitted: IDataObject[] = [];
			const warnings = await warningsDuring(async () => {
				emitted = (await trigger.tick()).emitted;
			});
			expect(ids(emitted)).toEqual(added.map((a) => a.id));
			expect(warnings).toEqual([]);
			expect(fake.requests.length).toBeLessThanOrEqual(3);
			expect(ids((await trigger.tick()).emitted)).toEqual(['app_race1', 'app_race2']);
		} finally {
			await fake.close();
		}
	});
});

describe("n8n's durable polling engine", () => {
	it('the activation poll\'s seed is not kept by n8n: what arrives before the first scheduled poll is still reported', async () => {
		const trigger = fx.trigger({ event: 'application.created' }, 'durable');
		expect(await trigger.activate()).toEqual({ emitted: [] });
		expect(trigger.staticData).toEqual({});
		const added = [fx.apply(at(0)), fx.apply(at(1))];
		expect(ids((await trigger.tick()).emitted)).toEqual(added.map((a) => a.id));
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('a poll n8n starts again while the last one still runs (each with static data of its own): each item once', async () => {
		const trigger = fx.trigger({ event: 'application.created' }, 'durable');
		await trigger.activate();
		await trigger.tick();
		const added = fx.apply(at(0));
		fx.sandbox.setFaults([{ kind: 'slow', path: 'applications', delayMs: 300, times: 2 }]);
		const [a, b] = await Promise.all([trigger.tick(), trigger.tick()]);
		expect([...ids(a.emitted), ...ids(b.emitted)]).toEqual([added.id]);
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('exactly once across scheduled polls, a failed poll, unpublish/publish and a restart', async () => {
		const trigger = fx.trigger({ event: 'application.created' }, 'durable');
		await trigger.activate();
		const expected: string[] = [];
		const add = () => expected.push(fx.apply(at(expected.length)).id);
		add();
		await trigger.tick();
		add();
		fx.sandbox.setFaults([{ kind: 'status', status: 500, path: 'applications', times: -1 }]);
		expect((await trigger.tick()).error).toBeDefined();
		fx.sandbox.setFaults([]);
		await trigger.tick();
		trigger.stop();
		add();
		await trigger.activate('update');
		add();
		await trigger.tick();
		trigger.stop();
		add();
		await trigger.activate('init');
		await trigger.tick();
		await trigger.tick();
		expect(trigger.executions.flat().map((i) => (i.object as { id: string }).id)).toEqual(expected);
	});
});
