/**
 * Reliability, part 3: secrets. With a sentinel access token and a sentinel signing key, every
 * operation's success and failure paths (401, 404, 400, 500, network error; with and without
 * Continue On Fail) and the trigger's lifecycle with good and bad deliveries must never show
 * either sentinel in an error (message, description, context, cause), an output item, the run
 * data / execution data, workflow static data, or anything logged (n8n's logger at debug level,
 * console, stdout/stderr).
 */
import './debugLogging';

import { Container } from '@n8n/di';
import { Logger } from '@n8n/backend-common';
import { randomBytes } from 'crypto';
import type { INodeParameters } from 'n8n-workflow';
import { Webhook as Signer } from 'standardwebhooks';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import type { FaultRule, Webhook } from '../../sandbox';
import { hookHarness, StaticDataStore, webhookServer } from '../harness';
import { restartableTrigger } from '../trigger/process';
import { startNodeFixture, writeCounts, type NodeFixture } from './helpers';
import { seededRecords } from './seeded';

const SENTINEL_TOKEN = 'SeNtInEl-AcCeSs-ToKeN-4f1c9e2b7d';
const KEY_TEXT = 'SeNtInEl-SiGnInG-KeY-8a3e5d1f';
const SENTINEL_KEY = `whsec_${Buffer.from(KEY_TEXT).toString('base64')}`;
/** Every form a sentinel could leak in. */
const NEEDLES = [SENTINEL_TOKEN, SENTINEL_KEY, SENTINEL_KEY.slice('whsec_'.length), KEY_TEXT, Buffer.from(SENTINEL_TOKEN).toString('base64')];

const startedAt = Date.now();
const counts = { runsScanned: 0, placesScanned: 0, logLinesScanned: 0, leaks: 0 };
const SIZES = { applications: 3, jobs: 3, candidates: 3, tags: 3 };

/* ---------- capture everything that is logged ---------- */

const logged: string[] = [];
const restorers: Array<() => void> = [];

/** Records every call; `passThrough` false swallows it (console: thousands of lines otherwise). */
function capture(target: object, method: string, label: string, passThrough = true) {
	const original = (target as Record<string, unknown>)[method] as ((...args: unknown[]) => unknown) | undefined;
	if (typeof original !== 'function') return;
	const spy = function (this: unknown, ...args: unknown[]) {
		logged.push(`${label}: ${args.map((a) => safeText(a)).join(' ')}`);
		return passThrough ? original.apply(this, args) : undefined;
	};
	Object.defineProperty(target, method, { value: spy, configurable: true, writable: true });
	restorers.push(() => Object.defineProperty(target, method, { value: original, configurable: true, writable: true }));
}

/** Any value as text, including what JSON.stringify skips: Error message, stack, cause, own props. */
function safeText(value: unknown, seen = new WeakSet<object>()): string {
	if (value === null || value === undefined) return String(value);
	if (typeof value === 'string') return value;
	if (typeof value !== 'object' && typeof value !== 'function') return String(value);
	if (Buffer.isBuffer(value)) return value.toString('utf8') + ' ' + value.toString('base64');
	if (seen.has(value as object)) return '';
	seen.add(value as object);
	const parts: string[] = [];
	for (const key of Object.getOwnPropertyNames(value)) {
		let inner: unknown;
		try {
			inner = (value as Record<string, unknown>)[key];
		} catch {
			continue;
		}
		if (typeof inner === 'function') continue;
		parts.push(`${key}=${safeText(inner, seen)}`);
	}
	if (value instanceof Error) parts.push(value.message, String(value.stack), safeText((value as { cause?: unknown }).cause, seen));
	return parts.join(' ');
}

function expectNoSentinel(what: string, value: unknown) {
	counts.placesScanned++;
	const text = safeText(value);
	const found = NEEDLES.filter((needle) => text.includes(needle));
	if (found.length) counts.leaks++;
	expect({ what, found }).toEqual({ what, found: [] });
}

beforeAll(() => {
	for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) capture(console, method, `console.${method}`, false);
	capture(process.stdout, 'write', 'stdout');
	capture(process.stderr, 'write', 'stderr');
	const logger = Container.get(Logger);
	for (const level of ['error', 'warn', 'info', 'debug', 'verbose']) capture(logger, level, `n8n logger ${level}`, false);
});
afterAll(() => {
	for (const restore of restorers.reverse()) restore();
	counts.logLinesScanned = logged.length;
	writeCounts('secrets', counts, { startedAt });
});

/* ---------- the action node: every operation, success and failure ---------- */

