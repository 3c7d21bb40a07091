'use strict';
/**
 * Workflow JSON builders shared by the real-n8n test suites, the benchmarks, the demo and the
 * screenshot script: one way to write a node, a trigger (alone or before a No Op), a line of
 * nodes, and a reference to our credential.
 */
const crypto = require('crypto');

const PKG = 'n8n-nodes-recruiting';
const RECRUITING = `${PKG}.recruiting`;
const TRIGGER = `${PKG}.recruitingTrigger`;
const POLLING_TRIGGER = `${PKG}.recruitingPollingTrigger`;

/** Any node; `extra` adds or overrides fields (credentials, webhookId, onError, position…). */
function workflowNode(name, type, typeVersion, parameters = {}, extra = {}) {
	return { id: crypto.randomUUID(), name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

/** `{ recruitingApi: { id, name } }` of a credential created through the public API. */
function recruitingCredential(credential) {
	return { recruitingApi: { id: credential.id, name: credential.name } };
}

function manualTrigger(name = 'Manual Trigger') {
	return workflowNode(name, 'n8n-nodes-base.manualTrigger', 1);
}

/** n8n's Webhook node (POST); `lastNode` answers when the workflow ends, with no data. */
function webhookTrigger(path, { name = 'Start', responseMode = 'lastNode' } = {}) {
	return workflowNode(
		name,
		'n8n-nodes-base.webhook',
		2,
		{
			httpMethod: 'POST',
			path,
			responseMode,
			...(responseMode === 'lastNode' ? { responseData: 'noData' } : {}),
			options: {},
		},
		{ webhookId: crypto.randomUUID() },
	);
}

function recruitingNode(name, parameters, credential, extra = {}) {
	return workflowNode(name, RECRUITING, 1, parameters, { credentials: recruitingCredential(credential), ...extra });
}

/** The Recruiting Trigger with a fixed n8n webhookId, so its production URL is known. */
function recruitingTrigger(credential, parameters, nodeWebhookId = crypto.randomUUID(), name = 'Recruiting Trigger') {
	return workflowNode(name, TRIGGER, 1, { options: {}, ...parameters }, {
		credentials: recruitingCredential(credential),
		webhookId: nodeWebhookId,
	});
}

/** The Recruiting Polling Trigger, polling every minute (n8n's shortest interval). */
function recruitingPollingTrigger(credential, parameters, name = 'Recruiting Polling Trigger') {
	return workflowNode(
		name,
		POLLING_TRIGGER,
		1,
		{ pollTimes: { item: [{ mode: 'everyMinute' }] }, options: {}, ...parameters },
		{ credentials: recruitingCredential(credential) },
	);
}

function connect(from, toNodes) {
	return { main: [toNodes.map((to) => ({ node: to.name, type: 'main', index: 0 }))] };
}

/** A workflow whose nodes run one after another, laid out left to right. */
function chain(name, nodes, extra = {}) {
	const connections = {};
	for (let i = 0; i + 1 < nodes.length; i++) connections[nodes[i].name] = connect(nodes[i], [nodes[i + 1]]);
	nodes.forEach((n, i) => (n.position = [i * 220, 0]));
	return { name, nodes, connections, settings: { executionOrder: 'v1' }, ...extra };
}

/** A workflow where `first` feeds every other node at once (laid out top to bottom). */
function fanOut(name, first, others) {
	others.forEach((n, i) => (n.position = [300, i * 120]));
	return {
		name,
		nodes: [first, ...others],
		connections: { [first.name]: connect(first, others) },
		settings: { executionOrder: 'v1' },
	};
}

/** Recruiting Trigger (fixed n8n webhookId, so its production URL is known) -> No Op. */
function triggerWorkflow(credential, { webhookId = 'wh_demo', events, nodeWebhookId = crypto.randomUUID(), name = 'E2E: Recruiting Trigger', options = {} } = {}) {
	return {
		workflow: chain(name, [
			recruitingTrigger(credential, { webhookId, events, options }, nodeWebhookId),
			workflowNode('Received', 'n8n-nodes-base.noOp', 1),
		]),
		nodeWebhookId,
		/** n8n's production URL of the trigger (the node's webhook path is `webhook`). */
		productionUrl: (webhookBase) => `${webhookBase.replace(/\/$/, '')}/webhook/${nodeWebhookId}/webhook`,
	};
}

/**
 * "Go on once per value" without a race: a Postgres node INSERTs `value` into `table`'s primary-key
 * `column` (ON CONFLICT DO NOTHING RETURNING it), and an If node lets through only an INSERT that
 * returned a row (docs/triggers.md, Duplicates). Its true output carries `{ [column]: value }`.
 */
function claimOnce({ table, column, value, postgresCredential, name = 'Claim' }) {
	const claim = workflowNode(
		name,
		'n8n-nodes-base.postgres',
		2.6,
		{
			operation: 'executeQuery',
			query: `INSERT INTO ${table} (${column}) VALUES ($1) ON CONFLICT (${column}) DO NOTHING RETURNING ${column}`,
			options: { queryReplacement: value },
		},
		{ credentials: { postgres: { id: postgresCredential.id, name: postgresCredential.name } } },
	);
	const fresh = workflowNode('First time?', 'n8n-nodes-base.if', 2.2, {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
			conditions: [
				{
					id: crypto.randomUUID(),
					leftValue: `={{ $json.${column} }}`,
					rightValue: '',
					operator: { type: 'string', operation: 'exists', singleValue: true },
				},
			],
			combinator: 'and',
		},
		options: {},
	});
	return { claim, fresh };
}

module.exports = {
	claimOnce,
	PKG,
	RECRUITING,
	TRIGGER,
	workflowNode,
	recruitingCredential,
	manualTrigger,
	webhookTrigger,
	recruitingNode,
	recruitingTrigger,
	recruitingPollingTrigger,
	POLLING_TRIGGER,
	chain,
	fanOut,
	triggerWorkflow,
};
