/**
 * Outside tool mode nothing changed (issue #20): the outputs of the read operations and a not-found
 * error, on node versions 1 and 1.1, are what the package gave before tool mode existed, except
 * the changes listed in INTENDED_CHANGES, each stated here with its commit and why.
 *
 * The reference (fixtures/outputs-before-tool-mode.json) is data computed by the old package
 * itself: scripts/reference/outputsBeforeToolMode.js runs outputsOutsideToolMode.ts in a checkout
 * of 20baf4f, the parent of the tool-mode commit 465fb86, and refuses any other commit. No test
 * writes it.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { useRecruitingFixture } from './fixture';
import { SEED, outputsOutsideToolMode } from './outputsOutsideToolMode';

const REFERENCE = path.join(__dirname, 'fixtures', 'outputs-before-tool-mode.json');
const fx = useRecruitingFixture(SEED);

const notFoundBefore = JSON.stringify({ error: 'The candidate "can_missing" was not found', description: "Candidate 'can_missing' was not found." });
const notFoundNow = JSON.stringify({
	error: 'The candidate "can_missing" was not found',
	description: "GET /candidates/can_missing answered 404: check the ID, and that it belongs to the credential's company",
});

/**
 * Outputs that differ from the reference on purpose, after tool mode: key → the reference's value,
 * today's, and the commit that changed it.
 */
const INTENDED_CHANGES: Record<string, { before: string; now: string; why: string }> = Object.fromEntries(
	['candidate.get missing v1', 'candidate.get missing v1.1'].map((key) => [
		key,
		{
			before: notFoundBefore,
			now: notFoundNow,
			why: "354d620: a 404's description no longer repeats the service's restatement of the message; it names the request and what to check",
		},
	]),
);

test('read operations and errors outside tool mode give the outputs of before, but for the intended changes listed', async () => {
	const now = await outputsOutsideToolMode(fx);
	const before = JSON.parse(fs.readFileSync(REFERENCE, 'utf8')) as Record<string, string>;
	expect(Object.keys(now)).toEqual(Object.keys(before));
	for (const key of Object.keys(before)) {
		const change = INTENDED_CHANGES[key];
		// A listed change must be a real difference from the reference, and exactly the one stated.
		if (change) expect([key, before[key], now[key]]).toEqual([key, change.before, change.now]);
		else expect([key, now[key]]).toEqual([key, before[key]]);
	}
});

test('the script that writes the reference refuses a checkout of any other commit (here: this one)', () => {
	const root = path.resolve(__dirname, '..', '..');
	const run = spawnSync(process.execPath, ['scripts/reference/outputsBeforeToolMode.js', '--checkout', root, '--out', path.join(os.tmpdir(), 'never-written.json')], {
		cwd: root,
		encoding: 'utf8',
	});
	expect([run.status, run.stderr]).toEqual([1, expect.stringMatching(/not 20baf4f \(the commit before tool mode\): refusing/)]);
	expect(fs.existsSync(path.join(__dirname, 'outputsOutsideToolMode.ts'))).toBe(true);
});
