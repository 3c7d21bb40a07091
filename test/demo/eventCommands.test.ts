/**
 * `npm start -- apply|move|note|feedback` (issue 43): each command, run as a user runs it (a second
 * process, `--sandbox-port` of a sandbox not on the default port, as `npm run sandbox -- --port N`
 * or the demo's `--sandbox-port` make it), changes the running sandbox so that the Recruiting
 * Polling Trigger, activated before, reports the event at its next poll. The commands' lines in
 * the sandbox's start-up text are the ones run here.
 */
import { execFile } from 'child_process';
import path from 'path';
import { promisify } from 'util';
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { eventCommands } from '../../sandbox/cli';
import { pollHarness, type PollHarness } from '../harness';

const ROOT = path.join(__dirname, '..', '..');
const run = promisify(execFile);

let sandbox: Sandbox;
let jobIds: string[];
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, seed: { applications: 30, jobs: 3, candidates: 30 } });
	jobIds = ((await (await fetch(`${sandbox.url}/__sandbox/info`)).json()) as { jobIds: string[] }).jobIds;
});
afterAll(async () => {
	await sandbox.close();
});

/** The command as the sandbox's start-up text prints it, run in a second process from the repository. */
async function command(name: string, ...extra: string[]): Promise<string> {
	const line = eventCommands(sandbox.url, jobIds).find((l) => l.trim().startsWith(`npm start -- ${name} `));
	const args = /npm start -- (\S+(?: --sandbox-port \d+)?)/.exec(line ?? '')?.[1].split(' ');
	expect(args).toEqual([name, '--sandbox-port', new URL(sandbox.url).port]);
	const { stdout } = await run(process.execPath, [path.join(ROOT, 'scripts', 'demo.js'), ...args!, ...extra], { cwd: ROOT });
	return stdout;
}

const trigger = (parameters: IDataObject): PollHarness =>
	pollHarness(new RecruitingPollingTrigger(), { options: {}, ...parameters } as never, {
		typeVersion: 1, // Job IDs as version 1's text
		credentials: { recruitingApi: { baseUrl: sandbox.url, companyId: sandbox.companyId, accessToken: sandbox.token } },
		credentialTypes: [new RecruitingApi()],
	});

const objectOf = (item: IDataObject) => item.object as IDataObject;

test('the start-up text names the first job, and each command carries the port when it is not the default', () => {
	expect(jobIds).toHaveLength(2);
	const lines = eventCommands(sandbox.url, jobIds);
	expect(lines.map((l) => l.trim().split(/\s+#/)[0].trim())).toEqual(
		['apply', 'move', 'note', 'feedback'].map((name) => `npm start -- ${name} --sandbox-port ${new URL(sandbox.url).port}`),
	);
	expect(lines.join('\n')).toContain(jobIds[0]);
	expect(eventCommands('http://127.0.0.1:5730', jobIds)[0]).toMatch(/^ {4}npm start -- apply +# New Application/);
});

test('npm start -- apply: New Application reports the new candidate\'s application', async () => {
	const poll = trigger({ event: 'application.created' });
	await poll.activate();
	const said = await command('apply');
	const id = /\((app_\w+), job /.exec(said)?.[1];
	expect(said).toContain(`job ${jobIds[0]}`);
	expect((await poll.tick()).emitted.map(objectOf)).toEqual([expect.objectContaining({ id, job: expect.objectContaining({ id: jobIds[0] }) })]);
});

test('npm start -- move: Application Stage Changed reports the move, with the stage it left', async () => {
	const poll = trigger({ event: 'application.stage.updated', jobIds: jobIds[0] });
	await poll.activate();
	const said = await command('move');
	const [, id, stage] = /application (app_\w+) .* moved to (\w+)/.exec(said) ?? [];
	const [change] = (await poll.tick()).emitted;
	expect(change).toMatchObject({ event: 'application.stage.updated', object: { id, stage: { parent_stage: stage } } });
	expect((change.previousStage as IDataObject).parent_stage).not.toBe(stage);
	// --job moves in another job; the trigger follows the first only.
	expect(await command('move', '--job', jobIds[1])).toContain(`job ${jobIds[1]}`);
	expect((await poll.tick()).emitted).toEqual([]);
});

test('npm start -- note: New Job Note reports the note, with its job', async () => {
	const poll = trigger({ event: 'job.note.created', jobIds: jobIds[0] });
	await poll.activate();
	const said = await command('note');
	const id = /note (note_\w+) added to job/.exec(said)?.[1];
	expect((await poll.tick()).emitted).toEqual([expect.objectContaining({ jobId: jobIds[0], object: expect.objectContaining({ id }) })]);
});

test('npm start -- feedback: Feedback Completed reports the completed form', async () => {
	const poll = trigger({ event: 'feedback.submitted' });
	await poll.activate();
	const said = await command('feedback');
	const id = /feedback (fdbk_\w+) /.exec(said)?.[1];
	expect((await poll.tick()).emitted.map(objectOf)).toEqual([expect.objectContaining({ id, status: 'complete' })]);
});

test('without a sandbox there, or with a job it does not have, the command says so in one line', async () => {
	const gone = await startSandbox({ port: 0 });
	const port = new URL(gone.url).port;
	await gone.close();
	const failed = (args: string[]) => run(process.execPath, [path.join(ROOT, 'scripts', 'demo.js'), ...args], { cwd: ROOT }).then(
		() => '',
		(e: { code: number; stderr: string }) => `${e.code} ${e.stderr}`,
	);
	expect(await failed(['note', '--sandbox-port', port])).toBe(`1 [demo] no sandbox on http://127.0.0.1:${port}: start the demo (npm start) or the sandbox (npm run sandbox) first, or pass its --sandbox-port\n`);
	expect(await failed(['move', '--job', 'job_none', '--sandbox-port', new URL(sandbox.url).port])).toBe("1 [demo] the sandbox refused: Job 'job_none' was not found.\n");
});
