/** The trigger's pure helpers: n8n URL recognition, the duplicate memory, the filters, header redaction, the test listen's note. */
import { redactHeaders } from '../../nodes/RecruitingTrigger/delivery';
import { filteredOut, jobIdOf, parentStageOf, parseIdList } from '../../nodes/shared/filters';
import { ownUrls, sameEndpoint } from '../../nodes/RecruitingTrigger/n8nUrls';
import { readFileSync } from 'fs';
import { join } from 'path';
import { RecruitingTrigger } from '../../nodes/RecruitingTrigger/RecruitingTrigger.node';
import type { isDuplicateDelivery as IsDuplicateDelivery } from '../../nodes/RecruitingTrigger/seenDeliveries';
import {
	DUPLICATE_WINDOW_MINUTES,
	DUPLICATE_WINDOW_MS,
	HELD_DELIVERIES_PER_SECOND,
	MAX_REMEMBERED_DELIVERIES,
} from '../../nodes/RecruitingTrigger/seenDeliveries';
import { readBorrowNote, withBorrowNote } from '../../nodes/RecruitingTrigger/borrowNote';
import { SIGNING_KEY_MAX_AGE_SECONDS } from '../../nodes/RecruitingTrigger/signingKeys';
import { seenDeliveriesInNewProcess } from './process';

describe('ownUrls', () => {
	const production = 'https://n8n.example.com/base/webhook/node-1/webhook';
	const test = 'https://n8n.example.com/base/webhook-test/node-1/webhook';

	it('derives the production and test URL from either', () => {
		for (const own of [production, test]) {
			const urls = ownUrls(own, 'node-1');
			expect([urls.production, urls.test]).toEqual([production, test]);
			expect(urls.isTest).toBe(own === test);
		}
	});

	it.each([
		[production, 'own-production'],
		[test, 'own-test'],
		['HTTPS://N8N.example.com:443/base/webhook/node-1/webhook', 'own-production'],
		['https://n8n.example.com/base/webhook/node-2/webhook', 'other-n8n'],
		['https://n8n.example.com/base/webhook-test/node-2/webhook', 'other-n8n'],
		['https://n8n.example.com/base/webhook/some/custom/path', 'other-n8n'],
		['https://n8n.example.com/other/webhook/node-2/webhook', 'external'],
		['https://hooks.example.com/recruiting', 'external'],
		['https://n8n.example.com/base/webhookx/node-2', 'external'],
		['', 'external'],
		['not a url', 'external'],
	])('%s → %s', (endpoint, kind) => {
		expect(ownUrls(production, 'node-1').kind(endpoint)).toBe(kind);
	});

	it('without a node webhook id, splits after the endpoint segment', () => {
		const urls = ownUrls('http://127.0.0.1:5678/webhook/wf1/Recruiting%20Trigger/webhook', undefined);
		expect(urls.test).toBe('http://127.0.0.1:5678/webhook-test/wf1/Recruiting%20Trigger/webhook');
		expect(urls.kind('http://127.0.0.1:5678/webhook/wf2/x/webhook')).toBe('other-n8n');
	});
});

describe('isDuplicateDelivery', () => {
	/** The same reading on both clocks. */
	const both = (ms: number) => ({ monotonic: ms, wall: ms });
	// Each test in a freshly started process: no delivery id in memory.
	let isDuplicateDelivery: typeof IsDuplicateDelivery;
	beforeEach(() => ({ isDuplicateDelivery } = seenDeliveriesInNewProcess()));

	it('remembers an id for 10 minutes, per webhook', () => {
		expect(isDuplicateDelivery('w1', 'm1', both(0))).toBe(false);
		expect(isDuplicateDelivery('w1', 'm1', both(1000))).toBe(true);
		expect(isDuplicateDelivery('w2', 'm1', both(1000))).toBe(false);
		expect(isDuplicateDelivery('w1', 'm1', both(DUPLICATE_WINDOW_MS))).toBe(false);
	});

	// Issue 27, point 13: the former cap of 20,000 ids evicted ids inside the window above ~33 a second.
	it('keeps every id for the whole window at 200 deliveries a second (fake clock)', () => {
		const rate = 200;
		const count = Math.ceil((DUPLICATE_WINDOW_MS / 1000) * rate);
		const at = (i: number) => Math.floor((i * 1000) / rate);
		let fresh = 0;
		for (let i = 0; i < count; i++) if (!isDuplicateDelivery('w', `msg_${i}`, both(at(i)))) fresh++;
		expect(fresh).toBe(count);
		// Just before the first id's window ends, every id is still known: each replay is caught.
		const now = DUPLICATE_WINDOW_MS - 1;
		let caught = 0;
		for (let i = 0; i < count; i++) if (isDuplicateDelivery('w', `msg_${i}`, both(now))) caught++;
		expect(caught).toBe(count);
		expect(HELD_DELIVERIES_PER_SECOND).toBeGreaterThanOrEqual(rate);
	});

	it('the node and docs/triggers.md say the rate it holds and the window, from the same constants', () => {
		const option = new RecruitingTrigger().description.properties
			.flatMap((property) => (property.options ?? []) as Array<{ name: string; description?: string }>)
			.find((entry) => entry.name === 'dropDuplicates');
		expect(option?.description).toContain(`in the last ${DUPLICATE_WINDOW_MINUTES} minutes`);
		expect(option?.description).toContain(`up to ${HELD_DELIVERIES_PER_SECOND} deliveries a second`);
		const readme = readFileSync(join(__dirname, '../../docs/triggers.md'), 'utf8').replace(/\s+/g, ' ');
		expect(readme).toContain(`(${MAX_REMEMBERED_DELIVERIES.toLocaleString('en-US')} IDs,`);
		expect(readme).toContain(`up to ${HELD_DELIVERIES_PER_SECOND} deliveries a second`);
		expect(readme).toContain(`accepted in the last ${DUPLICATE_WINDOW_MINUTES} minutes`);
		// The signing key's age, likewise (point 2): the README's figures are those of the constant.
		expect(readme).toContain(
			`at most ${SIGNING_KEY_MAX_AGE_SECONDS / 60} minutes (option *Signing Key Max Age*, 1–${SIGNING_KEY_MAX_AGE_SECONDS} s)`,
		);
	});

	it('holds a bounded number of ids: the oldest go first', () => {
		for (let i = 0; i <= MAX_REMEMBERED_DELIVERIES; i++) isDuplicateDelivery('w', `m${i}`, both(1));
		expect(isDuplicateDelivery('w', `m${MAX_REMEMBERED_DELIVERIES}`, both(2))).toBe(true);
		expect(isDuplicateDelivery('w', 'm0', both(2))).toBe(false);
	});
});

