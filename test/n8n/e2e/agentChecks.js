'use strict';
/**
 * The Recruiting node as an AI tool inside a real n8n: n8n's AI Agent (typeVersion 3) with the
 * OpenAI Chat Model (1.2) pointed at the scripted model (scriptedModel.js) and Recruiting tools
 * (`n8n-nodes-recruiting.recruitingTool`) whose parameters come from `$fromAI(...)`; then n8n's
 * MCP Server Trigger with the same tools and the official MCP client.
 *
 * Each conversation is a POST to the agent workflow's webhook (one workflow, every tool offered in
 * every conversation, so the scripted model has to choose). The checks assert what the service
 * received (sandbox requests log), what the model received (tool names, descriptions, argument
 * schemas, tool results and their sizes) and the agent's final answer. What the tools return and
 * how errors reach the model follow the tool-mode contract: simplified output, lists of 20 with a
 * paging note, errors as `{ error }` items a model can act on.
 */
const assert = require('assert');
const crypto = require('crypto');
const path = require('path');
const fs = require('fs');
const { ROOT, FatalCheck, executionsOf, waitFor, log, runOk } = require('../../../scripts/e2e/lib');
const { readmeBlock, AGENTS_PAGE } = require('../../../scripts/e2e/readme');
const { startScriptedModel, MODEL_ID } = require('../../../scripts/e2e/scriptedModel');
const { toolApplication, toolCandidate } = require('../../../scripts/e2e/examples');
const { workflowNode } = require('../../../scripts/n8n/workflow');
const { AGENT_VERSION, MODEL_NODE_VERSION, MODEL_API_KEY, rl, toolName, toolNode, createModelCredential } = require('../../../scripts/e2e/agentWorkflow');

/** The newest MCP Server Trigger of each major (1.123.81 offers 1, 1.1 and 2; 2.41.1 also 2.1). */
const MCP_TRIGGER_VERSION = { 1: 2, 2: 2.1 };
const BASE = '/v1.0/cmp_demo';
const PAGE_SIZE = 20;
const MISSING_CANDIDATE = 'can_e2e_missing';
const INTERVIEWER = 'usr_b4n9c3r6tz';

/**
 * The tools: the model fills `args` (key, description, type: the argument schema it must receive);
 * `parameters(x)` places them in the node's parameters (`x.key` is the $fromAI expression).
 * `ids`: the ID formats the tool's description must name (the contract's descriptions).
 */
const TOOLS = [
	{
		name: 'Get candidate',
		resource: 'candidate',
		operation: 'get',
		args: [{ key: 'candidateId', description: 'The ID of the candidate, e.g. can_abc123', type: 'string' }],
		parameters: (x) => ({ candidateId: x.candidateId }),
		ids: ['can_'],
	},
	{
		name: 'Find applications',
		resource: 'application',
		operation: 'getMany',
		args: [
			{ key: 'jobId', description: 'The ID of the job, e.g. job_abc123', type: 'string' },
			{ key: 'parentStage', description: 'One of: rejected, new, screening, interviewing, offered, hired', type: 'string' },
			{ key: 'page', description: 'The page of results, 1 for the first', type: 'number' },
		],
		parameters: (x) => ({ filters: { jobId: rl(x.jobId), parentStage: x.parentStage }, page: x.page }),
		ids: [],
	},
	{
		name: 'Add tag',
		resource: 'candidate',
		operation: 'addTag',
		args: [
			{ key: 'candidateId', description: 'The ID of the candidate, e.g. can_abc123', type: 'string' },
			{ key: 'tagName', description: 'The name of the tag, e.g. Referral', type: 'string' },
		],
		parameters: (x) => ({ candidateId: x.candidateId, tagId: rl(x.tagName, 'name') }),
		ids: ['can_'],
	},
	{
		name: 'Schedule interview',
		resource: 'interview',
		operation: 'create',
		args: [
			{ key: 'applicationId', description: 'The ID of the application, e.g. app_abc123', type: 'string' },
			{ key: 'start', description: 'Start, ISO 8601 date and time', type: 'string' },
			{ key: 'end', description: 'End, ISO 8601 date and time', type: 'string' },
			{ key: 'timeZone', description: 'IANA time zone, e.g. Europe/Dublin', type: 'string' },
			{ key: 'interviewerId', description: 'The ID of the interviewing user, e.g. usr_abc123', type: 'string' },
			{ key: 'title', description: 'The title of the interview', type: 'string' },
		],
		parameters: (x) => ({
			applicationId: rl(x.applicationId),
			type: 'online',
			start: x.start,
			end: x.end,
			timeZone: x.timeZone,
			attendees: { attendee: [{ type: 'user', userId: x.interviewerId }, { type: 'candidate' }] },
			additionalFields: { title: x.title },
		}),
		ids: ['app_'],
	},
	{
		// Offered, never called: its description must warn a model; the service must see no DELETE.
		name: 'Delete job',
		resource: 'job',
		operation: 'delete',
		args: [{ key: 'jobId', description: 'The ID of the job, e.g. job_abc123', type: 'string' }],
		parameters: (x) => ({ jobId: x.jobId }),
		ids: ['job_'],
		destructive: true,
	},
];

