/**
 * Request Options → Concurrency: Return All pages and input items with several requests in
 * flight keep the output of a one-by-one run (order, exactly once, pairing, guards), and stop on
 * the first failure. Through the engine against the sandbox, plus the paging loop against a
 * scripted service (to fail one given page and watch what is in flight).
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { recruitingRequestAllItems, startRun } from '../../nodes/shared/transport';
import { runConcurrently } from '../../nodes/Recruiting/actions/router';
import { testNode } from '../harness/testNode';
import { errorOf, idsOf, listDirect, startRecruitingFixture, type RecruitingFixture } from './fixture';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture({ applications: 2345, candidates: 60 });
});
afterAll(async () => await fx.close());

const returnAll = (pagesInFlight: number) => ({
	resource: 'application',
	operation: 'getMany',
	returnAll: true,
	requestOptions: { pagesInFlight },
});
const pages = () => fx.sandbox.requests.map((r) => Number(r.query.page));

describe('Return All with concurrency', () => {
	let expected: string[];
	beforeAll(async () => {
		expected = (await listDirect(fx.sandbox, ['applications'])).map((a) => String(a.id));
	});
	beforeEach(() => {
		fx.sandbox.setFaults([]);
		fx.sandbox.clearRequests();
	});

	test.each([2, 4, 10])('concurrency %i: every id once, in order, in exactly ⌈N/100⌉ requests', async (concurrency) => {
		const result = await fx.run(returnAll(concurrency));
		expect(result.error).toBeUndefined();
		expect(idsOf(result)).toEqual(expected);
		expect(pages()[0]).toBe(1);
		expect([...pages()].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('Limit with concurrency: the first items, no page beyond the limit', async () => {
		const result = await fx.run({ resource: 'application', operation: 'getMany', returnAll: false, limit: 250, requestOptions: { pagesInFlight: 4 } });
		expect(idsOf(result)).toEqual(expected.slice(0, 250));
		expect(fx.sandbox.requests).toHaveLength(3);
	});

	test('a repeated page: a clear error, no duplicates, no request past the pages in flight', async () => {
		fx.sandbox.setFaults([{ kind: 'repeat_page', path: '/applications', page: 2 }]);
		const result = await fx.run(returnAll(4));
		expect(errorOf(result).description).toMatch(/page 2: it repeats an earlier page/);
		expect(result.items).toHaveLength(0);
		expect(fx.sandbox.requests.length).toBeLessThanOrEqual(1 + 4);
	});

	test('one empty page is fetched again and nothing is lost', async () => {
		fx.sandbox.setFaults([{ kind: 'empty_page', path: '/applications', page: 3 }]);
		const result = await fx.run(returnAll(4));
		expect(idsOf(result)).toEqual(expected);
		expect(pages().filter((p) => p === 3)).toHaveLength(2);
		expect(fx.sandbox.requests).toHaveLength(25);
	});

	test('a page that stays empty: a clear error', async () => {
		fx.sandbox.setFaults([{ kind: 'empty_page', path: '/applications', page: 3, times: -1 }]);
		const result = await fx.run(returnAll(4));
		expect(errorOf(result).description).toMatch(/page 3: it is empty but says there is a next page/);
		expect(result.items).toHaveLength(0);
	});

	test('endless pages: a clear error, not a loop', async () => {
		fx.sandbox.setFaults([{ kind: 'endless_pages', path: '/applications', times: -1 }]);
		const result = await fx.run(returnAll(4));
		expect(errorOf(result).message).toBe('The Recruiting service returned an inconsistent list');
		expect(result.items).toHaveLength(0);
		expect(fx.sandbox.requests.length).toBeLessThanOrEqual(1 + 4);
	});

	test.each([0, 65, 2.5, 'x'])('an invalid Pages in Flight %j is a clear error', async (pagesInFlight) => {
		const result = await fx.run({ ...returnAll(1), requestOptions: { pagesInFlight } });
		expect(errorOf(result).message).toBe('Invalid "Pages in Flight": must be a whole number from 1 to 64');
		expect(fx.sandbox.requests).toHaveLength(0);
	});

	test('without the option, Return All has pages in flight together and keeps every item once, in order', async () => {
		const result = await fx.run({ resource: 'application', operation: 'getMany', returnAll: true });
		expect(idsOf(result)).toEqual(expected);
		expect([...pages()].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
	});
});

/** A scripted list service behind a minimal execute context: records pages and what is in flight. */
function scriptedList(totalItems: number, failPage?: number) {
	const log: { page: number; inFlight: number }[] = [];
	let inFlight = 0;
	let maxInFlight = 0;
	const totalPages = Math.ceil(totalItems / 100);
	const context = {
		getNode: () => testNode({ name: 'Recruiting', type: 'recruiting' }),
		getCredentials: async () => ({ baseUrl: 'https://service.test', companyId: 'cmp', accessToken: 't' }),
		helpers: {
			async httpRequestWithAuthentication(_type: string, options: IHttpRequestOptions) {
				const page = Number((options.qs as IDataObject).page);
				inFlight++;
				maxInFlight = Math.max(maxInFlight, inFlight);
				log.push({ page, inFlight });
				// Later pages answer sooner, so answers arrive out of order.
				await new Promise((resolve) => setTimeout(resolve, 2 + ((totalPages - page) % 5) * 3));
				inFlight--;
				if (page === failPage) return { statusCode: 404, headers: {}, body: { title: 'Gone' } };
				const items = Array.from({ length: Math.min(100, totalItems - (page - 1) * 100) }, (_, i) => ({ id: `it_${(page - 1) * 100 + i}` }));
				return {
					statusCode: 200,
					headers: {},
					body: { meta: { page, total_items: totalItems, total_pages: totalPages, has_next_page: page < totalPages }, items },
				};
			},
		},
	} as unknown as IExecuteFunctions;
	startRun(context, {});
	return { context, log, maxInFlight: () => maxInFlight, inFlight: () => inFlight };
}

