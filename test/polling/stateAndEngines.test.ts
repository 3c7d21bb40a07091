/**
 * The trigger's state and n8n's engines: what the state holds and how big it grows, its copies (the
 * node's static data by name, the copy by node ID) across renames, restarts and republishing, a
 * failed poll and the cause it declares, n8n's durable polling engine, and polls that overlap.
 * POLLING_CONTROL=1 runs the cases that read it without their fault (a control: the same setup).
 */
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { MAX_SEEN_IDS } from '../../nodes/RecruitingPollingTrigger/cursor';
import { pollHarness, RestartableProcess, StaticDataStore } from '../harness';
import { startFixedAnswerServer, useFakeListService } from '../harness/fakeServices';
import { application, at, ids, MINUTE, triggerOn } from './fakeKit';
import { apiGet, usePollingFixture } from './fixture';

const fx = usePollingFixture();
const { note, twoJobs } = fx;
const NEW_APPLICATION = { event: 'application.created' };
const fake = useFakeListService();
const onFake = triggerOn(fake, 'tok_SECRET_state');

describe('what the state holds', () => {
	it('the static data holds no token', async () => {
		const apps = { items: [application('app_1', at(0))], order: 'newestFirst' as const, field: 'applied_at' };
		fake.lists.set('/applications', apps);
		const t = onFake(NEW_APPLICATION);
		await t.activate();
		expect(JSON.stringify(t.staticData)).not.toContain('tok_SECRET_state');
	});

	it('stays bounded and holds no secret', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const time = at(0);
		for (let i = 0; i < MAX_SEEN_IDS + 200; i++) fx.apply(time);
		const { emitted } = await trigger.tick();
		expect(emitted).toHaveLength(MAX_SEEN_IDS + 200);
		const stored = JSON.stringify(trigger.staticData);
		expect(stored).not.toContain(fx.sandbox.token);
		expect(stored.length).toBeLessThan(40_000);
		const info = await apiGet<{ meta: { total_items: number } }>(fx.sandbox, '/applications?page_size=1');
		expect(info.meta.total_items).toBe(30 + MAX_SEEN_IDS + 200);
		// Past the cap the floor moved past the shared time: nothing is emitted again.
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	/** What a trigger deleted earlier left: its state by node ID, with 1,000 seen IDs. */
	const leftBehind = () => ({
		version: 1,
		key: 'an-old-account-or-this-one',
		cursors: {
			applications: { floor: 0, seen: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`app_gone${i}`, i])), order: 'newestFirst' },
		},
		stages: {},
	});

	describe('a trigger deleted from the workflow, a new one added', () => {
		/**
		 * User-visible scenario: the user replaces the trigger (deletes it, adds a new one, publishes).
		 * The deleted trigger's state (up to ~120 KB) must not stay in the workflow's static data, or the
		 * workflow row would grow with every replacement.
		 */
		it("after the new trigger's polls, the stored static data no longer holds the deleted trigger's state", async () => {
			const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
			fake.lists.set('/applications', apps);
			apps.items.push(application('app_old', at(-2 * 24 * 60 * MINUTE)));
			const store = new StaticDataStore({ global: { recruitingPollSeeds: { 'deleted-trigger-node': leftBehind() } } });
			const t = onFake({ event: 'application.created' }, { staticData: store });
			expect(await t.activate()).toEqual({ emitted: [] });
			apps.items.push(application('app_1', at(0)));
			expect(ids((await t.tick()).emitted)).toEqual(['app_1']);
			const mirrors = (store.workflowData.global as IDataObject).recruitingPollSeeds as IDataObject;
			expect(Object.keys(mirrors)).toEqual(['trigger-node']);
		});
	});
});

