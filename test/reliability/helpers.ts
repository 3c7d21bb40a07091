/**
 * Shared pieces of the reliability suites (faults, bad input, secrets, webhook attacks):
 * a Recruiting-node fixture whose sandbox can take any token, and the counts file each suite
 * writes to build/reliability/<part>.json for scripts/reliability/report.js.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxOptions } from '../../sandbox';
import type { RunNodeResult } from '../harness';
import { startRecruitingFixture, type RecruitingFixture } from '../recruiting/fixture';

export const REPORT_DIR = path.resolve(__dirname, '..', '..', 'build', 'reliability');

/** The counts the report table shows; a suite fills in the ones it measures. */
export interface ReliabilityCounts {
	faultsInjected?: number;
	inputsTried?: number;
	attacksTried?: number;
	itemsLost?: number;
	duplicateWrites?: number;
	forgedDeliveriesAccepted?: number;
	/** Anything else worth a line in the report (name → number). */
	[extra: string]: number | undefined;
}

/**
 * Writes build/reliability/<part>.json. Called from a suite's afterAll, so a partial run still
 * leaves its numbers; `failed` tells the report whether every test of the part passed.
 */
export function writeCounts(
	part: string,
	counts: ReliabilityCounts,
	details: { startedAt: number; seed?: number; notes?: string[] },
): void {
	mkdirSync(REPORT_DIR, { recursive: true });
	const file = path.join(REPORT_DIR, `${part}.json`);
	writeFileSync(
		file,
		JSON.stringify(
			{
				part,
				finishedAt: new Date().toISOString(),
				durationMs: Date.now() - details.startedAt,
				seed: details.seed,
				counts,
				notes: details.notes ?? [],
			},
			null,
			2,
		) + '\n',
	);
}

export type NodeFixture = RecruitingFixture;

/** As test/recruiting/fixture.ts's startRecruitingFixture, but with any sandbox options (token, company). */
export async function startNodeFixture(options: SandboxOptions = {}): Promise<NodeFixture> {
	return await startRecruitingFixture(undefined, options);
}

/** The error a run failed with, as the fields the suites look at (undefined when it succeeded). */
export function failure(result: RunNodeResult):
	| { name: string; message: string; description: string; httpCode?: string; itemIndex?: number }
	| undefined {
	const error = result.error as
		| (Error & { description?: string | null; httpCode?: string | null; context?: { itemIndex?: number } })
		| undefined;
	if (!error) return undefined;
	return {
		name: error.constructor?.name ?? error.name,
		message: error.message,
		description: error.description ?? '',
		httpCode: error.httpCode ?? undefined,
		itemIndex: error.context?.itemIndex,
	};
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