describe('the paging loop with several pages in flight', () => {
	test('answers out of order are collected in page order, each item once, never more than the bound in flight', async () => {
		const service = scriptedList(1234);
		const items = await recruitingRequestAllItems.call(service.context, { path: '/applications', concurrency: 3 });
		expect(items.map((i) => i.id)).toEqual(Array.from({ length: 1234 }, (_, i) => `it_${i}`));
		expect(service.log.map((l) => l.page)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
		expect(service.maxInFlight()).toBe(3);
	});

	test('a failing page stops new requests; the ones in flight finish before the error is thrown', async () => {
		const service = scriptedList(3000, 5);
		await expect(
			recruitingRequestAllItems.call(service.context, { path: '/applications', concurrency: 4 }),
		).rejects.toThrow('HTTP 404');
		expect(service.inFlight()).toBe(0);
		// Pages 2–5 at first, then at most one more per page consumed before page 5 failed.
		expect(Math.max(...service.log.map((l) => l.page))).toBeLessThanOrEqual(5 + 3);
		expect(service.log.length).toBeLessThan(30);
	});

	test('concurrency 1 is one page after another', async () => {
		const service = scriptedList(500);
		await recruitingRequestAllItems.call(service.context, { path: '/applications', concurrency: 1 });
		expect(service.maxInFlight()).toBe(1);
	});
});

describe('items with concurrency', () => {
	let candidateIds: string[];
	beforeAll(async () => {
		const applications = await listDirect(fx.sandbox, ['applications']);
		candidateIds = [...new Set(applications.map((a) => String((a.candidate as IDataObject).id)))].slice(0, 40);
	});
	beforeEach(() => {
		fx.sandbox.setFaults([]);
		fx.sandbox.clearRequests();
	});
	const getCandidates = (ids: string[], continueOnFail = false) =>
		fx.run(
			{ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}', requestOptions: { concurrency: 4 } },
			{ input: ids.map((id) => ({ id })), continueOnFail },
		);

	test('output in input order, each paired with its input item', async () => {
		const result = await getCandidates(candidateIds);
		expect(result.error).toBeUndefined();
		expect(idsOf(result)).toEqual(candidateIds);
		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual(candidateIds.map((_, i) => i));
		expect(fx.sandbox.requests).toHaveLength(candidateIds.length);
	});

	test('Continue On Fail: error items in place of the failing inputs, the others in order', async () => {
		const ids = [...candidateIds.slice(0, 10)];
		ids[3] = 'can_missing_a';
		ids[7] = 'can_missing_b';
		const result = await getCandidates(ids, true);
		expect(result.items).toHaveLength(10);
		result.items.forEach((item, i) => {
			expect((item.pairedItem as { item: number }).item).toBe(i);
			if (i === 3 || i === 7) expect(item.json.error).toBe(`The candidate "${ids[i]}" was not found`);
			else expect(item.json.id).toBe(ids[i]);
		});
	});

	test('a Request Option given as an expression is still read per item', async () => {
		const result = await fx.run(
			{ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}', requestOptions: { timeout: '={{ $json.t }}' } },
			{ input: [{ id: candidateIds[0], t: 30000 }, { id: candidateIds[1], t: 0 }], continueOnFail: true },
		);
		expect(result.items[0].json.id).toBe(candidateIds[0]);
		expect(result.items[1].json.error).toMatch(/^Invalid "Timeout"/);
	});

	test('without Continue On Fail: the first failing item is the error, and nothing starts after it', async () => {
		const ids = [...candidateIds];
		ids[5] = 'can_missing_c';
		const result = await getCandidates(ids);
		const error = errorOf(result);
		expect(error.message).toBe('The candidate "can_missing_c" was not found');
		expect(error.itemIndex).toBe(5);
		expect(fx.sandbox.requests.length).toBeLessThanOrEqual(5 + 4);
	});
});

describe('runConcurrently', () => {
	test('bounded, every index once, the lowest failing index is thrown, nothing starts after a failure', async () => {
		const started: number[] = [];
		let running = 0;
		let max = 0;
		const task = async (i: number) => {
			started.push(i);
			running++;
			max = Math.max(max, running);
			await new Promise((resolve) => setTimeout(resolve, i === 6 ? 1 : 10));
			running--;
			if (i === 6 || i === 8) throw new Error(`item ${i}`);
		};
		await expect(runConcurrently(50, 3, task)).rejects.toThrow('item 6');
		expect(max).toBe(3);
		expect(running).toBe(0);
		expect(new Set(started).size).toBe(started.length);
		expect(Math.max(...started)).toBeLessThan(6 + 3);

		const all: number[] = [];
		await runConcurrently(20, 4, async (i) => void all.push(i));
		expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
	});
});