describe('the node renamed (n8n keeps node static data under `node:<name>`)', () => {
	let workflows = 0;
	/** The same workflow and node (same IDs, same stored static data), the node renamed, republished. */
	function renamed(t: ReturnType<typeof onFake>, workflowId: string, parameters: IDataObject) {
		t.stop();
		return onFake(parameters, { workflowId, nodeName: 'New applications (renamed)', staticData: t.store });
	}
	const named = (parameters: IDataObject, workflowId: string) => onFake(parameters, { workflowId });
	/** A workflow of its own, and the applications list holding 5 old ones. */
	function workflowWithOldApplications() {
		const workflowId = `rename-${++workflows}`;
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i * MINUTE)));
		return { workflowId, apps };
	}

	it('with Start From: renaming the node does not deliver again what was already reported', async () => {
		const { workflowId, apps } = workflowWithOldApplications();
		const parameters = { event: 'application.created', options: { startFrom: at(-3 * 24 * 60 * MINUTE) } };
		const t = named(parameters, workflowId);
		expect(ids((await t.activate()).emitted)).toHaveLength(5);
		apps.items.push(application('app_new', at(0)));
		expect(ids((await t.tick()).emitted)).toEqual(['app_new']);
		const r = renamed(t, workflowId, parameters);
		const again = [...ids((await r.activate('update')).emitted), ...ids((await r.tick()).emitted)];
		expect(again).toEqual([]);
	});

	it('without Start From: an application that arrived after the last poll before the rename is reported after it', async () => {
		const { workflowId, apps } = workflowWithOldApplications();
		const parameters = { event: 'application.created' };
		const t = named(parameters, workflowId);
		expect(await t.activate()).toEqual({ emitted: [] });
		apps.items.push(application('app_1', at(-2000)));
		expect(ids((await t.tick()).emitted)).toEqual(['app_1']);
		apps.items.push(application('app_2', at(-1000))); // arrives; before the next poll, the user renames the node
		const r = renamed(t, workflowId, parameters);
		const after = [...ids((await r.activate('update')).emitted), ...ids((await r.tick()).emitted)];
		expect(after).toEqual(['app_2']);
	});

	/**
	 * User-visible scenario: a published New Application trigger "Recruiting Polling Trigger" is
	 * renamed to "New applications" and republished; it reports app_2. Later the user renames it back
	 * (undo, a naming convention) and republishes: app_2, already delivered, starts the workflow
	 * again (and with it everything reported under the other name).
	 */
	it('renamed A → B → A: nothing reported under B is delivered again', async () => {
		const { workflowId, apps } = workflowWithOldApplications();
		const parameters = { event: 'application.created' };

		const a = onFake(parameters, { workflowId });
		expect(await a.activate()).toEqual({ emitted: [] });
		apps.items.push(application('app_1', at(-2000)));
		expect(ids((await a.tick()).emitted)).toEqual(['app_1']);

		a.stop(); // renamed to B, republished
		const b = onFake(parameters, { workflowId, nodeName: 'New applications', staticData: a.store });
		expect((await b.activate('update')).emitted).toEqual([]);
		apps.items.push(application('app_2', at(-1000)));
		expect(ids((await b.tick()).emitted)).toEqual(['app_2']);

		b.stop(); // renamed back to A, republished
		const back = onFake(parameters, { workflowId, staticData: b.store });
		const again = [...ids((await back.activate('update')).emitted), ...ids((await back.tick()).emitted)];
		expect(again).toEqual([]);
	});

	it('renamed A → B only: nothing is delivered again', async () => {
		const { workflowId, apps } = workflowWithOldApplications();
		const parameters = { event: 'application.created' };
		const a = onFake(parameters, { workflowId });
		await a.activate();
		apps.items.push(application('app_1', at(-2000)));
		expect(ids((await a.tick()).emitted)).toEqual(['app_1']);
		a.stop();
		const b = onFake(parameters, { workflowId, nodeName: 'New applications', staticData: a.store });
		const again = [...ids((await b.activate('update')).emitted), ...ids((await b.tick()).emitted)];
		expect(again).toEqual([]);
	});
});