const TOOL = Object.fromEntries(TOOLS.map((t) => [toolName(t.name), t]));
const byName = (name) => (tool) => tool.name === name;

/** The argument schema a client must receive for a tool: its $fromAI arguments, all required (sorted). */
function expectedSchema(tool) {
	return {
		type: 'object',
		properties: Object.fromEntries(tool.args.map((a) => [a.key, a.description ? { type: a.type, description: a.description } : { type: a.type }])),
		required: tool.args.map((a) => a.key).sort(),
	};
}

/** An operation's action, read from the built node. */
function actionOf(resource, operation) {
	const { Recruiting } = require(path.join(ROOT, 'dist', 'nodes', 'Recruiting', 'Recruiting.node.js'));
	const { description } = new Recruiting();
	const selector = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
	return selector.options.find((o) => o.value === operation).action;
}

/**
 * The tool description n8n hands the model by default: the tool variant's Tool Description field of
 * the operation (the node declares one per operation, so n8n adds none of its own), which names the
 * ID form, e.g. "Get a candidate by ID (can_…) in Recruiting"; the action names the node.
 */
function expectedDescription(tool) {
	const { Recruiting } = require(path.join(ROOT, 'dist', 'nodes', 'Recruiting', 'Recruiting.node.js'));
	const { description } = new Recruiting();
	const field = description.properties.find(
		(p) => p.name === 'toolDescription' && p.displayOptions?.show?.resource?.includes(tool.resource) && p.displayOptions?.show?.operation?.includes(tool.operation),
	);
	return field.default;
}

const mainTo = (node) => ({ main: [[{ node, type: 'main', index: 0 }]] });
const aiTo = (type, node) => ({ [type]: [[{ node, type, index: 0 }]] });

/**
 * Webhook (answers with the agent's output) and a streaming Webhook -> AI Agent v3, prompt from
 * the request body; OpenAI Chat Model 1.2 on the scripted model; every tool of TOOLS.
 */
function agentWorkflow({ credential, modelCredential, paths }) {
	const webhook = (name, p, responseMode) =>
		workflowNode(name, 'n8n-nodes-base.webhook', 2, { httpMethod: 'POST', path: p, responseMode, options: {} }, { webhookId: crypto.randomUUID() });
	const nodes = [
		webhook('Ask', paths.answer, 'lastNode'),
		webhook('Ask (streaming)', paths.stream, 'streaming'),
		workflowNode('AI Agent', '@n8n/n8n-nodes-langchain.agent', AGENT_VERSION, {
			promptType: 'define',
			text: '={{ $json.body.prompt }}',
			options: { enableStreaming: true },
		}),
		workflowNode(
			'OpenAI Chat Model',
			'@n8n/n8n-nodes-langchain.lmChatOpenAi',
			MODEL_NODE_VERSION,
			{ model: rl(MODEL_ID), options: {} },
			{ credentials: { openAiApi: { id: modelCredential.id, name: modelCredential.name } } },
		),
		...TOOLS.map((t) => toolNode(t, credential)),
	];
	nodes.forEach((n, i) => (n.position = [i * 200, 0]));
	const connections = {
		Ask: mainTo('AI Agent'),
		'Ask (streaming)': mainTo('AI Agent'),
		'OpenAI Chat Model': aiTo('ai_languageModel', 'AI Agent'),
		...Object.fromEntries(TOOLS.map((t) => [t.name, aiTo('ai_tool', 'AI Agent')])),
	};
	return { name: 'E2E: Recruiting assistant (scripted model)', nodes, connections, settings: { executionOrder: 'v1' } };
}

/**
 * Candidate → Get as a user builds it in the editor of n8n 2.41.1, which the MCP snippet in docs/agents-and-mcp.md
 * calls: the node named as the node panel names it (the action + " in Recruiting",
 * n8n-workflow's makeNodeName) and the Candidate field left to the model with the ✨ button, which
 * writes the field's display name as the key and no description (read from the editor's code: its
 * fromAI override builds `$fromAI('<display name, [^a-zA-Z0-9-] as _>', ``, '<type>')` after a
 * marker comment, inside the resource locator's current mode, `list` by default).
 */
function editorMadeTool() {
	const name = `${actionOf('candidate', 'get')} in Recruiting`;
	return {
		name,
		resource: 'candidate',
		operation: 'get',
		args: [{ key: 'Candidate', description: '', type: 'string' }],
		parameters: () => ({
			candidateId: { __rl: true, mode: 'list', value: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('Candidate', ``, 'string') }}" },
		}),
		ids: ['can_'],
	};
}

