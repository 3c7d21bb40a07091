'use strict';
/**
 * The "Recruiting assistant" example (examples/recruiting-assistant.json) as `npm start` imports
 * it, with the demo's scripted model (assistantModel.js): chat messages POSTed to the Chat
 * Trigger's production URL, as n8n's chat widget sends them, in one session (the example's memory
 * repeats earlier turns to the model). Asserts the answer, what the service received and what the
 * model was offered: the example's five tools, none destructive.
 */
const assert = require('assert');
const crypto = require('crypto');
const { log, FatalCheck, waitFor } = require('../../../scripts/e2e/lib');
const { startAssistantModel } = require('../../../scripts/e2e/assistantModel');
const { createModelCredential } = require('../../../scripts/e2e/agentWorkflow');
const { fillExample, chatUrlOf, toolApplication } = require('../../../scripts/e2e/examples');

const BASE = '/v1.0/cmp_demo';
const PAGE_SIZE = 20;
const EXAMPLE_TOOLS = ['Find_applications', 'List_users', 'Read_application', 'Schedule_interview', 'Tag_candidate'];

const compact = (requests) => requests.map((r) => [r.method, r.path, r.query, r.body]);

async function assistantExampleChecks(checks, n8n, sb, credential) {
	const { control } = sb;
	const model = await startAssistantModel();
	const sessionId = crypto.randomUUID();
	let workflow;
	let chatUrl;
	const get = async (p) => {
		const res = await fetch(`${sb.apiBase}${p}`, { headers: { authorization: `Bearer ${sb.sandbox.token}` } });
		return res.json();
	};

	/** One chat message as n8n's chat widget sends it; the answer, the model's requests, the service's. */
	async function chat(chatInput) {
		model.clear();
		await control.clearRequests();
		const res = await fetch(chatUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput }),
			signal: AbortSignal.timeout(120000),
		});
		const text = await res.text();
		assert.strictEqual(res.status, 200, `POST ${chatUrl} -> ${res.status}: ${text.slice(0, 500)}`);
		assert.deepStrictEqual(model.problems, [], 'the scripted model refused a request');
		return { answer: JSON.parse(text).output, requests: [...model.requests], service: await control.requests() };
	}

	const names = {
		setup: 'assistant example: imported as the demo does (scripted model credential, public chat) and published',
		find: 'assistant example: "find applications for job … at screening" -> one GET of 20, the answer lists them; 5 tools offered, none destructive',
		tag: 'assistant example: "tag can_… as …" (same session) -> the tag looked up by name, exactly one POST',
		interview: 'assistant example: "schedule an interview … with <name>" -> List users, then exactly the POST /interviews body',
		refuse: 'assistant example: "delete job …" -> says what it can do, no request to the service',
	};
	try {
		try {
			await checks.check(names.setup, async () => {
				const modelCredential = await createModelCredential(n8n, model.url, { name: 'OpenAI (demo: scripted model)', apiKey: 'sk-demo-e2e' });
				const wf = fillExample('assistant', { credential, modelCredential, publicChat: true });
				workflow = await n8n.api('POST', '/workflows', wf);
				await n8n.api('POST', `/workflows/${workflow.id}/activate`);
				chatUrl = chatUrlOf(wf, n8n.webhookUrl);
				// The production webhook is registered a moment after activation: the hosted page answers then.
				await waitFor('the chat URL to answer', async () => (await fetch(chatUrl)).status === 200, { timeoutMs: 20000 });
			}, { fatal: true });
		} catch (e) {
			if (!(e instanceof FatalCheck)) throw e;
			checks.skip(Object.values(names).slice(1), 'the assistant example was not set up');
			return;
		}

		const { items: screening } = await get('/applications?parent_stage=screening&page_size=100');
		const byJob = new Map();
		for (const a of screening) byJob.set(a.job.id, (byJob.get(a.job.id) || 0) + 1);
		const [jobId] = [...byJob.entries()].sort((a, b) => b[1] - a[1])[0];
		const target = screening.find((a) => a.job.id === jobId);

		await checks.check(names.find, async () => {
			const run = await chat(`find applications for job ${jobId} at screening`);
			assert.deepStrictEqual(compact(run.service), [
				['GET', `${BASE}/applications`, { job_id: jobId, parent_stage: 'screening', page: '1', page_size: String(PAGE_SIZE) }, undefined],
			]);
			const first = run.requests[0];
			assert.deepStrictEqual(first.tools.map((t) => t.name).sort(), EXAMPLE_TOOLS);
			for (const t of first.tools) assert.doesNotMatch(t.description, /cannot be undone|delete|cancel/i, `${t.name}: ${t.description}`);
			assert.match(first.system, /cannot delete, cancel/i, 'the system message does not say what the assistant cannot do');
			const { items: expected } = await get(`/applications?job_id=${jobId}&parent_stage=screening&page_size=${PAGE_SIZE}`);
			const simplified = expected.map(toolApplication);
			assert.deepStrictEqual(run.requests.at(-1).toolResults[0].json.filter((x) => x.id), simplified, 'what the tool handed the model');
			const lines = run.answer.split('\n');
			assert.strictEqual(lines[0], `Applications to ${simplified[0].job_title} (${jobId}) at the screening stage:`);
			for (const a of simplified) assert.ok(run.answer.includes(`${a.candidate_name} (${a.candidate_id}): application ${a.id}`), `${a.id} missing: ${run.answer}`);
			log(`assistant find: ${simplified.length} applications, tool result ${run.requests.at(-1).toolResults[0].bytes} bytes`);
		});

		await checks.check(names.tag, async () => {
			const candidate = await control.apiGet(`/candidates/${target.candidate.id}`);
			const { items: tags } = await get('/tags?page_size=100');
			// A name the chat message carries as it is (the stand-in reads "as <name>" to the end).
			const tag = tags.find((t) => /^[\w &-]+$/.test(t.name) && !(candidate.tags || []).some((c) => c.id === t.id) && tags.filter((o) => o.name.toLowerCase() === t.name.toLowerCase()).length === 1);
			const run = await chat(`tag ${candidate.id} as ${tag.name}`);
			assert.ok(run.requests[0].messages.some((m) => m.role === 'user' && /find applications/.test(m.content)), 'the memory did not repeat the first message');
			const writes = run.service.filter((r) => r.method !== 'GET');
			assert.deepStrictEqual(compact(writes), [['POST', `${BASE}/candidates/${candidate.id}/tags`, {}, { id: tag.id }]]);
			assert.ok(run.service.filter((r) => r.method === 'GET').every((r) => r.path === `${BASE}/tags`), `reads: ${run.service.map((r) => r.path)}`);
			assert.strictEqual(run.answer, `Tagged ${candidate.id} as "${tag.name}".`);
		});

		await checks.check(names.interview, async () => {
			const { items: users } = await get('/users?page_size=100');
			const interviewer = users[1];
			const firstName = interviewer.first_name;
			const run = await chat(`schedule an interview for ${target.id} on 2030-05-06 14:00 Europe/Dublin, 30 min, with ${firstName}`);
			assert.deepStrictEqual(compact(run.service.filter((r) => r.method === 'GET')), [['GET', `${BASE}/users`, { page: '1', page_size: String(PAGE_SIZE) }, undefined]]);
			const posts = run.service.filter((r) => r.method === 'POST');
			assert.deepStrictEqual(compact(posts), [
				[
					'POST',
					`${BASE}/interviews`,
					{},
					{
						application_id: target.id,
						event: {
							title: 'Interview',
							type: 'online',
							start: '2030-05-06T14:00:00',
							end: '2030-05-06T14:30:00',
							time_zone: 'Europe/Dublin',
							attendees: [
								{ type: 'user', application_id: null, user_id: interviewer.id },
								{ type: 'candidate', application_id: target.id, user_id: null },
							],
						},
					},
				],
			]);
			assert.strictEqual(posts[0].status, 201);
			const who = `${interviewer.first_name} ${interviewer.last_name}`;
			assert.match(run.answer, new RegExp(`^Scheduled int_\\w+ for ${target.id}: 2030-05-06 14:00 to 2030-05-06 14:30 Europe/Dublin, with ${who}\\.$`));
		});

		await checks.check(names.refuse, async () => {
			const run = await chat(`delete job ${jobId}`);
			assert.deepStrictEqual(run.service, []);
			assert.match(run.answer, /^I cannot delete, remove or cancel anything: this workflow connects no such tools\./);
			assert.ok(run.answer.includes('find applications for job job_…'), `the answer does not say what it can do: ${run.answer}`);
		});
	} finally {
		if (workflow) await n8n.api('POST', `/workflows/${workflow.id}/deactivate`).catch((e) => log(`deactivate assistant example: ${e.message}`));
		await model.close();
	}
}

module.exports = { assistantExampleChecks };