describe('restarts and republishing', () => {
	it('n8n restarted: what arrived while it was stopped is emitted once, at the first poll', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		expect(ids((await trigger.tick()).emitted)).toEqual([]);
		trigger.stop();
		const whileStopped = [fx.apply(at(-1000)), fx.apply(at(0))];
		expect(ids((await trigger.activate('init')).emitted)).toEqual(whileStopped.map((a) => a.id));
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('restarted after emitting: the saved cursor holds, nothing twice', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const three = [fx.apply(at(-3000)), fx.apply(at(-2000)), fx.apply(at(-1000))];
		expect(ids((await trigger.tick()).emitted)).toEqual(three.map((a) => a.id));
		trigger.stop();
		const two = [fx.apply(at(0)), fx.apply(at(1))];
		expect(ids((await trigger.activate('init')).emitted)).toEqual(two.map((a) => a.id));
	});

	it('unpublished, one added, published again: exactly that one', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		trigger.stop();
		const one = fx.apply(at(0));
		expect(ids((await trigger.activate('activate')).emitted)).toEqual([one.id]);
	});

	it('an unsaved in-memory advance is redone after a restart, not lost', async () => {
		// A poll that found only filtered-out items returns null: n8n does not save what it advanced.
		const trigger = fx.trigger({ ...NEW_APPLICATION, options: { jobIds: 'job_nomatch' } });
		await trigger.activate();
		fx.apply(at(-1000));
		expect((await trigger.tick()).emitted).toEqual([]);
		trigger.stop();
		trigger.setParameters({ ...NEW_APPLICATION, options: {} });
		const later = fx.apply(at(0));
		// The saved cursor is the activation's: both are new to it (the filter changed in between).
		expect(ids((await trigger.activate('init')).emitted)).toHaveLength(2);
		expect(ids((await trigger.tick()).emitted)).toEqual([]);
		void later;
	});

	it('republished (event changed) while the old version still polls: the new version still records where the account stands at publishing', async () => {
		const trigger = fx.trigger({ event: 'feedback.submitted' });
		await trigger.activate();
		// The old version's poll hangs on a slow answer (a long rate-limit wait would do the same).
		fx.sandbox.setFaults([{ kind: 'slow', path: 'feedback', delayMs: 1500, times: 1 }]);
		const inFlight = trigger.tick();
		await new Promise((resolve) => setTimeout(resolve, 200));
		trigger.stop();
		trigger.setParameters(NEW_APPLICATION);
		expect(await trigger.activate('update')).toEqual({ emitted: [] });
		await inFlight;
		// Applied after the new version was published: it must be emitted.
		const added = fx.apply(at(0));
		const emitted = [...ids((await trigger.tick()).emitted), ...ids((await trigger.tick()).emitted)];
		expect(emitted).toEqual([added.id]);
	});
});

describe('a failed poll', () => {
	it('a failed poll (500) leaves the cursor where it was; the next poll catches up', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const stored = trigger.staticData;
		const added = fx.apply(at(0));
		fx.sandbox.setFaults([{ kind: 'status', status: 500, path: 'applications', times: -1 }]);
		const failed = await trigger.tick();
		expect(failed.error?.message).toMatch(/500|server/i);
		expect(trigger.staticData).toEqual(stored);
		fx.sandbox.setFaults([]);
		expect(ids((await trigger.tick()).emitted)).toEqual([added.id]);
	});

	it('a rate limit is waited out within the poll, not failed', async () => {
		const trigger = fx.trigger(NEW_APPLICATION);
		await trigger.activate();
		const added = fx.apply(at(0));
		fx.sandbox.setFaults([{ kind: 'rate_limit', path: 'applications', retryAfter: 1, times: 1 }]);
		const { emitted, error } = await trigger.tick();
		expect(error).toBeUndefined();
		expect(ids(emitted)).toEqual([added.id]);
	});

	it('a poll failing on the second of two jobs leaves no cursor half-advanced; the next poll emits each note once', async () => {
		const [jobA, jobB] = [fx.seeded[0].job.id, fx.seeded.find((a) => a.job.id !== fx.seeded[0].job.id)!.job.id];
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: `${jobA}, ${jobB}` });
		await trigger.activate();
		note('jnote_a1', jobA, at(-1000));
		note('jnote_b1', jobB, at(0));
		fx.sandbox.setFaults([{ kind: 'status', status: 500, path: `${jobB}/notes`, times: -1 }]);
		expect((await trigger.tick()).error).toBeDefined();
		fx.sandbox.setFaults([]);
		expect(ids((await trigger.tick()).emitted)).toEqual(['jnote_a1', 'jnote_b1']);
		expect((await trigger.tick()).emitted).toEqual([]);
	});
});