describe('Recruiting node, sentinel access token', () => {
	let fx: NodeFixture;
	/** A service that expects another token: the sentinel is sent and refused (a real 401). */
	let other: NodeFixture;
	beforeAll(async () => {
		fx = await startNodeFixture({ token: SENTINEL_TOKEN, seed: SIZES });
		other = await startNodeFixture({ token: 'the-token-the-service-expects', seed: SIZES });
	});
	afterAll(async () => {
		await fx.close();
		await other.close();
	});

	const rec = <T = { id: string }>(c: Parameters<typeof seededRecords>[1]) => seededRecords<T>('cmp_demo', c, SIZES);
	const [job, job2] = rec('jobs');
	const [candidate] = rec('candidates');
	const [application] = rec('applications');
	const [interview] = rec('interviews');
	const [tag] = rec('tags');
	const [form] = rec('applicationForms');
	const [note] = rec<{ id: string; candidate_id: string }>('candidateNotes');
	const [fb] = rec<{ id: string; questions: Array<{ id: string }> }>('feedback');
	const locator = (value: string) => ({ __rl: true, mode: 'id', value });

	const OPERATIONS: Array<[string, INodeParameters]> = [
		['application getMany', { resource: 'application', operation: 'getMany', returnAll: true }],
		['applicationForm delete', { resource: 'applicationForm', operation: 'delete', formId: form.id }],
		['candidate get', { resource: 'candidate', operation: 'get', candidateId: candidate.id }],
		['candidate update', { resource: 'candidate', operation: 'update', candidateId: candidate.id, updateFields: { title: 'CTO' } }],
		['candidate addTag', { resource: 'candidate', operation: 'addTag', candidateId: candidate.id, tagId: locator(tag.id) }],
		['candidateNote update', { resource: 'candidateNote', operation: 'update', candidateId: note.candidate_id, noteId: note.id, updateFields: { text: 'x' } }],
		['emailTemplate getMany', { resource: 'emailTemplate', operation: 'getMany', returnAll: true }],
		['feedback update', { resource: 'feedback', operation: 'update', feedbackId: fb.id, applicationId: application.id, formId: form.id, answers: { answer: [{ questionId: fb.questions[0].id, text: 'ok' }] } }],
		['interview create', { resource: 'interview', operation: 'create', applicationId: locator(application.id), type: 'online', start: '2031-01-01T09:00:00Z', end: '2031-01-01T10:00:00Z', timeZone: 'UTC' }],
		['interview cancel', { resource: 'interview', operation: 'cancel', interviewId: interview.id }],
		['job create', { resource: 'job', operation: 'create', title: 'Secret keeper' }],
		['job get', { resource: 'job', operation: 'get', jobId: job.id }],
		['job delete', { resource: 'job', operation: 'delete', jobId: job2.id }],
		['jobNote getMany', { resource: 'jobNote', operation: 'getMany', jobId: job.id, returnAll: true }],
		['tag getMany', { resource: 'tag', operation: 'getMany', returnAll: true }],
		['userCategory getMany', { resource: 'userCategory', operation: 'getMany', returnAll: true }],
		['webhook get', { resource: 'webhook', operation: 'get', webhookId: 'wh_demo' }],
		['webhook update', { resource: 'webhook', operation: 'update', webhookId: 'wh_demo', updateFields: { name: 'Renamed' } }],
	];

	const FAILURES: Array<[string, FaultRule[] | 'wrongToken']> = [
		['success', []],
		['401 from the service', [{ kind: 'status', status: 401, times: -1 }]],
		['401 for a wrong token (the sentinel is sent, the service expects another)', 'wrongToken'],
		['404', [{ kind: 'status', status: 404, times: -1 }]],
		['400', [{ kind: 'status', status: 400, times: -1 }]],
		['500', [{ kind: 'status', status: 500, times: -1 }]],
		['network error', [{ kind: 'drop', times: -1 }]],
	];

	const cases = OPERATIONS.flatMap(([name, params]) => FAILURES.map(([failure, rules]) => [name, failure, params, rules] as const));

	test.each(cases)('%s, %s: no sentinel in errors, items, run data, static data or logs', async (name, failure, params, rules) => {
		fx.sandbox.reset(SIZES);
		const wrongToken = rules === 'wrongToken';
		const target = wrongToken ? other : fx;
		fx.sandbox.setFaults(wrongToken ? [] : rules);
		target.sandbox.clearRequests();
		const logStart = logged.length;
		// Continue On Fail turns the error into an output item: checked too, where failing is fast.
		const slow = failure === '500' || failure === 'network error';
		for (const continueOnFail of failure === 'success' || slow ? [false] : [false, true]) {
			const result = await target.run(params, { continueOnFail, credentials: { accessToken: SENTINEL_TOKEN } });
			counts.runsScanned++;
			if (failure === 'success') expect(result.error).toBeUndefined();
			else expect(result.error ?? result.items[0]?.json.error).toBeDefined();
			expect(target.sandbox.requests.every((r) => r.headers.authorization === `Bearer ${SENTINEL_TOKEN}`)).toBe(true);
			expectNoSentinel(`${name} ${failure}: error`, result.error);
			expectNoSentinel(`${name} ${failure}: recorded error`, result.recordedError);
			expectNoSentinel(`${name} ${failure}: output items`, result.items);
			expectNoSentinel(`${name} ${failure}: run data`, result.runData);
			expectNoSentinel(`${name} ${failure}: execution data`, result.run.data);
			expectNoSentinel(`${name} ${failure}: static data`, result.workflow.staticData);
		}
		expectNoSentinel(`${name} ${failure}: logs`, logged.slice(logStart));
	});

	test('the wrong-token case really is a 401 for the sentinel', async () => {
		const result = await other.run({ resource: 'job', operation: 'get', jobId: job.id }, { credentials: { accessToken: SENTINEL_TOKEN } });
		expect((result.error as { httpCode?: string }).httpCode).toBe('401');
	});
});