describe('filters', () => {
	const app = { job: { id: 'job_1' }, stage: { parent_stage: 'hired' } };

	it('parseIdList takes commas, spaces and lists', () => {
		expect([...parseIdList(' job_1,job_2\njob_3 ,, ')]).toEqual(['job_1', 'job_2', 'job_3']);
		expect([...parseIdList(['hired', 'new'])]).toEqual(['hired', 'new']);
		expect(parseIdList(undefined).size).toBe(0);
	});

	it('finds the job and stage where each event carries them', () => {
		expect(jobIdOf('application.created', app)).toBe('job_1');
		expect(jobIdOf('job.updated', { id: 'job_2' })).toBe('job_2');
		expect(jobIdOf('interview.created', { id: 'int_1', job_id: 'job_3' })).toBe('job_3');
		expect(jobIdOf('candidate.updated', { id: 'can_1' })).toBeUndefined();
		expect(parentStageOf('application.stage.updated', app)).toBe('hired');
		expect(parentStageOf('job.created', { stage: { parent_stage: 'hired' } })).toBeUndefined();
	});

	it('filteredOut names the reason, or passes', () => {
		const filters = { jobIds: new Set(['job_9']), parentStages: new Set(['new']) };
		expect(filteredOut(filters, 'application.created', app)).toBe('job "job_1" is not in Job IDs');
		expect(filteredOut({ ...filters, jobIds: new Set() }, 'application.created', app)).toBe(
			'parent stage "hired" is not in Parent Stages',
		);
		expect(filteredOut(filters, 'candidate.updated', { id: 'can_1' })).toBeUndefined();
		expect(filteredOut(filters, 'application.created', null)).toBeUndefined();
	});
});

it('redactHeaders keeps the signature headers and drops credential-bearing ones', () => {
	expect(
		redactHeaders({
			Authorization: 'a',
			'proxy-authorization': 'b',
			cookie: 'c',
			'set-cookie': 'd',
			'x-api-key': 'e',
			'x-my-apikey': 'f',
			'x-auth-token': 'g',
			'x-amz-security-token': 'h',
			'cf-access-jwt-assertion': 'i',
			'webhook-id': 'msg_1',
			'webhook-signature': 'v1,abc',
			'webhook-timestamp': '1',
			'user-agent': 'svc',
		}),
	).toEqual({ 'webhook-id': 'msg_1', 'webhook-signature': 'v1,abc', 'webhook-timestamp': '1', 'user-agent': 'svc' });
});

