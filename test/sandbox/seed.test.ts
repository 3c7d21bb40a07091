/** The deterministic seed: sizes, ids, fields, references; and the speed of a 20,000-application list. */
import { startSandbox } from '../../sandbox';
import { seed } from '../../sandbox/seed';
import { COLLECTIONS, Store } from '../../sandbox/store';
import { parseArgs } from '../../sandbox/cli';

const seeded = (sizes = {}) => {
	const store = new Store();
	seed(store, 'cmp_demo', sizes);
	return store;
};
const dump = (store: Store) => JSON.stringify(COLLECTIONS.map((c) => store.values(c)));

describe('seed', () => {
	afterEach(() => jest.useRealTimers());

	it('is deterministic and independent of the clock', () => {
		jest.useFakeTimers({ now: new Date('2001-01-01T00:00:00Z') });
		const a = dump(seeded());
		jest.setSystemTime(new Date('2042-06-15T12:34:56Z'));
		expect(dump(seeded())).toBe(a);
	});

	it('keeps record N the same whatever the other sizes are', () => {
		const small = seeded({ applications: 5, tags: 3 });
		const large = seeded({ applications: 500, tags: 30 });
		expect(large.values('jobs')[3]).toEqual(small.values('jobs')[3]);
		expect(large.values('tags')[2]).toEqual(small.values('tags')[2]);
		expect(large.values('applications')[4].id).toBe(small.values('applications')[4].id);
	});

	it('has the default sizes and the sizes asked for', () => {
		const counts = (s: Store) => Object.fromEntries(COLLECTIONS.map((c) => [c, s.count(c)]));
		expect(counts(seeded())).toEqual({ jobs: 10, candidates: 50, applications: 50, interviews: 3, jobNotes: 30, candidateNotes: 50, tags: 12, feedback: 3, applicationForms: 2, emailTemplates: 5, userCategories: 4, webhooks: 2, users: 5 });
		expect(counts(seeded({ applications: 0, jobs: 2, candidates: 1, tags: 0, emailTemplates: 1, userCategories: 0, jobNotesPerJob: 0 }))).toEqual({ jobs: 2, candidates: 1, applications: 0, interviews: 0, jobNotes: 0, candidateNotes: 1, tags: 0, feedback: 0, applicationForms: 2, emailTemplates: 1, userCategories: 0, webhooks: 2, users: 5 });
		const large = seeded({ applications: 120 });
		expect(large.count('candidates')).toBe(120);
		expect(large.count('candidateNotes')).toBe(50);
	});

	it('uses the id prefixes of the spec', () => {
		const store = seeded();
		const prefixes: Record<string, RegExp> = { jobs: /^job_/, candidates: /^can_/, applications: /^app_/, interviews: /^int_/, jobNotes: /^note_/, candidateNotes: /^note_/, tags: /^tag_/, feedback: /^fb_/, applicationForms: /^form_/, emailTemplates: /^tmpl_/, userCategories: /^ucat_/, webhooks: /^wh_/, users: /^usr_/ };
		for (const c of COLLECTIONS) for (const r of store.values(c)) expect(r.id).toMatch(prefixes[c]);
		for (const i of store.values('interviews')) {
			for (const a of i.event.attendees) expect(a.id).toMatch(/^attd_/);
			expect(i.event.organizer_id).toMatch(/^usr_/);
		}
		const ids = COLLECTIONS.flatMap((c) => store.values(c).map((r) => `${c}:${r.id}`));
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('links applications to seeded candidates and jobs, both ways', () => {
		const store = seeded();
		for (const app of store.values('applications')) {
			expect(store.get('candidates', app.candidate.id)).toBe(app.candidate);
			expect(store.get('jobs', app.job.id)?.title).toBe(app.job.title);
			expect(app.candidate.application_ids).toContain(app.id);
			for (const id of app.interviews) expect(store.get('interviews', id)?.application_id).toBe(app.id);
			for (const id of app.feedback) expect(store.get('feedback', id)?.application_id).toBe(app.id);
		}
		for (const note of store.values('jobNotes')) expect(store.get('jobs', note.job_id!)).toBeDefined();
		for (const note of store.values('candidateNotes')) expect(store.get('candidates', note.candidate_id!)).toBeDefined();
	});

	it('populates every field (nothing undefined) and keeps applications between 1.2 and 2.4 KB', () => {
		const store = seeded();
		const missing: string[] = [];
		const walk = (value: unknown, path: string): void => {
			if (value === undefined) missing.push(path);
			else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
		};
		for (const c of COLLECTIONS) for (const r of store.values(c)) walk(r, `${c}:${r.id}`);
		expect(missing).toEqual([]);
		const fb = store.values('feedback')[0];
		expect(fb.questions.length).toBeGreaterThanOrEqual(3);
		expect(fb.questions.some((q) => q.options.length > 0)).toBe(true);
		expect(store.values('candidateNotes')[0].share?.sender.first_name).toBeTruthy();
		const sizes = store.values('applications').map((a) => JSON.stringify(a).length);
		expect(Math.min(...sizes)).toBeGreaterThan(1200);
		expect(Math.max(...sizes)).toBeLessThan(2400);
	});

	it('seeds wh_demo and wh_second as described', () => {
		const store = seeded();
		expect(store.get('webhooks', 'wh_demo')).toEqual({
			id: 'wh_demo',
			name: 'Demo webhook',
			version: 1,
			endpoint: 'https://hooks.example.invalid/recruiting',
			description: expect.any(String),
			signing_key: expect.stringMatching(/^whsec_/),
			status: 'enabled',
			source: 'dashboard',
			subscribed_events: ['job.created', 'job.deleted', 'candidate.updated', 'interview.created', 'interview.cancelled'],
		});
		expect(Buffer.from(store.get('webhooks', 'wh_demo')!.signing_key.slice(6), 'base64')).toHaveLength(24);
		expect(store.get('webhooks', 'wh_second')).toMatchObject({ status: 'disabled', source: 'dashboard' });
	});
});

describe('20,000 applications', () => {
	// Counts, not milliseconds (a shared 2-core machine makes any time bound flaky): the order is
	// sorted once, when the sandbox starts, and a page reads only its own records, so a page of 100
	// costs the same whatever the list's length.
	it('sorts once at start and serves a page of 100 by reading 100 records, filtered or not, in either order', async () => {
		const built: string[] = [];
		const memo = Store.prototype.memo;
		const memoSpy = jest.spyOn(Store.prototype, 'memo').mockImplementation(function <T>(this: Store, key: string, on: Parameters<Store['memo']>[1], build: () => T) {
			return memo.call(this, key, on, () => {
				built.push(key);
				return build();
			}) as T;
		});
		const getSpy = jest.spyOn(Store.prototype, 'get');
		const startedAt = performance.now();
		const sandbox = await startSandbox({ port: 0, seed: { applications: 20000 } });
		const seedMs = performance.now() - startedAt;
		try {
			expect(built.filter((key) => key.startsWith('applications:'))).toEqual(['applications:sorted']);
			built.length = 0;
			/** A page, with the candidate records it read (each application embeds its candidate as it is now). */
			const get = async (query: string) => {
				getSpy.mockClear();
				const res = await fetch(`${sandbox.url}/v1.0/cmp_demo/applications?page_size=100&${query}`, { headers: { authorization: 'Bearer sandbox-token' } });
				const body = (await res.json()) as { items: Array<{ id: string }>; meta: { total_items: number } };
				return { body, candidatesRead: getSpy.mock.calls.filter(([collection]) => collection === 'candidates').length };
			};
			const first = await get('page=1');
			expect(first.body.meta.total_items).toBe(20000);
			for (let page = 1; page <= 200; page += 10) {
				const { body, candidatesRead } = await get(`page=${page}&sort=${page % 20 === 1 ? '-' : ''}applied_at`);
				expect([page, body.items.length, candidatesRead]).toEqual([page, 100, 100]);
			}
			const filtered = await get(`parent_stage=hired&page=3`);
			expect([filtered.body.items.length, filtered.candidatesRead]).toEqual([100, 100]);
			await get(`parent_stage=hired&page=4`);
			// One grouping for the filter, built on its first use; nothing sorted again.
			expect(built.filter((key) => key.startsWith('applications:'))).toEqual(['applications:by:parent_stage']);
			// eslint-disable-next-line no-console
			console.log(`20k seed+start ${seedMs.toFixed(0)} ms (for the record; not asserted)`);
		} finally {
			memoSpy.mockRestore();
			getSpy.mockRestore();
			await sandbox.close();
		}
	});
});

describe('cli arguments', () => {
	it('reads flags with spaces or =, with the CLI port default 5730 (DEFAULT_PORT)', () => {
		expect(parseArgs([])).toEqual({ port: 5730, seed: {} });
		expect(parseArgs(['--port', '0', '--host=0.0.0.0', '--company', 'cmp_x', '--token=t', '--applications', '20000', '--email-templates=2', '--job-notes-per-job', '1', '--user-categories', '3', '--jobs', '4', '--candidates', '9', '--tags', '1'])).toEqual({
			port: 0,
			host: '0.0.0.0',
			companyId: 'cmp_x',
			token: 't',
			seed: { applications: 20000, emailTemplates: 2, jobNotesPerJob: 1, userCategories: 3, jobs: 4, candidates: 9, tags: 1 },
		});
	});

	it('rejects unknown flags, missing values and non-numbers', () => {
		expect(() => parseArgs(['--colour', 'red'])).toThrow('Unknown flag --colour');
		expect(() => parseArgs(['--port'])).toThrow('Expected --flag value');
		expect(() => parseArgs(['--applications', 'many'])).toThrow("--applications needs a whole number, got 'many'");
	});
});
