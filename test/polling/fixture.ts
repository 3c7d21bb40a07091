/**
 * The Recruiting Polling Trigger against the sandbox over real HTTP, polled through n8n-core's
 * PollContext (test/harness/pollHarness.ts): one sandbox per file, reset before each test.
 */
import type { INodeParameters } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { startSandbox, type Application, type Sandbox, type SandboxOptions } from '../../sandbox';
import { pollHarness, type PollHarness, type PollHarnessOptions } from '../harness';

export const SEED = { applications: 30, jobs: 3, candidates: 30 };

/** The warnings n8n's logger receives while `run` runs (what a self-hoster sees in n8n's log). */
export async function warningsDuring(run: () => Promise<unknown>): Promise<string[]> {
	const { Logger } = await import('@n8n/backend-common');
	const { Container } = await import('@n8n/di');
	const warnings: string[] = [];
	const spy = jest.spyOn(Container.get(Logger), 'warn').mockImplementation((message: string) => void warnings.push(message));
	try {
		await run();
	} finally {
		spy.mockRestore();
	}
	return warnings;
}

/** GET on the sandbox's API (outside the trigger; the request is recorded like any). */
export async function apiGet<T>(sandbox: Sandbox, path: string): Promise<T> {
	const response = await fetch(`${sandbox.url}/v1.0/${sandbox.companyId}${path}`, {
		headers: { authorization: `Bearer ${sandbox.token}` },
	});
	return (await response.json()) as T;
}

export function usePollingFixture(options: Omit<SandboxOptions, 'port' | 'seed'> = {}) {
	let sandbox: Sandbox;
	let counter = 0;
	let template: Application;
	let seeded: Application[];
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: SEED, ...options });
	});
	afterAll(async () => {
		await sandbox.close();
	});
	beforeEach(async () => {
		sandbox.reset(SEED);
		// A token of its own per test: a 429's pause or pace (kept per credential) must not carry into the next test.
		sandbox.rotateToken();
		counter = 0;
		seeded = (await apiGet<{ items: Application[] }>(sandbox, '/applications?page_size=100&sort=-applied_at')).items;
		template = seeded[0];
		sandbox.clearRequests();
	});

	/** The sandbox's credential, for the trigger and for the editor's methods (loadOptionsHarness). */
	const harnessOptions = () => ({
		// Read at each request: a token rotated mid-test is the one sent from then on.
		credentials: { recruitingApi: { baseUrl: sandbox.url, companyId: sandbox.companyId, get accessToken() { return sandbox.token; } } },
		credentialTypes: [new RecruitingApi()],
	});

	/**
	 * The trigger at `typeVersion`. Version 1 by default: the suites give Job IDs as version 1's text,
	 * which version 2's rows of pickers do not take (picker.test.ts runs version 2); the rest is the same code.
	 */
	const trigger = (parameters: INodeParameters, engine: PollHarnessOptions['engine'] = 'default', typeVersion = 1): PollHarness =>
		pollHarness(new RecruitingPollingTrigger(), { options: {}, ...parameters }, { engine, typeVersion, ...harnessOptions() });

	/** A new application (a copy of a seeded one, in the first stage) applied at `appliedAt` (default: now). */
	function apply(appliedAt = new Date().toISOString(), overrides: Partial<Application> = {}): Application {
		counter += 1;
		const application: Application = {
			...structuredClone(template),
			id: `app_poll${String(counter).padStart(5, '0')}`,
			applied_at: appliedAt,
			stage: { ...template.stage, parent_stage: 'new' },
			...overrides,
		};
		sandbox.put('applications', application);
		return application;
	}

	/** A note on job `jobId` written at `date` (default: now). */
	const note = (id: string, jobId: string, date = new Date().toISOString()) =>
		sandbox.put('jobNotes', { id, job_id: jobId, date_created: date, text: id, creator: { name: 'T' }, files: [], mentioned_users: [], restricted: false });

	/** The jobs of the newest seeded application and of the newest one of another job. */
	const twoJobs = () => [seeded[0].job.id, seeded.find((a) => a.job.id !== seeded[0].job.id)!.job.id];

	return {
		get sandbox() {
			return sandbox;
		},
		/** The seeded applications, newest first. */
		get seeded() {
			return seeded;
		},
		trigger,
		harnessOptions,
		apply,
		note,
		twoJobs,
		/** Requests to the applications list since the last clearRequests. */
		applicationRequests: () => sandbox.requests.filter((r) => r.segments[r.segments.length - 1] === 'applications'),
	};
}