/** MCP Server Trigger (fixed path) with the tools that read or write without deleting, Delete job, and the editor-made Get. */
function mcpWorkflow({ credential, mcpPath, triggerVersion }) {
	const tools = [...TOOLS.filter((t) => ['Get candidate', 'Find applications', 'Delete job'].includes(t.name)), editorMadeTool()];
	const nodes = [
		workflowNode('Recruiting MCP', '@n8n/n8n-nodes-langchain.mcpTrigger', triggerVersion, { authentication: 'none', path: mcpPath }, { webhookId: crypto.randomUUID() }),
		...tools.map((t) => toolNode(t, credential)),
	];
	nodes.forEach((n, i) => (n.position = [i * 200, 0]));
	return {
		name: 'E2E: Recruiting MCP server',
		nodes,
		connections: Object.fromEntries(tools.map((t) => [t.name, aiTo('ai_tool', 'Recruiting MCP')])),
		settings: { executionOrder: 'v1' },
	};
}

/** Every item of a list from the service itself, all pages (the expected values). */
async function serviceList(sb, collectionPath, query = {}) {
	const items = [];
	for (let page = 1; ; page++) {
		const qs = new URLSearchParams({ ...query, page: String(page), page_size: '100' });
		const res = await fetch(`${sb.apiBase}${collectionPath}?${qs}`, { headers: { authorization: `Bearer ${sb.sandbox.token}` } });
		const body = await res.json();
		items.push(...body.items);
		if (!body.meta.has_next_page) return items;
	}
}

/** The requests the service received, compactly: [method, path, query, body] (status checked apart). */
const compact = (requests) => requests.map((r) => [r.method, r.path, r.query, r.body]);

/** A tool as a client received it: n8n's default description and exactly its $fromAI arguments. */
function assertOffered(name, description, schema, tools = TOOL) {
	const tool = tools[name];
	assert.ok(tool, `an unknown tool was offered: ${name}`);
	assert.strictEqual(description, expectedDescription(tool), `${name}: description`);
	const { type, required } = schema;
	// An empty $fromAI description (what the ✨ button writes) may reach the schema as "" or not at all.
	const properties = Object.fromEntries(
		Object.entries(schema.properties).map(([key, p]) => [key, p.description === '' ? { ...p, description: undefined } : p]).map(([key, p]) => [key, JSON.parse(JSON.stringify(p))]),
	);
	assert.deepStrictEqual({ type, properties, required: [...required].sort() }, expectedSchema(tool), `${name}: schema`);
}

/** A group's setup check: fatal; when it fails, the group's other checks are counted as not run. */
async function setupCheck(checks, names, reason, fn) {
	try {
		return { ok: true, value: await checks.check(names.setup, fn, { fatal: true }) };
	} catch (e) {
		if (!(e instanceof FatalCheck)) throw e;
		checks.skip(Object.values(names).filter((name) => name !== names.setup), reason);
		return { ok: false };
	}
}

/** A flat item: no nested objects (lists of values allowed), what the contract's simplified shapes are. */
const isFlat = (item) => Object.values(item).every((v) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')));

/** What a tool node received from the agent in each of its runs (n8n 1.x adds the call's id and the agent's input item). */
function toolInputs(execution, nodeName) {
	const runs = execution.data?.resultData?.runData?.[nodeName] || [];
	return runs.flatMap((r) => (r.inputOverride?.ai_tool?.[0] || []).map((item) => item.json));
}

/** The errors a tool node's runs ended with. */
function toolErrors(execution, nodeName) {
	const runs = execution.data?.resultData?.runData?.[nodeName] || [];
	return runs.filter((r) => r.error).map((r) => r.error);
}

/** The text of an `error` a tool gave the model, from its result ([{ error }] or { error }). */
function errorOf(result) {
	const items = Array.isArray(result.json) ? result.json : [result.json];
	assert.strictEqual(items.length, 1, `expected one error item, the model received: ${result.text.slice(0, 500)}`);
	assert.strictEqual(typeof items[0]?.error, 'string', `no error text; the model received: ${result.text.slice(0, 500)}`);
	return items[0].error;
}

/** The contract's not-found text for a candidate: names the ID and says what a candidate ID looks like. */
function assertCandidateNotFoundText(text, id) {
	assert.ok(text.includes(id), `the error does not name ${id}: ${text}`);
	assert.ok(text.split(id).join('').includes('can_'), `the error does not say candidate IDs start with can_: ${text}`);
	assert.ok(!/NodeOperationError|NodeApiError|\bat \//.test(text), `the error carries an exception: ${text}`);
}

/**
 * The answer of the agent from a streaming webhook: n8n writes one JSON object per line
 * ({ type: 'begin' | 'item' | 'end', content? }); the items' contents are the answer.
 */
function streamedAnswer(text) {
	const chunks = text
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l));
	return chunks.filter((c) => c.type === 'item').map((c) => c.content).join('');
}