describe('what a hostile review found', () => {
	const id = '6c78d1e2-0000-4000-8000-00000000abcd';
	const other = '0b9e4d52-8c1f-4a77-b3e2-5d6c7e8f9a02';

	it('production and test URLs on different hosts (WEBHOOK_URL vs the editor URL on n8n 2.x) are both this node', () => {
		const urls = ownUrls(`https://hooks.example.com/webhook/${id}/webhook`, id);
		expect(urls.kind(`https://n8n.example.com/webhook-test/${id}/webhook`)).toBe('own-test');
		expect(ownUrls(`https://n8n.example.com/webhook-test/${id}/webhook`, id).kind(`https://hooks.example.com/webhook/${id}/webhook`)).toBe('own-production');
		// Another workflow's node URL is recognised on any host too.
		expect(urls.kind(`https://n8n.example.com/webhook-test/${other}/webhook`)).toBe('other-n8n');
		expect(urls.kind(`https://elsewhere.example.com/webhook/${other}/webhook`)).toBe('other-n8n');
	});

	it('spellings n8n routes to the same workflow count as the same URL: case, a trailing slash, a query', () => {
		const urls = ownUrls(`https://n8n.example.com/webhook/${id}/webhook`, id);
		for (const spelling of [
			`https://n8n.example.com/WEBHOOK/${id.toUpperCase()}/webhook`,
			`https://n8n.example.com/webhook/${id}/webhook/`,
			`https://n8n.example.com/webhook/${id}/webhook?x=1`,
		]) {
			expect(urls.kind(spelling)).toBe('own-production');
		}
		expect(urls.kind(`https://N8N.example.com/WEBHOOK/${other}/webhook/`)).toBe('other-n8n');
		expect(sameEndpoint(`https://N8N.Example.com:443/webhook/${id}/webhook`, `https://n8n.example.com/webhook/${id}/webhook`)).toBe(true);
		expect(sameEndpoint(`https://n8n.example.com/webhook/${id}/webhook`, `https://n8n.example.com/webhook/${other}/webhook`)).toBe(false);
	});

	it('a delivery id is remembered longer than one message can be accepted (timestamp ± 5 min, whole seconds)', () => {
		expect(DUPLICATE_WINDOW_MS).toBeGreaterThan(2 * 300 * 1000 + 999);
	});

	it('a job ID given as a number, or a job given as its ID, is filtered too', () => {
		expect(jobIdOf('application.created', { job: { id: 123 } })).toBe('123');
		expect(jobIdOf('application.created', { job: 'job_2' })).toBe('job_2');
		expect(jobIdOf('job.updated', { id: 42 })).toBe('42');
		expect(filteredOut({ jobIds: new Set(['job_1']), parentStages: new Set() }, 'application.created', { job: 'job_2' })).toBe(
			'job "job_2" is not in Job IDs',
		);
	});

	it('header names that carry credentials in other spellings are dropped too', () => {
		const kept = redactHeaders(
			Object.fromEntries(
				[
					'x-amzn-oidc-accesstoken',
					'x-amzn-oidc-data',
					'ocp-apim-subscription-key',
					'x-functions-key',
					'x-csrftoken',
					'x-access-key',
					'x-authtoken',
					'x-apitoken',
					'x-private-key',
					'x-privatekey',
					'webhook-id',
					'webhook-signature',
					'webhook-timestamp',
					'content-type',
					'keep-alive',
					'accept-language',
				].map((name) => [name, 'v']),
			),
		);
		expect(Object.keys(kept)).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp', 'content-type', 'keep-alive', 'accept-language']);
	});
});

describe('the test listen note in the description', () => {
	const note = { endpoint: 'https://hooks.example.com/x?a=1&b="2"]', events: ['job.created', 'candidate.updated'], holder: 'https://n8n.example.com/webhook/n/webhook', since: '2026-11-22T19:00:00.000Z' };

	it.each([[undefined], [''], ['Mine.'], ['ends with blank lines\n\n'], ['[n8n: lookalike] with ] brackets ]'], ['x'.repeat(10_000)]])(
		'round-trips the description %#',
		(description) => {
			const written = withBorrowNote(description, note);
			expect(readBorrowNote(written)).toEqual({ note, description: description ?? '' });
		},
	);

	it.each([
		['no note', 'Created in the dashboard.'],
		['not at the end', `${withBorrowNote('a', note)} and more`],
		['broken JSON', '[n8n holds this webhook and puts back when done: {"endpoint":]'],
		['no endpoint', '[n8n holds this webhook and puts back when done: {"events":[],"since":"x"}]'],
		['events not strings', '[n8n holds this webhook and puts back when done: {"endpoint":"https://a","events":[1],"holder":"https://n8n","since":"x"}]'],
		['too many events', withBorrowNote('', { ...note, events: Array.from({ length: 101 }, (_, i) => `e${i}`) })],
		['an array', '[n8n holds this webhook and puts back when done: []]'],
	])('no note when %s: the description is the user\'s', (_case, description) => {
		expect(readBorrowNote(description)).toBeUndefined();
	});

	it('the last note counts when a description holds two', () => {
		const older = withBorrowNote('Mine.', { ...note, endpoint: 'https://old.example.com/' });
		expect(readBorrowNote(withBorrowNote(older, note))).toEqual({ note, description: older });
	});

	it('reads a megabyte of openings in linear time', () => {
		const opening = '[n8n holds this webhook and puts back when done: ';
		const hostile = `${opening.repeat(Math.ceil(1_000_000 / opening.length))}]`;
		const t0 = performance.now();
		expect(readBorrowNote(hostile)).toBeUndefined();
		expect(performance.now() - t0).toBeLessThan(1000);
	});
});
