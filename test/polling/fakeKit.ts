/**
 * What the tests against the fake list service (test/harness/fakeServices.ts) share: times relative
 * to now, a clock moved by hand, the IDs an emission holds, an application of job_1, and the trigger
 * on the fake, with a token of its own per trigger (a 429's pause or pace, kept per credential, must
 * not carry over).
 */
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { pollHarness, type PollHarnessOptions } from '../harness';
import type { PollHarness } from '../harness';
import type { FakeListService } from '../harness/fakeServices';

export const MINUTE = 60_000;

export const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** Fake Date only (timers stay real), so `later` moves n8n's clock and the fake's Date header (which follows Date.now). */
export const fakeClock = () =>
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'] });

/** Moves n8n's clock and the service's (the fake's Date header follows Date.now) by `ms`; after `fakeClock()`. */
export function later(ms: number) {
	jest.setSystemTime(Date.now() + ms);
}

export const ids = (items: IDataObject[]) => items.map((item) => String((item.object as { id: string | number }).id));

/** A New Job Note emission as `jobId:noteId`. */
export const noteIds = (items: IDataObject[]) => items.map((i) => `${String(i.jobId)}:${(i.object as { id: string }).id}`);

/** An application of job_1 in the first stage. */
export const application = (id: string, appliedAt: string | null, extra: IDataObject = {}) => ({
	id,
	applied_at: appliedAt,
	job: { id: 'job_1' },
	stage: { parent_stage: 'new', custom_stage: null },
	...extra,
});

/** `trigger(parameters, options)`: the polling trigger (version 1: Job IDs as text) on the fake service. */
export function triggerOn(fake: FakeListService, tokenPrefix: string) {
	let tokens = 0;
	return (parameters: IDataObject, options: Partial<PollHarnessOptions> = {}) =>
		pollHarness(new RecruitingPollingTrigger(), { options: {}, ...parameters } as never, {
			typeVersion: 1,
			credentials: { recruitingApi: { baseUrl: fake.url, companyId: 'co_fake', accessToken: `${tokenPrefix}_${++tokens}` } },
			credentialTypes: [new RecruitingApi()],
			...options,
		});
}

/** 5 old applications, seeded at activation; then 150 in the 2½ minutes before now (pages 1 and 2), reported. */
export async function burstOf150(fake: FakeListService, trigger: (parameters: IDataObject) => PollHarness, totalItems?: (length: number) => number) {
	const apps = { items: [] as IDataObject[], field: 'applied_at', order: 'newestFirst' as const, totalItems };
	fake.lists.set('/applications', apps);
	for (let i = 0; i < 5; i++) apps.items.push(application(`app_old${i}`, at(-2 * 24 * 60 * MINUTE + i)));
	const t = trigger({ event: 'application.created' });
	expect(await t.activate()).toEqual({ emitted: [] });
	const burst = Array.from({ length: 150 }, (_, i) => application(`app_b${String(i).padStart(3, '0')}`, at(-150_000 + i * 1000)));
	apps.items.push(...burst);
	expect((await t.tick()).emitted).toHaveLength(150);
	return { apps, t, burst };
}
