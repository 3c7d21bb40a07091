/** Paging bounds, exact meta and links, and the applications filters and sort. */
import { useSandbox } from './helpers';

const { sb, call } = useSandbox();

const links = (page: number | null, size: number, extra = '') =>
	page === null ? null : `${sb().url}/v1.0/cmp_demo/tags?${extra}page=${page}&page_size=${size}`;

describe('paging of a list', () => {
	afterAll(() => sb().reset());

	it.each([
		// items, query, expected meta (page, size, pages, next?, previous?), item count
		[0, '', 1, 30, 0, false, false, 0],
		[1, '', 1, 30, 1, false, false, 1],
		[100, '?page_size=100', 1, 100, 1, false, false, 100],
		[101, '?page_size=100', 1, 100, 2, true, false, 100],
		[101, '?page_size=100&page=2', 2, 100, 2, false, true, 1],
		[101, '', 1, 30, 4, true, false, 30],
		[101, '?page=4', 4, 30, 4, false, true, 11],
		[101, '?page_size=1&page=101', 101, 1, 101, false, true, 1],
	])('%i items, %s: exact meta and links', async (total, query, page, size, pages, hasNext, hasPrevious, count) => {
		sb().reset({ tags: total });
		const res = await call('GET', `/tags${query}`);
		expect(res.status).toBe(200);
		expect(res.body.meta).toEqual({
			page_size: size,
			page,
			total_items: total,
			total_pages: pages,
			has_next_page: hasNext,
			has_previous_page: hasPrevious,
		});
		expect(res.body.links).toEqual({
			first: links(1, size),
			last: links(Math.max(pages, 1), size),
			next: hasNext ? links(page + 1, size) : null,
			previous: hasPrevious ? links(page - 1, size) : null,
		});
		expect(res.body.items).toHaveLength(count);
	});

	it('serves the pages in order without overlap', async () => {
		sb().reset({ tags: 101 });
		const seen: string[] = [];
		let next: string | null = `${sb().url}/v1.0/cmp_demo/tags?page_size=40`;
		while (next) {
			const res: Response = await fetch(next, { headers: { authorization: 'Bearer sandbox-token' } });
			const body = (await res.json()) as { items: Array<{ id: string }>; links: { next: string | null } };
			seen.push(...body.items.map((t) => t.id));
			next = body.links.next;
		}
		expect(seen).toHaveLength(101);
		expect(new Set(seen).size).toBe(101);
	});

	it('answers 200 with no items past the end', async () => {
		sb().reset();
		const res = await call('GET', '/tags?page=9');
		expect(res.status).toBe(200);
		expect(res.body.items).toEqual([]);
		expect(res.body.meta).toMatchObject({ page: 9, total_items: 12, total_pages: 1, has_next_page: false, has_previous_page: true });
		expect(res.body.links.next).toBeNull();
	});

	it('keeps other query parameters in the links', async () => {
		const res = await call('GET', '/tags?page_size=5&foo=a%20b&page=2');
		expect(res.body.links.next).toBe(links(3, 5, 'foo=a+b&'));
		expect(new URL(res.body.links.next).searchParams.get('foo')).toBe('a b');
	});

	it.each([
		['page_size=0', 'page_size', "'page_size' must be an integer from 1 to 100."],
		['page_size=101', 'page_size', "'page_size' must be an integer from 1 to 100."],
		['page_size=2.5', 'page_size', "'page_size' must be an integer from 1 to 100."],
		['page_size=ten', 'page_size', "'page_size' must be an integer from 1 to 100."],
		['page_size=', 'page_size', "'page_size' must be an integer from 1 to 100."],
		['page=0', 'page', "'page' must be an integer greater than or equal to 1."],
		['page=-1', 'page', "'page' must be an integer greater than or equal to 1."],
		['page=1e2', 'page', "'page' must be an integer greater than or equal to 1."],
	])('rejects %s with 400 and errors.%s', async (query, field, message) => {
		const res = await call('GET', `/tags?${query}`);
		expect(res.status).toBe(400);
		expect(res.headers.get('content-type')).toBe('application/problem+json');
		expect(res.body).toMatchObject({ status: 400, title: 'One or more validation errors occurred.', errors: { [field]: [message] } });
	});

	it('reports page and page_size together, and accepts the bounds 1 and 100', async () => {
		expect(Object.keys((await call('GET', '/tags?page=0&page_size=0')).body.errors).sort()).toEqual(['page', 'page_size']);
		expect((await call('GET', '/tags?page_size=1')).body.items).toHaveLength(1);
		expect((await call('GET', '/tags?page_size=100')).body.meta.page_size).toBe(100);
	});
});

