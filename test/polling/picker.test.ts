/**
 * The Job IDs picker: version 2's Job IDs are picked from the jobs found on applications (the
 * service lists no jobs) or given by ID; version 1's comma-separated text keeps working as saved;
 * an ID is checked before any request and percent-encoded in the path.
 * Through n8n-core's LoadOptionsContext and PollContext, against the sandbox over HTTP.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { MAX_JOBS } from '../../nodes/RecruitingPollingTrigger/settings';
import { loadOptionsHarness } from '../harness';
import { at, noteIds } from './fakeKit';
import { usePollingFixture } from './fixture';

const fx = usePollingFixture();
const description = new RecruitingPollingTrigger().description;

/** The jobs of the seeded applications, each once: id → title. */
const jobsOnApplications = () => new Map(fx.seeded.map((a) => [a.job.id, a.job.title]));

/** Three jobs, the first two followed. */
function threeJobs(): [string, string, string] {
	const ids = [...jobsOnApplications().keys()];
	expect(ids.length).toBeGreaterThanOrEqual(3);
	return [ids[0], ids[1], ids[2]];
}

/** Version 2's Job IDs as the editor saves them: one row per job, picked or given by ID. */
const picked = (...jobs: Array<{ mode: 'list' | 'id'; value: string; cachedResultName?: string }>) => ({
	jobs: jobs.map((job) => ({ job: { __rl: true, ...job } })),
});

const { note } = fx;
const objectIds = (items: IDataObject[]) => items.map((item) => (item.object as { id: string }).id);

