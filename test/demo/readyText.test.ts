/**
 * What `npm start` prints when it is ready (issue 43): the polling example with where its
 * messages go, `npm start -- apply`, job IDs for the Polling Trigger's Job IDs and the commands
 * that make each of its events; every `npm start -- …` line it prints is one the demo accepts.
 */
import { eventCommands } from '../../sandbox/cli';

const demo = require('../../scripts/demo.js') as {
	readyText(values: Record<string, unknown>): string;
	parseArgs(argv: string[]): { command: string };
	USAGE: string;
};

const jobIds = ['job_first', 'job_second'];
const values = {
	seconds: 12.3,
	editor: 'http://127.0.0.1:5678',
	owner: { email: 'owner@example.test', password: 'pw' },
	sandbox: { url: 'http://127.0.0.1:5730', companyId: 'cmp_demo', token: 'sandbox-token' },
	credentialName: 'Recruiting sandbox',
	ids: { chat: 'wfChat', chatPolling: 'wfPoll', hired: 'wfHired', export: 'wfExport', inbox: 'wfInbox', assistant: 'wfAssistant', safetyNet: 'wfNet' },
	modelUrl: 'http://127.0.0.1:5680/v1',
	chatPage: 'http://127.0.0.1:5678/webhook/x/chat',
	tryThese: ['find applications for job job_first at screening'],
	tryWebhookId: 'wh_try',
	jobIds,
	eventLines: eventCommands('http://127.0.0.1:5730', jobIds),
	userFolder: '/tmp/n8n-demo',
	logFile: '/tmp/n8n-demo/n8n.log',
};
const text = demo.readyText(values);

test('names the polling example and npm start -- apply, which makes an application for it', () => {
	expect(text).toContain('http://127.0.0.1:5678/workflow/wfPoll   new application -> chat message, by polling');
	expect(text).toMatch(/^ {4}npm start -- apply +# a candidate applies: the webhook examples post it at once, the polling one within a minute$/m);
});

test('names the safety-net example: the webhook and a poll for what it missed', () => {
	expect(text).toContain('http://127.0.0.1:5678/workflow/wfNet   every event once, instant with a safety net');
});

test('gives job IDs for Job IDs and the command for each of the Polling Trigger\'s events', () => {
	expect(text).toContain('Job IDs job_first, job_second');
	for (const [name, event] of [
		['apply', 'New Application'],
		['move', 'Application Stage Changed'],
		['note', 'New Job Note'],
		['feedback', 'Feedback Completed'],
	]) {
		expect(text).toMatch(new RegExp(`^ {4}npm start -- ${name} +# ${event}`, 'm'));
	}
});

test('with the sandbox on another port, every command it prints carries that port', () => {
	const other = demo.readyText({ ...values, sandbox: { ...values.sandbox, url: 'http://127.0.0.1:5791' }, eventLines: eventCommands('http://127.0.0.1:5791', jobIds) });
	const lines = other.split('\n').filter((line) => /^\s+npm start -- /.test(line));
	expect(lines).toHaveLength(8);
	for (const line of lines) expect(line).toMatch(/ --sandbox-port 5791( |$)/);
});

test('every npm start -- command it prints, and each example of --help, is one the demo accepts', () => {
	const commands = (from: string) => [...from.matchAll(/^\s+npm start -- ([^#\n]+?)\s*(?:#|$)/gm)].map((m) => m[1].trim().split(/\s+/));
	const printed = [...commands(text), ...commands(demo.USAGE.slice(demo.USAGE.indexOf('Examples:')))];
	expect(printed.length).toBeGreaterThanOrEqual(8);
	for (const args of printed) expect(() => demo.parseArgs(args)).not.toThrow();
	expect(new Set(printed.map((args) => demo.parseArgs(args).command))).toEqual(new Set(['deliver', 'apply', 'move', 'note', 'feedback']));
});