describe('applications filters and sort', () => {
	let all: Array<{ id: string; applied_at: string; candidate: { id: string }; job: { id: string }; stage: { parent_stage: string } }>;
	beforeAll(async () => {
		sb().reset();
		all = (await call('GET', '/applications?page_size=100')).body.items;
	});
	const ids = (items: Array<{ id: string }>) => items.map((a) => a.id);
	const get = async (query: string) => (await call('GET', `/applications?page_size=100&${query}`)).body;

	it('orders by applied_at ascending, then id, by default and with sort=applied_at', async () => {
		expect(all).toHaveLength(50);
		const expected = [...all].sort((a, b) => Date.parse(a.applied_at) - Date.parse(b.applied_at) || (a.id < b.id ? -1 : 1));
		expect(ids(all)).toEqual(ids(expected));
		expect(ids((await get('sort=applied_at')).items)).toEqual(ids(all));
	});

	it('reverses with sort=-applied_at, across pages too', async () => {
		expect(ids((await get('sort=-applied_at')).items)).toEqual(ids(all).reverse());
		const page2 = await call('GET', '/applications?sort=-applied_at&page_size=20&page=2');
		expect(ids(page2.body.items)).toEqual(ids(all).reverse().slice(20, 40));
		expect(page2.body.links.next).toContain('sort=-applied_at&page=3&page_size=20');
	});

	it.each([
		['candidate_id', (a: (typeof all)[0]) => a.candidate.id],
		['job_id', (a: (typeof all)[0]) => a.job.id],
		['parent_stage', (a: (typeof all)[0]) => a.stage.parent_stage],
	])('filters by %s', async (name, key) => {
		const value = key(all[7]);
		const body = await get(`${name}=${encodeURIComponent(value)}`);
		expect(ids(body.items)).toEqual(ids(all.filter((a) => key(a) === value)));
		expect(body.meta.total_items).toBe(body.items.length);
	});

	it('filters by custom_pipeline_id (the pipeline of the job) and combines filters', async () => {
		const jobs = new Map<string, string>();
		for (const a of all) jobs.set(a.job.id, (sb().get('jobs', a.job.id) as { custom_pipeline_id: string }).custom_pipeline_id);
		const pipeline = jobs.get(all[0].job.id)!;
		const inPipeline = all.filter((a) => jobs.get(a.job.id) === pipeline);
		expect(inPipeline.length).toBeGreaterThan(0);
		expect(inPipeline.length).toBeLessThan(all.length);
		expect(ids((await get(`custom_pipeline_id=${pipeline}`)).items)).toEqual(ids(inPipeline));
		const stage = inPipeline[0].stage.parent_stage;
		expect(ids((await get(`custom_pipeline_id=${pipeline}&parent_stage=${stage}&sort=-applied_at`)).items)).toEqual(
			ids(inPipeline.filter((a) => a.stage.parent_stage === stage)).reverse(),
		);
	});

	it('answers an empty list for an unknown value, ignores unknown parameters', async () => {
		expect((await get('job_id=job_nope')).meta).toMatchObject({ total_items: 0, total_pages: 0 });
		expect(ids((await get('colour=blue')).items)).toEqual(ids(all));
	});

	it('rejects an unknown parent_stage with errors.parent_stage, together with paging errors', async () => {
		const res = await call('GET', '/applications?parent_stage=archived&page_size=0');
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual({
			page_size: ["'page_size' must be an integer from 1 to 100."],
			parent_stage: ["'parent_stage' must be one of: rejected, new, screening, interviewing, offered, hired."],
		});
	});

	it('sees new and changed applications (the index follows the store)', async () => {
		const first = sb().get('applications', all[0].id) as (typeof all)[0];
		sb().put('applications', { ...first, id: 'app_newest', applied_at: '2099-01-01T00:00:00Z' });
		const body = await get('sort=-applied_at&page_size=1');
		expect(body.items[0].id).toBe('app_newest');
		expect(body.meta.total_items).toBe(51);
	});
});