/* ---------- the trigger: lifecycle, deliveries, key fetch failures ---------- */

describe('Recruiting Trigger, sentinel token and signing key', () => {
	test('activate, good and bad deliveries, a key that cannot be fetched, deactivate: no sentinel anywhere', async () => {
		const fx = await startNodeFixture({ token: SENTINEL_TOKEN, seed: SIZES });
		const { sandbox } = fx;
		try {
			sandbox.put('webhooks', { ...(sandbox.get('webhooks', 'wh_demo') as Webhook), signing_key: SENTINEL_KEY });
			const n8n = restartableTrigger(); // a freshly started process runs the trigger
			const logStart = logged.length;
			const store = new StaticDataStore();
			const parameters = { webhookId: 'wh_demo', events: ['candidate.updated'], options: { includeHeaders: true } };
			const options = {
				credentials: { recruitingApi: { baseUrl: sandbox.url, companyId: sandbox.companyId, accessToken: SENTINEL_TOKEN } },
				credentialTypes: [new RecruitingApi()],
				staticData: store,
			};
			const server = await webhookServer(n8n.node, parameters, options);
			const hooks = hookHarness(n8n.node, parameters, { ...options, webhookBaseUrl: server.webhookBaseUrl });
			try {
				await hooks.activate();
				// Good deliveries, from the service and by hand.
				expect((await sandbox.deliver({ webhookId: 'wh_demo', event: 'candidate.updated' })).status).toBe(200);
				const post = async (signingKey: string, headers: Record<string, string> = {}) => {
					const at = new Date();
					const body = JSON.stringify({ type: 'candidate.updated', data: { object: { id: 'can_1' } } });
					const response = await fetch(server.url, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							'webhook-id': 'msg_secret',
							'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
							'webhook-signature': new Signer(signingKey).sign('msg_secret', at, body),
							...headers,
						},
						body,
					});
					return response.status;
				};
				expect(await post(SENTINEL_KEY)).toBe(200);
				// Bad ones: wrong key (costs one key refetch), malformed, stale.
				expect(await post(`whsec_${randomBytes(24).toString('base64')}`)).toBe(401);
				expect(await post(SENTINEL_KEY, { 'webhook-signature': 'garbage' })).toBe(401);
				expect(await post(SENTINEL_KEY, { 'webhook-timestamp': '1' })).toBe(401);
				// The key cannot be fetched (a fresh process, the service says 401 / is unreachable): logged errors.
				for (const rule of [
					{ kind: 'status', status: 401, method: 'GET', times: -1 },
					{ kind: 'drop', method: 'GET', times: -1 },
				] as FaultRule[]) {
					n8n.restart();
					sandbox.setFaults([rule]);
					expect(await post(SENTINEL_KEY)).toBe(503);
					sandbox.setFaults([]);
				}
				// Activation that fails (the service refuses the PUT) and a deactivation.
				sandbox.setFaults([{ kind: 'status', status: 500, method: 'PUT', times: -1 }]);
				await expect(hooks.create()).rejects.toThrow();
				sandbox.setFaults([]);
				await hooks.deactivate();

				counts.runsScanned += server.calls.length + hooks.calls.length;
				expectNoSentinel('trigger: hook calls (results, errors, static data)', hooks.calls);
				expectNoSentinel('trigger: webhook calls (items, responses, errors, static data)', server.calls.map((c) => ({ ...c, request: { ...c.request, headers: undefined } })));
				expectNoSentinel('trigger: stored static data', store.workflowData);
				expectNoSentinel('trigger: logs', logged.slice(logStart));
				// And the test did exercise the logging paths.
				expect(logged.slice(logStart).some((line) => /could not fetch the signing key/.test(line))).toBe(true);
			} finally {
				await server.close();
			}
		} finally {
			await fx.close();
		}
	}, 60_000);
});

test('the log capture works (n8n logger lines were seen)', () => {
	expect(logged.some((line) => line.startsWith('n8n logger'))).toBe(true);
	expect(counts.leaks).toBe(0);
});
