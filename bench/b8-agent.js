'use strict';
/**
 * B8: the Recruiting node as an AI agent's tool, through n8n's real agent path (AI Agent v3 +
 * OpenAI Chat Model 1.2 on the scripted model + Recruiting tools, set up as the e2e's agent checks
 * do). (a) The bytes the model receives as the tool result of Application Get Many, 20 items,
 * Output Simplified vs Raw, read off the scripted model's recorded requests. (b) What an agent adds
 * per tool call: POST → answer of the same operation called once as a tool by the agent (the model
 * answers at once) vs in a plain workflow (Webhook → Recruiting node), and of five calls vs one.
 */
const crypto = require('crypto');
const { startScriptedModel } = require('../scripts/e2e/scriptedModel');
const { toolNode, createModelCredential, AGENT_VERSION, MODEL_NODE_VERSION, rl } = require('../scripts/e2e/agentWorkflow');
const { RECRUITING, workflowNode, recruitingCredential, webhookTrigger, chain } = require('../scripts/n8n/workflow');
const { median, fmt } = require('./lib');

const ITEMS = 20;
/** Agent calls in the "several calls" variant: the difference to one call, divided, is the cost per call. */
const MANY_CALLS = 5;
const OUTPUTS = ['simplified', 'raw'];

const pageArg = { key: 'page', description: 'The page of results, 1 for the first', type: 'number' };
const toolOf = (output) => ({
	name: `Applications ${output}`,
	resource: 'application',
	operation: 'getMany',
	args: [pageArg],
	parameters: (x) => ({ page: x.page, pageSize: ITEMS, output }),
});
const toolNameOf = (output) => `Applications_${output}`;