describe('the failure cause a failed poll declares', () => {
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

	describe('the credential edited after publishing (a Base URL n8n may not send the token to)', () => {
		/**
		 * User-visible scenario (n8n ≥ 2.37 with durable polling): someone edits the shared credential's
		 * Base URL to a plain-http address. Every poll of the published trigger fails and says so; it
		 * declares its cause, or n8n would keep retrying it as if the service were briefly down.
		 */
		it('the failed poll declares credential-invalid or configuration-invalid', async () => {
			const { t, credential } = await publishedWithEditableBaseUrl();
			credential.baseUrl = 'http://recruiting.example.com';
			const { error } = await t.tick();
			expect(error?.message).toMatch(/http|URL/i);
			expect((error as { failure?: { cause: string } }).failure?.cause).toMatch(/^(credential-invalid|configuration-invalid)$/);
		});
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

	describe.each(['init', 'leadershipChange'] as const)('%s before the first scheduled poll', (mode) => {
		it('an application added after publishing is reported once', async () => {
			const n8n = new RestartableProcess(() => {
				const { RecruitingPollingTrigger: Node } = require('../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node') as { RecruitingPollingTrigger: typeof RecruitingPollingTrigger };
				return new Node();
			});
			const trigger = pollHarness(n8n.node as never, { event: 'application.created', options: {} } as never, {
				engine: 'durable',
				credentials: { recruitingApi: { baseUrl: fx.sandbox.url, companyId: fx.sandbox.companyId, get accessToken() { return fx.sandbox.token; } } },
				credentialTypes: [new RecruitingApi()],
			});
			expect(await trigger.activate()).toEqual({ emitted: [] });
			const added = fx.apply(at(0));
			// n8n restarts (or another main takes over) before the first scheduled poll.
			trigger.stop();
			if (!process.env.POLLING_CONTROL) n8n.restart();
			await trigger.activate(mode);
			await trigger.tick();
			await trigger.tick();
			expect(ids(trigger.executions.flat())).toEqual([added.id]);
		});
	});

	describe("a list added on a published workflow (its seed is written only at the activation poll)", () => {
		/** Notes lists of job_1 and job_2 (oldest first), each with an old note. */
		function twoJobs() {
			const lists: Record<string, { items: IDataObject[]; field: string; order: 'oldestFirst' }> = {};
			for (const job of ['job_1', 'job_2']) {
				lists[job] = { items: [{ id: `jnote_${job}_old`, date_created: at(-2 * 24 * 60 * MINUTE), text: 'old' }], field: 'date_created', order: 'oldestFirst' };
				fake.lists.set(`/jobs/${job}/notes`, lists[job]);
			}
			return lists;
		}

		/** job_1 followed and a note on it reported; job_2 added to Job IDs and republished; a note on job_2: what the next two polls report. */
		async function job2AddedThenNoted(engine: 'default' | 'durable') {
			const lists = twoJobs();
			const t = onFake({ event: 'job.note.created', jobIds: 'job_1' }, { engine });
			expect(await t.activate()).toEqual({ emitted: [] });
			lists.job_1.items.push({ id: 'jnote_1', date_created: at(0), text: 'one' });
			expect(ids((await t.tick()).emitted)).toEqual(['jnote_1']);
			t.stop();
			t.setParameters({ event: 'job.note.created', jobIds: 'job_1, job_2' });
			expect(await t.activate('update')).toEqual({ emitted: [] });
			lists.job_2.items.push({ id: 'jnote_2', date_created: at(0), text: 'two' });
			return [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
		}

		/**
		 * User-visible scenario (durable polling on, as docs/polling-trigger.md supports): a published
		 * New Job Note trigger follows job_1 and has reported a note. The user adds job_2 to Job IDs and
		 * republishes. A note written on job_2 one minute later starts the workflow. The durable engine
		 * drops what the activation poll wrote into the node's copy; were the first scheduled poll to go
		 * on from the older copy by name (which n8n did keep, from the last scheduled poll), it would seed
		 * job_2 a second time and swallow the note. The same holds for the Event changed (the new event's
		 * list) or a job added to Application Stage Changed (its snapshot), not tested separately here.
		 */
		it('job_2 added to Job IDs and republished: its first note after publishing is reported', async () => {
			expect(await job2AddedThenNoted('durable')).toEqual(['jnote_2']);
		});

		it('the same edit on the default engine: the note is reported', async () => {
			expect(await job2AddedThenNoted('default')).toEqual(['jnote_2']);
		});

		it('durable engine, first publish (no copy by name yet): a note on each job is reported', async () => {
			const lists = twoJobs();
			const t = onFake({ event: 'job.note.created', jobIds: 'job_1, job_2' }, { engine: 'durable' });
			expect(await t.activate()).toEqual({ emitted: [] });
			lists.job_1.items.push({ id: 'jnote_1', date_created: at(0), text: 'one' });
			lists.job_2.items.push({ id: 'jnote_2', date_created: at(0), text: 'two' });
			const emitted = [...ids((await t.tick()).emitted), ...ids((await t.tick()).emitted)];
			expect(emitted.sort()).toEqual(['jnote_1', 'jnote_2']);
		});

		/**
		 * Robustness: a scheduled poll that goes on from the copy by node ID must return a state that
		 * holds no objects of the workflow's global static data (n8n wraps those in Proxies). The
		 * harness commits the staged cursor with structuredClone, which refuses a Proxy: such a state
		 * would fail the poll with DataCloneError, as would any engine that clones the cursor that way.
		 */
		it('durable engine, first publish, a note on one of two jobs only: the first scheduled poll does not fail', async () => {
			const lists = twoJobs();
			const t = onFake({ event: 'job.note.created', jobIds: 'job_1, job_2' }, { engine: 'durable' });
			expect(await t.activate()).toEqual({ emitted: [] });
			lists.job_2.items.push({ id: 'jnote_2', date_created: at(0), text: 'two' });
			const first = await t.tick();
			expect(first.error?.message).toBeUndefined();
			expect(ids(first.emitted)).toEqual(['jnote_2']);
		});
	});
});

describe('polls that overlap', () => {
	/** On `engine`, the activation and `polls` polls; then an application added, and two polls at once (a slow answer). */
	async function twoAtOnce(engine: 'default' | 'durable', polls: number) {
		const trigger = fx.trigger(NEW_APPLICATION, engine);
		await trigger.activate();
		for (let i = 0; i < polls; i++) await trigger.tick();
		const added = fx.apply(at(0));
		fx.sandbox.setFaults([{ kind: 'slow', path: 'applications', delayMs: 300, times: 2 }]);
		const [a, b] = await Promise.all([trigger.tick(), trigger.tick()]);
		return { trigger, added, a, b };
	}

	it('two polls at once emit each item once', async () => {
		const { trigger, added, a, b } = await twoAtOnce('default', 0);
		expect([...ids(a.emitted), ...ids(b.emitted)]).toEqual([added.id]);
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('a poll n8n starts again while the last one still runs (each with static data of its own): each item once', async () => {
		const { trigger, added, a, b } = await twoAtOnce('durable', 1);
		expect([...ids(a.emitted), ...ids(b.emitted)]).toEqual([added.id]);
		expect((await trigger.tick()).emitted).toEqual([]);
	});

	it('two overlapping runs of one scheduled poll emit a new application once', async () => {
		const trigger = fx.trigger({ event: 'application.created' }, 'durable');
		await trigger.activate();
		await trigger.tick();
		const added = fx.apply(at(0));
		await Promise.all([trigger.tick(), trigger.tick()]);
		await trigger.tick();
		expect(ids(trigger.executions.flat())).toEqual([added.id]);
	});
});

describe('a trigger deleted, a new one added under the same (default) name', () => {
	/**
	 * A deleted trigger's copy by name stays in the workflow's static data (as the rename tests assume);
	 * the new trigger has another node ID.
	 */
	async function run(newTriggerStartFrom?: string) {
		const workflowId = 'review-replaced-trigger';
		const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
		fake.lists.set('/applications', apps);
		for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-5 * 24 * 60 * MINUTE + i * MINUTE)));
		const a = onFake({ event: 'application.created' }, { workflowId });
		expect(await a.activate()).toEqual({ emitted: [] });
		apps.items.push(application('app_a', at(-4 * 24 * 60 * MINUTE)));
		expect(ids((await a.tick()).emitted)).toEqual(['app_a']);
		a.stop(); // the trigger deleted (the user switched to the webhook trigger for a while)
		// Days without a polling trigger: 3 applications.
		for (let i = 0; i < 3; i++) apps.items.push(application(`app_gap${i}`, at(-2 * 24 * 60 * MINUTE + i * MINUTE)));
		const stored = a.store.workflowData;
		const seeds = (stored.global as IDataObject).recruitingPollSeeds as IDataObject;
		// The old trigger's copy by ID is under its own (other) node ID.
		// Both copies were written by the deleted node (the harness gives every trigger one node ID).
		const byName = stored['node:Recruiting Polling Trigger'] as { recruitingPoll: IDataObject };
		const old = { ...(seeds['trigger-node'] as IDataObject), nodeId: 'deleted-trigger-node' };
		const data = { ...stored, 'node:Recruiting Polling Trigger': { recruitingPoll: { ...byName.recruitingPoll, nodeId: 'deleted-trigger-node' } }, global: { recruitingPollSeeds: { 'deleted-trigger-node': old } } };
		const parameters = { event: 'application.created', ...(newTriggerStartFrom && { options: { startFrom: newTriggerStartFrom } }) };
		const b = onFake(parameters, { workflowId, staticData: new StaticDataStore(data) });
		return { b, apps };
	}

	it('the new trigger, published without Start From, reports nothing from before it existed', async () => {
		const { b, apps } = await run();
		const first = await b.activate();
		expect(ids(first.emitted)).toEqual([]);
		apps.items.push(application('app_after', at(0)));
		expect(ids((await b.tick()).emitted)).toEqual(['app_after']);
	});

	it('the new trigger with Start From 1 day ago (after the gap\'s applications) reports nothing older at publishing', async () => {
		const { b } = await run(at(-1 * 24 * 60 * MINUTE));
		const first = await b.activate();
		expect(ids(first.emitted)).toEqual([]);
	});
});

/** A trigger published on the fake service (durable engine) whose credential's Base URL a test edits later. */
async function publishedWithEditableBaseUrl() {
	const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const };
	fake.lists.set('/applications', apps);
	apps.items.push(application('app_old', at(-2 * 24 * 60 * MINUTE)));
	const credential = { baseUrl: fake.url };
	const t = pollHarness(new RecruitingPollingTrigger(), { event: 'application.created', options: {} } as never, {
		typeVersion: 1,
		engine: 'durable',
		credentials: {
			recruitingApi: {
				get baseUrl() {
					return credential.baseUrl;
				},
				companyId: 'co_fake',
				accessToken: 'tok_cause',
			},
		},
		credentialTypes: [new RecruitingApi()],
	});
	expect(await t.activate()).toEqual({ emitted: [] });
	return { t, credential };
}

describe('the credential\'s Base URL edited after publishing to something that is not the service', () => {
	async function causeWith(answer: { status: number; contentType: string; body: string; location?: string }) {
		const other = await startFixedAnswerServer(answer);
		try {
			const { t, credential } = await publishedWithEditableBaseUrl();
			credential.baseUrl = other.url; // n8n's own editor on this machine, say
			const { error } = await t.tick();
			return { message: error?.message, cause: (error as { failure?: { cause: string } } | undefined)?.failure?.cause };
		} finally {
			await other.close();
		}
	}

	it('an HTML page (HTTP 200): the failed poll says "check the Base URL" and declares configuration-invalid', async () => {
		const { message, cause } = await causeWith({ status: 200, contentType: 'text/html', body: '<!DOCTYPE html><html><head><title>n8n.io - Workflow Automation</title></head><body></body></html>' });
		expect(message).toMatch(/Base URL/);
		expect(cause).toMatch(/^(configuration-invalid|credential-invalid)$/);
	});

	it('an HTML 404 (not a problem document) declares configuration-invalid', async () => {
		const { cause } = await causeWith({ status: 404, contentType: 'text/html', body: '<html><body>Not Found</body></html>' });
		expect(cause).toMatch(/^(configuration-invalid|credential-invalid)$/);
	});
});