describe('the version 2 picker', () => {
	const v2JobIds = () => description.properties.filter((p) => p.name === 'jobIds' && p.type === 'fixedCollection');
	const locatorOf = (property: INodeProperties) => (property.options as Array<{ values: INodeProperties[] }>)[0].values[0];

	it('is the default version; each row picks from the trigger\'s own list method or takes an ID', () => {
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
		const [locator] = v2JobIds().map(locatorOf);
		expect(locator.type).toBe('resourceLocator');
		expect(locator.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
		const method = locator.modes?.[0].typeOptions?.searchListMethod;
		expect(method).toBe('searchJobs');
		expect(new RecruitingPollingTrigger().methods.listSearch).toHaveProperty(method as string);
	});

	it('lists each job found on the applications once, by title, and finds one by part of its title', async () => {
		const expected = jobsOnApplications();
		const picker = loadOptionsHarness(new RecruitingPollingTrigger(), { event: 'job.note.created' }, fx.harnessOptions());
		const all = await picker.search('searchJobs');
		expect(all.paginationToken).toBeUndefined();
		expect(new Map(all.results.map((r) => [r.value, r.name]))).toEqual(expected);
		const [id, title] = [...expected][1];
		const found = await picker.search('searchJobs', title.slice(1, 7).toUpperCase());
		expect(found.results.map((r) => r.value)).toContain(id);
		expect(found.results.every((r) => r.name.toLowerCase().includes(title.slice(1, 7).toLowerCase()))).toBe(true);
		expect((await picker.search('searchJobs', 'zz-no-such-title-zz')).results).toEqual([]);
	});
});

describe('a version 2 trigger follows the jobs picked', () => {
	it('New Job Note: a picked job and one given by ID (an expression) are read; the other job is not', async () => {
		const [jobA, jobB, jobC] = threeJobs();
		const titles = jobsOnApplications();
		const trigger = fx.trigger(
			{
				event: 'job.note.created',
				jobIds: picked({ mode: 'list', value: jobA, cachedResultName: titles.get(jobA) }, { mode: 'id', value: `={{ "${jobB}" }}` }),
			},
			'default',
			2,
		);
		expect(await trigger.activate()).toEqual({ emitted: [] });
		note('jnote_a', jobA);
		note('jnote_b', jobB);
		note('jnote_c', jobC);
		fx.sandbox.clearRequests();
		expect(noteIds((await trigger.tick()).emitted).sort()).toEqual([`${jobA}:jnote_a`, `${jobB}:jnote_b`]);
		const read = fx.sandbox.requests.map((r) => r.segments.join('/'));
		expect(read.some((path) => path.includes(jobC))).toBe(false);
		expect(read.filter((path) => path.includes(jobA) || path.includes(jobB))).toHaveLength(2);
	});

	it('New Application: Options → Job IDs picked filters the applications', async () => {
		const [jobA, , jobC] = threeJobs();
		const job = (id: string) => fx.seeded.find((a) => a.job.id === id)!.job;
		const trigger = fx.trigger({ event: 'application.created', options: { jobIds: picked({ mode: 'list', value: jobA }) } }, 'default', 2);
		expect(await trigger.activate()).toEqual({ emitted: [] });
		const wanted = fx.apply(at(0), { job: job(jobA) });
		fx.apply(at(0), { job: job(jobC) });
		expect(objectIds((await trigger.tick()).emitted)).toEqual([wanted.id]);
	});

	it('no job picked for a per-job event, or more than the most: the errors name Job IDs, before any request', async () => {
		const none = await fx.trigger({ event: 'application.stage.updated', jobIds: {} }, 'default', 2).activate();
		expect(none.error?.message).toMatch(/^Job IDs: enter at least one job ID/);
		const many = Array.from({ length: MAX_JOBS + 1 }, (_, i) => ({ mode: 'id' as const, value: `job_${i}` }));
		const tooMany = await fx.trigger({ event: 'job.note.created', jobIds: picked(...many) }, 'default', 2).activate();
		expect(tooMany.error?.message).toBe(`Job IDs: at most ${MAX_JOBS} jobs (${MAX_JOBS + 1} entered); each is read at every poll`);
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});

describe('version 1, as saved', () => {
	it('the comma-separated Job IDs text is followed as before', async () => {
		const [jobA, jobB, jobC] = threeJobs();
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: `${jobA}, ${jobB}` }, 'default', 1);
		expect(await trigger.activate()).toEqual({ emitted: [] });
		note('jnote_a', jobA);
		note('jnote_c', jobC);
		expect(noteIds((await trigger.tick()).emitted)).toEqual([`${jobA}:jnote_a`]);
	});

	it('Options → Job IDs as text filters New Application as before', async () => {
		const [jobA, , jobC] = threeJobs();
		const job = (id: string) => fx.seeded.find((a) => a.job.id === id)!.job;
		const trigger = fx.trigger({ event: 'application.created', options: { jobIds: jobA } }, 'default', 1);
		await trigger.activate();
		const wanted = fx.apply(at(0), { job: job(jobA) });
		fx.apply(at(0), { job: job(jobC) });
		expect(objectIds((await trigger.tick()).emitted)).toEqual([wanted.id]);
	});
});

describe('a bad ID', () => {
	it.each<[string, number, INodeParameters]>([
		['version 1 text', 1, { event: 'job.note.created', jobIds: 'job_ok, ..' }],
		['version 2 row by ID', 2, { event: 'job.note.created', jobIds: picked({ mode: 'id', value: 'job_ok' }, { mode: 'id', value: '..' }) }],
		['version 2 filter', 2, { event: 'application.created', options: { jobIds: picked({ mode: 'id', value: '..' }) } }],
	])('%s: a NodeOperationError naming Job IDs, before any request', async (_case, typeVersion, parameters) => {
		const { error } = await fx.trigger(parameters, 'default', typeVersion).activate();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('Invalid "Job IDs": "." and ".." are not valid IDs');
		expect(fx.sandbox.requests).toHaveLength(0);
	});
});

describe('an ID in the path', () => {
	it('a job ID with odd characters (/ ? % #) is percent-encoded and its notes found', async () => {
		const job = fx.sandbox.get('jobs', fx.seeded[0].job.id) as IDataObject;
		const oddId = 'job/odd?x=1%20#y';
		fx.sandbox.put('jobs', { ...job, id: oddId });
		const trigger = fx.trigger({ event: 'job.note.created', jobIds: oddId });
		expect(await trigger.activate()).toEqual({ emitted: [] });
		note('jnote_odd', oddId, at(0));
		const { emitted } = await trigger.tick();
		expect(emitted.map((i) => [i.jobId, (i.object as { id: string }).id])).toEqual([[oddId, 'jnote_odd']]);
	});
});