/** Webhook (answers with the agent's output) → AI Agent v3 on the scripted model, one tool per Output. */
function agentWorkflow(path, credential, modelCredential) {
	const nodes = [
		webhookTrigger(path, { name: 'Ask' }),
		workflowNode('AI Agent', '@n8n/n8n-nodes-langchain.agent', AGENT_VERSION, { promptType: 'define', text: '={{ $json.body.prompt }}', options: {} }),
		workflowNode('OpenAI Chat Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', MODEL_NODE_VERSION, { model: rl('scripted-model'), options: {} }, {
			credentials: { openAiApi: { id: modelCredential.id, name: modelCredential.name } },
		}),
		...OUTPUTS.map((output) => toolNode(toolOf(output), credential)),
	];
	nodes.forEach((n, i) => (n.position = [i * 200, 0]));
	const ai = (type) => ({ [type]: [[{ node: 'AI Agent', type, index: 0 }]] });
	return {
		name: `bench B8 agent ${path}`,
		nodes,
		connections: {
			Ask: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': ai('ai_languageModel'),
			...Object.fromEntries(OUTPUTS.map((output) => [toolOf(output).name, ai('ai_tool')])),
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The same operation in a plain workflow: Application Get Many, Limit 20, Simplify on (node version 1.1). */
function plainWorkflow(path, credential) {
	return chain(`bench B8 plain ${path}`, [
		webhookTrigger(path),
		workflowNode('Recruiting', RECRUITING, 1.1, { resource: 'application', operation: 'getMany', returnAll: false, limit: ITEMS }, { credentials: recruitingCredential(credential) }),
	]);
}

async function benchB8(ctx) {
	const { deploy, postWebhook, waitForWebhook } = require('./setup');
	const { n8n, creds, o } = ctx;
	const log = ctx.log;
	const model = await startScriptedModel();
	try {
		const modelCredential = await createModelCredential(n8n, model.url);
		const tag = crypto.randomBytes(3).toString('hex');
		const paths = { agent: `b8-agent-${tag}`, plain: `b8-plain-${tag}` };
		await deploy(n8n, agentWorkflow(paths.agent, creds.recruiting, modelCredential));
		await deploy(n8n, plainWorkflow(paths.plain, creds.recruiting));
		await waitForWebhook(n8n, paths.agent);
		await waitForWebhook(n8n, paths.plain);

		/** One agent run whose model calls `output`'s tool `calls` times, then answers. */
		let seq = 0;
		const ask = async (output, calls) => {
			// The sequence number first: no id may be the start of another (scriptedModel.js matches by inclusion).
			const id = `b8-${++seq}-${output}-${calls}`;
			model.script(id, {
				steps: Array.from({ length: calls }, () => ({ pick: (t) => t.name === toolNameOf(output), args: () => ({ page: 1 }) })),
				answer: ({ results }) => `${results.length} results`,
			});
			const ms = await postWebhook(n8n, paths.agent, { prompt: `[${id}] list applications` });
			const requests = model.requestsOf(id);
			if (model.problems.length) throw new Error(`B8: the scripted model refused: ${model.problems.join('; ')}`);
			if (!requests.length) {
				const seen = model.requests.slice(-3).map((r) => `${r.conversation}: ${r.user.slice(0, 80)}`);
				throw new Error(`B8 ${id}: the model was not asked (its last requests: ${seen.join(' | ') || 'none'})`);
			}
			const results = requests.at(-1).toolResults;
			if (results.length !== calls) throw new Error(`B8 ${id}: the model received ${results.length} tool results, expected ${calls}`);
			return { ms, bytes: results[0].bytes, items: [].concat(results[0].json).filter((x) => x && x.id).length, modelRequests: requests.length };
		};

		// (a) bytes: identical each time; one run per Output, checked to hold 20 items.
		const bytes = {};
		for (const output of OUTPUTS) {
			const r = await ask(output, 1);
			if (r.items !== ITEMS) throw new Error(`B8 ${output}: ${r.items} items in the tool result, expected ${ITEMS}`);
			bytes[output] = r.bytes;
			log(`B8 ${output}: ${fmt(r.bytes)} bytes for ${r.items} applications`);
		}

		// (b) latency: the variants alternate, the order rotating, after a warm-up round.
		const variants = [
			{ key: 'plain', label: 'Plain workflow: Webhook → Recruiting (Application Get Many, Limit 20, Simplify)', run: () => postWebhook(n8n, paths.plain) },
			{ key: 'agent1', label: 'Agent: Webhook → AI Agent v3, the model calls the tool once (Simplified, 20 items), then answers', run: async () => (await ask('simplified', 1)).ms },
			{ key: `agent${MANY_CALLS}`, label: `Agent: the same, the model calls the tool ${MANY_CALLS} times (one call a turn), then answers`, run: async () => (await ask('simplified', MANY_CALLS)).ms },
		];
		for (const v of variants) await v.run();
		const rounds = Math.max(o.runs * 3, 15);
		const ms = Object.fromEntries(variants.map((v) => [v.key, []]));
		for (let round = 0; round < rounds; round++) {
			const k = round % variants.length;
			for (const v of [...variants.slice(k), ...variants.slice(0, k)]) ms[v.key].push(await v.run());
			model.clear();
		}
		const m = Object.fromEntries(Object.entries(ms).map(([k, list]) => [k, median(list)]));
		log(`B8 latency medians over ${rounds}: plain ${fmt(m.plain, 1)} ms, agent 1 call ${fmt(m.agent1, 1)} ms, ${MANY_CALLS} calls ${fmt(m[`agent${MANY_CALLS}`], 1)} ms`);
		return { items: ITEMS, manyCalls: MANY_CALLS, rounds, bytes, variants: variants.map(({ key, label }) => ({ key, label })), ms };
	} finally {
		await model.close();
	}
}

/** What B8 adds to the targets table, from its medians. */
function b8Targets(b8) {
	const m = Object.fromEntries(Object.entries(b8.ms).map(([k, list]) => [k, median(list)]));
	const many = m[`agent${b8.manyCalls}`];
	const perCall = (many - m.agent1) / (b8.manyCalls - 1);
	return {
		bytesRatio: b8.bytes.simplified / b8.bytes.raw,
		medians: m,
		perCall,
		rows: [
			[`B8: bytes the model receives, Application Get Many ${b8.items} items as a tool, Simplified ÷ Raw`, `${fmt(b8.bytes.simplified / b8.bytes.raw, 3)}× (${fmt(b8.bytes.simplified)} B ÷ ${fmt(b8.bytes.raw)} B)`, '≤ 0.25×', b8.bytes.simplified / b8.bytes.raw <= 0.25 ? '**met**' : '**missed**'],
			[`B8: POST → answer, agent calling the operation once as a tool ÷ plain workflow (medians of ${b8.rounds})`, `${fmt(m.agent1 / m.plain, 2)}× (${fmt(m.agent1, 1)} ms vs ${fmt(m.plain, 1)} ms: +${fmt(m.agent1 - m.plain, 1)} ms)`, '(report)', ''],
			[`B8: each further tool call of the agent ((${b8.manyCalls} calls − 1 call) ÷ ${b8.manyCalls - 1}) ÷ plain workflow`, `${fmt(perCall / m.plain, 2)}× (${fmt(perCall, 1)} ms per call)`, '(report)', ''],
		],
	};
}

/** The B8 section of BENCHMARKS.md. */
function b8Section(b8, table) {
	const m = Object.fromEntries(Object.entries(b8.ms).map(([k, list]) => [k, median(list)]));
	return [
		'## B8 — the node as an AI agent\'s tool',
		'',
		`n8n's AI Agent (v3) with the OpenAI Chat Model (1.2) whose credential's Base URL points at the scripted model (\`scripts/e2e/scriptedModel.js\`, in the bench process; it answers at once), and two Recruiting tools, Application Get Many with Output Simplified and Raw (Results per Page 20, \`page\` from \`$fromAI\`). Bytes: the tool result in the model's next request (${b8.items} applications). Latency: POST → answer of a Webhook (answering when the workflow ends) in front of each; ${b8.rounds} rounds after a warm-up, the variants alternating and the order rotating.`,
		'',
		table(['Output', 'bytes the model receives'], Object.entries(b8.bytes).map(([k, v]) => [k, fmt(v)])),
		'',
		table(['variant', 'POST → answer ms — median', 'all, in run order'], b8.variants.map((v) => [v.label, fmt(m[v.key], 1), b8.ms[v.key].map((x) => fmt(x)).join(', ')])),
		'',
	].join('\n');
}

module.exports = { benchB8, b8Targets, b8Section };
