/** Each fault kind, matching by method and path, `times`, hit counts, and the recorded status. */
import { useSandbox } from './helpers';

const { sb, call } = useSandbox();

beforeEach(() => {
	sb().reset();
});

describe('request faults', () => {
	it('status: answers a problem document with the status, once by default', async () => {
		sb().setFaults([{ kind: 'status', status: 503, path: '/tags' }]);
		const res = await call('GET', '/tags');
		expect(res.status).toBe(503);
		expect(res.headers.get('content-type')).toBe('application/problem+json');
		expect(res.body).toMatchObject({ status: 503, title: 'Service Unavailable', instance: '/v1.0/cmp_demo/tags', detail: expect.any(String) });
		expect((await call('GET', '/tags')).status).toBe(200);
		expect(sb().faultHits()).toEqual([1]);
		expect(sb().requests.map((r) => r.status)).toEqual([503, 200]);
	});

	it('status: defaults to 500 and does not run the handler', async () => {
		sb().setFaults([{ kind: 'status', method: 'POST', path: '/jobs' }]);
		const res = await call('POST', '/jobs', { title: 'Never created' });
		expect(res.status).toBe(500);
		const list = await call('GET', '/applications?page_size=1');
		expect(list.status).toBe(200);
		expect(sb().faultHits()).toEqual([1]);
	});

	it('rate_limit: answers 429 with Retry-After, `times` times', async () => {
		sb().setFaults([{ kind: 'rate_limit', retryAfter: 7, times: 2 }]);
		for (let i = 0; i < 2; i++) {
			const res = await call('GET', '/tags');
			expect(res.status).toBe(429);
			expect(res.headers.get('retry-after')).toBe('7');
			expect(res.body).toMatchObject({ status: 429, title: 'Too Many Requests' });
		}
		expect((await call('GET', '/tags')).status).toBe(200);
		expect(sb().faultHits()).toEqual([2]);
	});

	it('rate_limit: Retry-After defaults to 1; times -1 hits every time', async () => {
		sb().setFaults([{ kind: 'rate_limit', times: -1 }]);
		for (let i = 0; i < 3; i++) expect((await call('GET', '/tags')).headers.get('retry-after')).toBe('1');
		expect(sb().faultHits()).toEqual([3]);
	});

	it('slow: delays the real answer', async () => {
		sb().setFaults([{ kind: 'slow', delayMs: 300 }]);
		const started = Date.now();
		const res = await call('GET', '/tags');
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect(res.status).toBe(200);
		expect(res.body.items).toHaveLength(12);
	});

	it('slow: the request log says when the request came in and when it was answered', async () => {
		sb().setFaults([{ kind: 'slow', delayMs: 300, path: '/applications', times: 1 }]);
		await call('GET', '/applications?page_size=1');
		await call('GET', '/applications?page_size=1');
		const [slow, fast] = sb().requests;
		expect(slow.answeredAt! - slow.at).toBeGreaterThanOrEqual(290);
		expect(fast.at).toBeGreaterThanOrEqual(slow.answeredAt!);
		expect(fast.answeredAt! - fast.at).toBeLessThan(290);
	});

	it('drop: destroys the socket without an answer; the request is recorded with status 0', async () => {
		sb().setFaults([{ kind: 'drop', path: '/tags' }]);
		await expect(call('GET', '/tags')).rejects.toThrow();
		expect(sb().requests).toHaveLength(1);
		expect(sb().requests[0]).toMatchObject({ path: '/v1.0/cmp_demo/tags', status: 0 });
		expect(sb().requests[0].answeredAt).toBeUndefined();
		expect((await call('GET', '/tags')).status).toBe(200);
	});

	it('malformed_json: answers 200 with a truncated JSON body', async () => {
		sb().setFaults([{ kind: 'malformed_json', path: '/webhooks/' }]);
		const res = await call('GET', '/webhooks/wh_demo');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json');
		expect(res.text.startsWith('{"data":{"id":"wh_demo"')).toBe(true);
		expect(() => JSON.parse(res.text)).toThrow();
		expect(sb().requests[0].status).toBe(200);
	});

	it('matches by method and by a substring of the raw path after the company', async () => {
		sb().setFaults([
			{ kind: 'status', status: 502, method: 'put', path: '/candidates/', times: -1 },
			{ kind: 'status', status: 418, path: 'cmp_demo' },
		]);
		expect((await call('GET', '/tags')).status).toBe(200);
		expect((await call('GET', '/webhooks/wh_demo')).status).toBe(200);
		expect((await call('PUT', '/candidates/can_x', { rating: 3 })).status).toBe(502);
		expect(sb().faultHits()).toEqual([1, 0]);
	});

	it('applies before authentication (a gateway fault)', async () => {
		sb().setFaults([{ kind: 'status', status: 503 }]);
		expect((await call('GET', '/tags', undefined, { token: null })).status).toBe(503);
	});

	it('rejects invalid rules', () => {
		expect(() => sb().setFaults([{ kind: 'explode' as never }])).toThrow("'rules[0].kind' must be one of");
	});
});

describe('page faults', () => {
	const page = async (n: number, extra = '') => (await call('GET', `/tags?page_size=5&page=${n}${extra}`)).body;
	const ids = (items: Array<{ id: string }>) => items.map((t) => t.id);

	it('endless_pages: every page says has_next_page with the items of page 1', async () => {
		const first = await page(1);
		sb().setFaults([{ kind: 'endless_pages', path: '/tags', times: -1 }]);
		for (const n of [1, 3, 50]) {
			const body = await page(n);
			expect(body.meta).toMatchObject({ page: n, has_next_page: true, total_pages: 3 });
			expect(body.links.next).toContain(`page=${n + 1}&`);
			expect(ids(body.items)).toEqual(ids(first.items));
		}
		expect(sb().faultHits()).toEqual([3]);
	});

	it('repeat_page: serves the items of page 1 again for the given page', async () => {
		const [first, second] = [await page(1), await page(2)];
		sb().setFaults([{ kind: 'repeat_page', page: 2 }]);
		expect(ids((await page(1)).items)).toEqual(ids(first.items));
		const repeated = await page(2);
		expect(ids(repeated.items)).toEqual(ids(first.items));
		expect(repeated.meta).toEqual(second.meta);
		expect(ids((await page(2)).items)).toEqual(ids(second.items));
		expect(sb().faultHits()).toEqual([1]);
	});

	it('empty_page: serves no items for the given page, meta unchanged', async () => {
		const second = await page(2);
		sb().setFaults([{ kind: 'empty_page', page: 2 }]);
		const empty = await page(2);
		expect(empty.items).toEqual([]);
		expect(empty.meta).toEqual(second.meta);
		expect(empty.links).toEqual(second.links);
	});

	it('page faults only hit list answers of the matching path', async () => {
		sb().setFaults([{ kind: 'empty_page', path: '/applications' }]);
		expect((await page(1)).items).toHaveLength(5);
		expect((await call('GET', '/webhooks/wh_demo')).status).toBe(200);
		expect(sb().faultHits()).toEqual([0]);
		expect((await call('GET', '/applications')).body.items).toEqual([]);
		expect(sb().faultHits()).toEqual([1]);
	});
});