async function agentChecks(checks, n8n, sb, credential) {
	const { control } = sb;
	const major = Number(n8n.version.split('.')[0]);
	const model = await startScriptedModel();
	const tag = crypto.randomBytes(3).toString('hex');
	const paths = { answer: `recruiting-agent-${tag}`, stream: `recruiting-agent-stream-${tag}` };
	let workflow;
	const seenExecutions = new Set();

	/**
	 * One conversation: scripts the model, POSTs the prompt, waits for the agent's execution.
	 * Returns { answer, status, execution, requests (model, this conversation), service (sandbox) }.
	 */
	async function converse(id, prompt, script, { stream = false } = {}) {
		model.clear();
		model.script(id, script);
		await control.clearRequests();
		const url = `${n8n.webhookUrl}/webhook/${stream ? paths.stream : paths.answer}`;
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ prompt: `[${id}] ${prompt}` }),
			signal: AbortSignal.timeout(120000),
		});
		const body = await res.text();
		const execution = await waitFor(
			`the agent execution of ${id}`,
			async () =>
				(await executionsOf(n8n, workflow.id)).find(
					(e) => !seenExecutions.has(e.id) && (e.finished || ['success', 'error', 'crashed'].includes(e.status)),
				),
			{ timeoutMs: 60000 },
		);
		seenExecutions.add(execution.id);
		let answer;
		if (stream) answer = streamedAnswer(body);
		else answer = res.status === 200 ? JSON.parse(body).output : undefined;
		return {
			httpStatus: res.status,
			body,
			answer,
			status: execution.status,
			execution,
			error: execution.data?.resultData?.error,
			requests: model.requestsOf(id),
			service: await control.requests(),
		};
	}

	/** The run succeeded and the model was asked once more than it called tools (the last turn answers). */
	function assertRan(run, toolCalls) {
		const err = run.error && `${run.error.message} ${run.error.description || ''}`;
		assert.strictEqual(run.status, 'success', `the agent run ended ${run.status}: ${err} (model problems: ${model.problems.join('; ')})`);
		assert.deepStrictEqual(model.problems, [], 'the scripted model refused a request');
		assert.strictEqual(run.requests.length, toolCalls + 1, `the model was asked ${run.requests.length} times`);
		const last = run.requests[run.requests.length - 1];
		assert.strictEqual(last.toolResults.length, toolCalls, 'tool results in the last request');
		return last.toolResults;
	}

	const names = {
		setup: 'agent: AI Agent v3 + OpenAI Chat Model 1.2 (scripted model) + 5 Recruiting tools, activated',
		offered: 'agent: the model is offered each tool with its name, description (the node\'s action) and $fromAI argument schema',
		contractDescriptions: 'agent: tool descriptions name the ID formats they need; Delete says it deletes permanently',
		get: 'agent: get a candidate -> one GET, the simplified candidate reaches the model, the answer names them',
		list: 'agent: applications of a job at a parent stage, 20 a page with a paging note -> page 2 asked for (streaming)',
		tag: 'agent: add a tag by name -> unknown name reaches the model as an error, no write; then exactly one POST',
		interview: 'agent: create an interview from a candidate\'s application -> exactly the POST /interviews body',
		notFound: `agent: not-found candidate -> the model receives an error naming ${MISSING_CANDIDATE} and can_, the run succeeds`,
		thrown:
			major >= 2
				? 'agent: a failure the tool still throws (service 401) -> n8n 2.x hands the model [{ error: message }], the run succeeds'
				: 'agent: a failure the tool still throws (service 401) -> n8n 1.x fails the agent run; the model never sees it',
	};

	try {
		const setup = await setupCheck(checks, names, 'the agent workflow was not set up', async () => {
			const modelCredential = await createModelCredential(n8n, model.url);
			const wf = await n8n.api('POST', '/workflows', agentWorkflow({ credential, modelCredential, paths }));
			await n8n.api('POST', `/workflows/${wf.id}/activate`);
			return wf;
		});
		if (!setup.ok) return;
		workflow = setup.value;

		// Applications as the service lists them; each conversation works on its own candidate.
		const apps = await serviceList(sb, '/applications');
		const candidateOf = async (id) => control.apiGet(`/candidates/${id}`);

		// (a) Get a candidate.
		const getTarget = await candidateOf(apps[41].candidate.id);
		let firstRequest;
		await checks.check(names.get, async () => {
			const run = await converse(
				'agent-get-candidate',
				`What do we know about candidate ${getTarget.id}?`,
				{
					steps: [{ pick: byName('Get_candidate'), args: () => ({ candidateId: getTarget.id }) }],
					answer: ({ results }) => {
						const [c] = results[0].json;
						return `${c.full_name} <${c.email}>, ${c.title} at ${c.company}; tags: ${c.tags || 'none'}.`;
					},
				},
			);
			firstRequest = run.requests[0];
			const [result] = assertRan(run, 1);
			assert.strictEqual(firstRequest.authorization, `Bearer ${MODEL_API_KEY}`, 'the model was not called with the credential\'s key');
			assert.deepStrictEqual(compact(run.service), [['GET', `${BASE}/candidates/${getTarget.id}`, {}, undefined]]);
			assert.strictEqual(run.service[0].status, 200);
			assert.deepStrictEqual(result.args, { candidateId: getTarget.id });
			assert.deepStrictEqual(toolInputs(run.execution, 'Get candidate').map((x) => x.candidateId), [getTarget.id]);
			const expected = [toolCandidate(getTarget)];
			assert.deepStrictEqual(result.json, expected);
			assert.strictEqual(result.bytes, Buffer.byteLength(JSON.stringify(expected)), `tool result ${result.bytes} bytes`);
			const c = expected[0];
			assert.strictEqual(run.answer, `${c.full_name} <${c.email}>, ${c.title} at ${c.company}; tags: ${c.tags || 'none'}.`);
			log(`agent get candidate: tool result ${result.bytes} bytes`);
		});

		await checks.check(names.offered, async () => {
			assert.ok(firstRequest, 'no request of the first conversation');
			assert.deepStrictEqual(firstRequest.tools.map((t) => t.name).sort(), Object.keys(TOOL).sort());
			for (const t of firstRequest.tools) assertOffered(t.name, t.description, t.parameters);
			log(`agent tools: ${firstRequest.tools.map((t) => `${t.name}: "${t.description}"`).join('; ')}`);
		});

		await checks.check(names.contractDescriptions, async () => {
			assert.ok(firstRequest, 'no request of the first conversation');
			for (const t of firstRequest.tools) {
				const tool = TOOL[t.name];
				for (const prefix of tool.ids) assert.ok(t.description.includes(prefix), `${t.name}: "${t.description}" does not name ${prefix}…`);
				// The action is a short label for people; the tool description keeps "Permanently" of the warning.
				if (tool.destructive) assert.match(t.description, /^Permanently delete /, `${t.name}: "${t.description}"`);
			}
		});

		// (b) The applications of a job at a parent stage: the biggest such group, so it needs a second page.
		await checks.check(names.list, async () => {
			// A job and parent stage with 21 to 40 applications: two pages of 20.
			const groups = new Map();
			for (const a of apps) {
				const key = `${a.job.id} ${a.stage.parent_stage}`;
				groups.set(key, (groups.get(key) || 0) + 1);
			}
			const found = [...groups.entries()].find(([, n]) => n > PAGE_SIZE && n <= 2 * PAGE_SIZE);
			assert.ok(found, 'no job has 21 to 40 applications at one parent stage');
			const [jobId, stage] = found[0].split(' ');
			const key = found[0];
			const expected = await serviceList(sb, '/applications', { job_id: jobId, parent_stage: stage });
			assert.strictEqual(expected.length, found[1]);
			const jobTitle = expected[0].job.title;
			const run = await converse(
				'agent-job-stage',
				`Which applications to ${jobTitle} (${jobId}) are at the ${stage} stage?`,
				{
					steps: [
						{ pick: byName('Find_applications'), args: () => ({ jobId, parentStage: stage, page: 1 }) },
						{
							pick: byName('Find_applications'),
							args: ({ results }) => {
								const note = [].concat(results[0].json).at(-1);
								if (!note || typeof note.next_page !== 'number') throw new Error('the first page has no paging note with next_page');
								return { jobId, parentStage: stage, page: note.next_page };
							},
						},
					],
					answer: ({ results }) => {
						const apps = results.flatMap((r) => [].concat(r.json)).filter((x) => x.id);
						const note = [].concat(results[0].json).at(-1);
						return `${note.total_items} applications at ${stage}: ${apps.map((x) => x.candidate_name).join(', ')}.`;
					},
				},
				{ stream: true },
			);
			assert.ok(run.requests.every((r) => r.stream), 'a streaming run asked the model without stream: true');
			const results = assertRan(run, 2);
			const query = (page) => ({ job_id: jobId, parent_stage: stage, page: String(page), page_size: String(PAGE_SIZE) });
			assert.deepStrictEqual(compact(run.service), [
				['GET', `${BASE}/applications`, query(1), undefined],
				['GET', `${BASE}/applications`, query(2), undefined],
			]);
			const simplified = expected.map(toolApplication);
			assert.deepStrictEqual(results[0].json.slice(0, -1), simplified.slice(0, PAGE_SIZE));
			const note = results[0].json.at(-1);
			assert.strictEqual(note.id, undefined, 'the paging note has an id');
			assert.deepStrictEqual({ page: note.page, next_page: note.next_page, total_items: note.total_items }, { page: 1, next_page: 2, total_items: expected.length });
			assert.ok(note.note.includes(`of ${expected.length}`) && /\bpage 2\b/.test(note.note), `note: ${note.note}`);
			assert.deepStrictEqual(results[1].json, simplified.slice(PAGE_SIZE), 'page 2: the rest, no note');
			assert.strictEqual(run.answer, `${expected.length} applications at ${stage}: ${simplified.map((x) => x.candidate_name).join(', ')}.`);
			log(`agent applications: ${expected.length} for ${key}; tool results ${results.map((r) => r.bytes).join(' + ')} bytes`);
		});

		// (c) Add a tag by name: first a name that does not exist (refused before any write), then the right one.
		await checks.check(names.tag, async () => {
			const tags = await serviceList(sb, '/tags');
			const target = await candidateOf(apps[43].candidate.id);
			const tagToAdd = tags.find(
				(t) => !(target.tags || []).some((ct) => ct.id === t.id) && tags.filter((o) => o.name.toLowerCase() === t.name.toLowerCase()).length === 1,
			);
			const unknownName = `No such tag ${tag}`;
			const run = await converse(
				'agent-add-tag',
				`Tag candidate ${target.id} as "${tagToAdd.name.toLowerCase()}".`,
				{
					steps: [
						{ pick: byName('Add_tag'), args: () => ({ candidateId: target.id, tagName: unknownName }) },
						{ pick: byName('Add_tag'), args: () => ({ candidateId: target.id, tagName: tagToAdd.name.toLowerCase() }) },
					],
					answer: ({ results }) => `Tagged: ${JSON.stringify(results[1].json)}`,
				},
			);
			const results = assertRan(run, 2);
			const refused = errorOf(results[0]);
			assert.ok(refused.includes(unknownName), `the error does not name the tag: ${refused}`);
			const writes = run.service.filter((r) => r.method !== 'GET');
			assert.deepStrictEqual(compact(writes), [['POST', `${BASE}/candidates/${target.id}/tags`, {}, { id: tagToAdd.id }]]);
			assert.strictEqual(writes[0].status, 204, `POST answered ${writes[0].status}`);
			assert.ok(run.service.filter((r) => r.method === 'GET').every((r) => r.path === `${BASE}/tags`), `reads: ${run.service.map((r) => r.path)}`);
			assert.ok(run.service.indexOf(writes[0]) > 0, 'the POST came before the name was looked up');
			assert.deepStrictEqual([].concat(results[1].json), [{ success: true }]);
			const now = await candidateOf(target.id);
			assert.ok(now.tags.some((t) => t.id === tagToAdd.id), 'the tag is not on the candidate');
			assert.strictEqual(run.answer, 'Tagged: [{"success":true}]');
		});

		// (d) Create an interview: the application comes from the candidate the model looked up first.
		await checks.check(names.interview, async () => {
			const target = await candidateOf(apps[47].candidate.id);
			const applicationId = target.application_ids[0];
			const when = { start: '2030-05-06T14:00:00', end: '2030-05-06T14:45:00', timeZone: 'Europe/Dublin' };
			const title = `Interview with ${target.full_name}`;
			const run = await converse(
				'agent-interview',
				`Schedule a 45-minute online interview with candidate ${target.id} on 6 May 2030 at 14:00 Dublin time.`,
				{
					steps: [
						{ pick: byName('Get_candidate'), args: () => ({ candidateId: target.id }) },
						{
							pick: byName('Schedule_interview'),
							args: ({ results }) => ({ applicationId: results[0].json[0].application_ids[0], ...when, interviewerId: INTERVIEWER, title }),
						},
					],
					answer: ({ results }) => {
						const [interview] = [].concat(results[1].json);
						return `Scheduled ${interview.id}.`;
					},
				},
			);
			const results = assertRan(run, 2);
			const post = run.service.filter((r) => r.method === 'POST');
			assert.deepStrictEqual(compact(run.service.filter((r) => r.method === 'GET')), [['GET', `${BASE}/candidates/${target.id}`, {}, undefined]]);
			assert.strictEqual(post.length, 1, `${post.length} POSTs`);
			assert.strictEqual(post[0].status, 201);
			assert.deepStrictEqual(compact(post), [
				[
					'POST',
					`${BASE}/interviews`,
					{},
					{
						application_id: applicationId,
						event: {
							title,
							type: 'online',
							start: when.start,
							end: when.end,
							time_zone: when.timeZone,
							attendees: [
								{ type: 'user', application_id: null, user_id: INTERVIEWER },
								{ type: 'candidate', application_id: applicationId, user_id: null },
							],
						},
					},
				],
			]);
			const items = [].concat(results[1].json);
			assert.strictEqual(items.length, 1);
			assert.match(String(items[0].id), /^int_/);
			const stored = await control.record('interviews', items[0].id);
			assert.ok(stored && stored.application_id === applicationId, 'the interview is not stored for the application');
			assert.ok(isFlat(items[0]), `the interview the model received is not flat: ${results[1].text.slice(0, 300)}`);
			assert.strictEqual(run.answer, `Scheduled ${items[0].id}.`);
			log(`agent interview: tool result ${results[1].bytes} bytes`);
		});

		// (e) A candidate that does not exist.
		await checks.check(names.notFound, async () => {
			const run = await converse(
				'agent-not-found',
				`What do we know about candidate ${MISSING_CANDIDATE}?`,
				{
					steps: [{ pick: byName('Get_candidate'), args: () => ({ candidateId: MISSING_CANDIDATE }) }],
					answer: ({ results }) => `Sorry: ${errorOf(results[0])}`,
				},
			);
			const summary = `run ${run.status}${run.error ? `: ${run.error.message}` : ''}; model asked ${run.requests.length}x`;
			log(`agent not-found: ${summary}; the model received ${JSON.stringify(run.requests.at(-1)?.toolResults.map((r) => r.text))}`);
			assert.deepStrictEqual(compact(run.service), [['GET', `${BASE}/candidates/${MISSING_CANDIDATE}`, {}, undefined]]);
			assert.strictEqual(run.service[0].status, 404);
			const [result] = assertRan(run, 1);
			const text = errorOf(result);
			assertCandidateNotFoundText(text, MISSING_CANDIDATE);
			assert.strictEqual(run.answer, `Sorry: ${text}`);
		});

		// (f) What n8n itself does with an error a tool throws (tool mode still throws 401, 5xx, network).
		await checks.check(names.thrown, async () => {
			const target = apps[59].candidate.id;
			await control.setFaults([{ kind: 'status', status: 401, method: 'GET', path: '/candidates/', times: -1 }]);
			let run;
			try {
				run = await converse('agent-thrown', `What do we know about candidate ${target}?`, {
					steps: [{ pick: byName('Get_candidate'), args: () => ({ candidateId: target }) }],
					answer: ({ results }) => `Failed: ${results[0].text}`,
				});
			} finally {
				await control.setFaults([]);
			}
			assert.deepStrictEqual(compact(run.service), [['GET', `${BASE}/candidates/${target}`, {}, undefined]]);
			assert.strictEqual(run.service[0].status, 401);
			const [thrown] = toolErrors(run.execution, 'Get candidate');
			assert.ok(thrown, 'the tool node did not fail');
			assert.match(thrown.message, /^Authorization failed/);
			log(`agent thrown (n8n ${n8n.version}): run ${run.status}; model asked ${run.requests.length}x; received ${JSON.stringify(run.requests.at(-1).toolResults.map((r) => r.text))}; error ${JSON.stringify(run.error && run.error.message)}`);
			if (major >= 2) {
				const [result] = assertRan(run, 1);
				// Only the message: n8n drops the error's description.
				assert.deepStrictEqual(result.json, [{ error: thrown.message }]);
				assert.strictEqual(run.answer, `Failed: ${result.text}`);
			} else {
				assert.strictEqual(run.status, 'error');
				assert.strictEqual(run.error.message, thrown.message);
				assert.strictEqual(run.requests.length, 1, 'the model was asked again after the tool failed');
				assert.strictEqual(run.httpStatus, 500);
			}
		});
	} finally {
		if (workflow) await n8n.api('POST', `/workflows/${workflow.id}/deactivate`).catch((e) => log(`deactivate agent workflow: ${e.message}`));
		await model.close();
	}
}

