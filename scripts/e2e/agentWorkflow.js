'use strict';
/**
 * Building blocks of a workflow with n8n's AI Agent and Recruiting tools, shared by the e2e agent
 * checks, the demo, the screenshot script and the B8 benchmark: the node versions, a Recruiting
 * tool whose parameters come from `$fromAI(...)`, and the OpenAI credential pointed at a scripted
 * model (scriptedModel.js).
 */
const { PKG, workflowNode, recruitingCredential } = require('../n8n/workflow');

const TOOL_TYPE = `${PKG}.recruitingTool`;
const TOOL_VERSION = 1.1;
/** The AI Agent's typeVersion: 3 is the newest on 1.123.81 and the one before 3.1 on 2.41.1. */
const AGENT_VERSION = 3;
const MODEL_NODE_VERSION = 1.2;
/** A dummy key: the scripted model only checks it arrives. */
const MODEL_API_KEY = 'sk-scripted-e2e';

/** An n8n expression string literal. */
const literal = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** What the editor's "let the model define this parameter" writes, with our own description. */
const fromAi = ({ key, description, type }) => `={{ $fromAI(${literal(key)}, ${literal(description)}, ${literal(type)}) }}`;
const rl = (value, mode = 'id') => ({ __rl: true, mode, value });

/** n8n's tool name for a node name (n8n-workflow's nodeNameToToolName). */
const toolName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

/** A Recruiting tool node for `tool` ({ name, resource, operation, args, parameters(expressions) }). */
function toolNode(tool, credential) {
	const expressions = Object.fromEntries(tool.args.map((a) => [a.key, fromAi(a)]));
	return workflowNode(
		tool.name,
		TOOL_TYPE,
		TOOL_VERSION,
		{ resource: tool.resource, operation: tool.operation, ...tool.parameters(expressions) },
		{ credentials: recruitingCredential(credential) },
	);
}

/** The openAiApi credential for the scripted model (n8n 1.x's public API wants the domain mode too). */
async function createModelCredential(n8n, url, { name = 'Scripted model', apiKey = MODEL_API_KEY } = {}) {
	const body = { name, type: 'openAiApi', data: { apiKey, url, header: false } };
	let r = await n8n.api('POST', '/credentials', body, { raw: true });
	if (r.status === 400 && /allowedDomains|organizationId/.test(JSON.stringify(r.body))) {
		body.data = { ...body.data, organizationId: '', allowedHttpRequestDomains: 'all' };
		r = await n8n.api('POST', '/credentials', body, { raw: true });
	}
	if (r.status >= 400) throw new Error(`POST /api/v1/credentials (openAiApi) -> ${r.status}: ${JSON.stringify(r.body)}`);
	return { id: r.body.id, name: r.body.name };
}

module.exports = {
	AGENT_VERSION,
	MODEL_NODE_VERSION,
	MODEL_API_KEY,
	rl,
	toolName,
	toolNode,
	createModelCredential,
};
