/**
 * The real-n8n checks read executions through n8n's public API (scripts/e2e/lib.js executionsOf).
 * In queue mode n8n 2.41.1's list leaves out, for good, an execution its main still tracks as
 * running: one whose queue job the worker completed before main began to wait for it (seen in the
 * polling checks' unpublish/publish step, where the poll at publishing emits while main is still
 * applying the publication). The worker ran it and the database says it ended; a check that reads
 * the list alone waits for it in vain. Where the driver has the database (the queue stack),
 * executionsOf reads such executions one by one.
 */
const { executionsOf } = require('../../scripts/e2e/lib') as {
	executionsOf(n8n: unknown, workflowId: string): Promise<Array<{ id: string; status: string }>>;
};

const execution = (id: string, status = 'success') => ({ id, status, mode: 'trigger', workflowId: 'wf1' });

/** A driver whose list leaves out execution 12 (main still tracks it), as n8n's queue mode did. */
function queueDriver({ sql }: { sql?: string } = {}) {
	const calls: string[] = [];
	const driver = {
		calls,
		async api(method: string, path: string) {
			calls.push(`${method} ${path}`);
			if (path.startsWith('/executions?')) return { data: [execution('11'), execution('10')], nextCursor: null };
			if (path === '/executions/12?includeData=true') return execution('12');
			throw new Error(`unexpected ${method} ${path}`);
		},
		...(sql === undefined ? {} : { postgres: { sql: async () => sql } }),
	};
	return driver;
}

it('queue mode: an execution that ended but that n8n\'s list leaves out is read on its own, newest first', async () => {
	const n8n = queueDriver({ sql: '10\n11\n12\n' });
	const executions = await executionsOf(n8n, 'wf1');
	expect(executions.map((e) => e.id)).toEqual(['12', '11', '10']);
	expect(n8n.calls).toContain('GET /executions/12?includeData=true');
});

it('an execution the list has already is not read twice', async () => {
	const n8n = queueDriver({ sql: '10\n11\n' });
	expect((await executionsOf(n8n, 'wf1')).map((e) => e.id)).toEqual(['11', '10']);
	expect(n8n.calls.filter((c) => c.startsWith('GET /executions/'))).toEqual([]);
});

it('without the database (single process, sqlite) the list is taken as it is', async () => {
	const n8n = queueDriver();
	expect((await executionsOf(n8n, 'wf1')).map((e) => e.id)).toEqual(['11', '10']);
});

it('a workflow id that could not be one is refused before it reaches SQL', async () => {
	const n8n = queueDriver({ sql: '' });
	await expect(executionsOf(n8n, "x' OR '1'='1")).rejects.toThrow(/unexpected workflow id/);
});