/**
 * The MCP Server Trigger with Recruiting tools, activated; the official MCP client connects over
 * Streamable HTTP (and, once, over SSE), lists the tools, calls them.
 */
async function mcpChecks(checks, n8n, sb, credential) {
	const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
	const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
	const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js');
	const { control } = sb;
	const mcpPath = `recruiting-mcp-${crypto.randomBytes(3).toString('hex')}`;
	const { endpointMcp } = await n8n.rest('GET', '/settings');
	const url = new URL(`${n8n.webhookUrl}/${endpointMcp}/${mcpPath}`);
	const editorMade = editorMadeTool();
	const tools = { ...TOOL, [toolName(editorMade.name)]: editorMade };
	const offered = ['Get_candidate', 'Find_applications', 'Delete_job', toolName(editorMade.name)];
	let workflow;
	let client;
	const names = {
		setup: 'mcp: MCP Server Trigger with 4 Recruiting tools activated; the MCP client connects (Streamable HTTP)',
		list: 'mcp: tools/list gives each tool\'s name, description and $fromAI input schema (one tool as the editor makes it: node name, ✨ key)',
		readme: 'mcp: docs/agents-and-mcp.md\'s MCP snippet, copied (URL and ID filled in), runs with node and gets the candidate from the editor-made tool',
		call: 'mcp: tools/call Get candidate -> the simplified candidate; the service saw exactly one GET',
		notFound: `mcp: tools/call with ${MISSING_CANDIDATE} -> a result naming it and can_, not an exception; one GET`,
		sse: 'mcp: the SSE transport lists the same tools; Find applications -> page 1, 20 a page',
	};
	const connect = async (transport) => {
		const c = new Client({ name: 'n8n-nodes-recruiting-e2e', version: '1.0.0' });
		await c.connect(transport);
		return c;
	};
	try {
		const setup = await setupCheck(checks, names, 'the MCP server was not set up', async () => {
			const triggerVersion = MCP_TRIGGER_VERSION[n8n.version.split('.')[0]];
			workflow = await n8n.api('POST', '/workflows', mcpWorkflow({ credential, mcpPath, triggerVersion }));
			await n8n.api('POST', `/workflows/${workflow.id}/activate`);
			client = await waitFor('the MCP server to accept a client', () => connect(new StreamableHTTPClientTransport(url)), { timeoutMs: 15000 });
			log(`mcp: MCP Server Trigger typeVersion ${triggerVersion} at ${url}; server ${JSON.stringify(client.getServerVersion())}`);
		});
		if (!setup.ok) return;
		const apps = await serviceList(sb, '/applications');
		const target = await control.apiGet(`/candidates/${apps[53].candidate.id}`);

		await checks.check(names.list, async () => {
			const listed = (await client.listTools()).tools;
			assert.deepStrictEqual(listed.map((t) => t.name).sort(), [...offered].sort());
			for (const t of listed) assertOffered(t.name, t.description, t.inputSchema, tools);
			const made = listed.find((t) => t.name === toolName(editorMade.name));
			log(`mcp: the editor-made tool is offered as ${made.name}: "${made.description}", ${JSON.stringify(made.inputSchema.properties)}`);
		});

		await checks.check(names.readme, async () => {
			const snippet = readmeBlock('mcp client', AGENTS_PAGE);
			const readmeUrl = 'http://127.0.0.1:5678/mcp/recruiting';
			for (const literal of [readmeUrl, "'can_…'"]) {
				assert.strictEqual(snippet.split(literal).length, 2, `docs/agents-and-mcp.md's MCP snippet should hold ${literal} once:\n${snippet}`);
			}
			assert.ok(snippet.includes(`'${toolName(editorMade.name)}'`), `docs/agents-and-mcp.md's MCP snippet does not call ${toolName(editorMade.name)}:\n${snippet}`);
			const file = path.join(ROOT, 'build', `readme-mcp-${crypto.randomBytes(3).toString('hex')}.js`);
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, snippet.replace(readmeUrl, url.href).replace("'can_…'", `'${target.id}'`));
			await control.clearRequests();
			let out;
			try {
				out = await runOk(process.execPath, [file], { cwd: path.dirname(file), timeoutMs: 60000 });
			} finally {
				fs.rmSync(file, { force: true });
			}
			const lines = out.stdout.trim().split('\n');
			assert.deepStrictEqual(lines.slice(0, offered.length).sort(), [...offered].sort(), `the snippet printed: ${out.stdout}`);
			assert.deepStrictEqual(JSON.parse(lines.slice(offered.length).join('\n')), [toolCandidate(target)], `the snippet printed: ${out.stdout}`);
			assert.deepStrictEqual(compact(await control.requests()), [['GET', `${BASE}/candidates/${target.id}`, {}, undefined]]);
		});

		await checks.check(names.call, async () => {
			await control.clearRequests();
			const result = await client.callTool({ name: 'Get_candidate', arguments: { candidateId: target.id } });
			assert.ok(!result.isError, `isError: ${JSON.stringify(result.content)}`);
			assert.strictEqual(result.content.length, 1);
			assert.deepStrictEqual(JSON.parse(result.content[0].text), [toolCandidate(target)]);
			const service = await control.requests();
			assert.deepStrictEqual(compact(service), [['GET', `${BASE}/candidates/${target.id}`, {}, undefined]]);
		});

		await checks.check(names.notFound, async () => {
			await control.clearRequests();
			const result = await client.callTool({ name: 'Get_candidate', arguments: { candidateId: MISSING_CANDIDATE } });
			const text = result.content.map((c) => c.text).join('');
			log(`mcp not-found: isError ${result.isError === true}; the client received ${JSON.stringify(text)}`);
			const service = await control.requests();
			assert.deepStrictEqual(compact(service), [['GET', `${BASE}/candidates/${MISSING_CANDIDATE}`, {}, undefined]]);
			assertCandidateNotFoundText(errorOf({ text, json: JSON.parse(text.startsWith('[') || text.startsWith('{') ? text : 'null') }), MISSING_CANDIDATE);
		});

		await checks.check(names.sse, async () => {
			const sse = await connect(new SSEClientTransport(url));
			try {
				const { tools } = await sse.listTools();
				assert.deepStrictEqual(tools.map((t) => t.name).sort(), [...offered].sort());
				const { job, stage } = apps[53];
				const expected = await serviceList(sb, '/applications', { job_id: job.id, parent_stage: stage.parent_stage });
				await control.clearRequests();
				const result = await sse.callTool({ name: 'Find_applications', arguments: { jobId: job.id, parentStage: stage.parent_stage, page: 1 } });
				assert.ok(!result.isError, `isError: ${JSON.stringify(result.content)}`);
				const items = JSON.parse(result.content[0].text);
				assert.deepStrictEqual(items.filter((x) => x.id), expected.slice(0, PAGE_SIZE).map(toolApplication));
				const service = await control.requests();
				assert.deepStrictEqual(compact(service), [
					['GET', `${BASE}/applications`, { job_id: job.id, parent_stage: stage.parent_stage, page: '1', page_size: String(PAGE_SIZE) }, undefined],
				]);
			} finally {
				await sse.close().catch(() => {});
			}
		});
	} finally {
		if (client) await client.close().catch(() => {});
		if (workflow) await n8n.api('POST', `/workflows/${workflow.id}/deactivate`).catch((e) => log(`deactivate MCP workflow: ${e.message}`));
	}
}

module.exports = {
	agentChecks,
	mcpChecks,
	TOOLS,
	expectedDescription,
	expectedSchema,
};
