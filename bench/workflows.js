'use strict';
/**
 * Workflow JSON for the benchmarks. Every workflow starts with a Webhook node whose answer
 * waits for the last node (responseMode lastNode, no data), so one POST = one execution of the
 * running `n8n start`, and the same trigger overhead is in every variant.
 */
const { RECRUITING, TRIGGER, workflowNode: node, recruitingCredential, webhookTrigger, chain } = require('../scripts/n8n/workflow');

const webhookNode = (path, options) => webhookTrigger(path, options);
const headerCred = (cred) => ({ httpHeaderAuth: { id: cred.id, name: cred.name } });

/** B1, ours: Application → Get Many, Return All. */
/** `typeVersion` 1: the full resource per item; 1.1: Simplify (on by default) gives flat items. */
function b1Ours(path, cred, extraOptions, typeVersion = 1) {
	return chain(`bench B1 ours ${path}`, [
		webhookNode(path),
		node(
			'Recruiting',
			RECRUITING,
			typeVersion,
			{ resource: 'application', operation: 'getMany', returnAll: true, ...(extraOptions || {}) },
			{ credentials: recruitingCredential(cred) },
		),
	]);
}

/**
 * B1, HTTP Request node: pagination over the envelope ("response contains next URL", or with
 * `byPage` a page query parameter, for a front whose address the service's links do not name),
 * then Split Out items.
 */
function b1Http(path, headerCredential, apiBase, byPage) {
	const next = byPage
		? { paginationMode: 'updateAParameterInEachRequest', parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] } }
		: { paginationMode: 'responseContainsNextURL', nextURL: '={{ $response.body.links.next }}' };
	return chain(`bench B1 http ${path}`, [
		webhookNode(path),
		node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			4.2,
			{
				method: 'GET',
				url: `${apiBase}/applications`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'page_size', value: '100' }] },
				options: {
					pagination: {
						pagination: {
							...next,
							paginationCompleteWhen: 'other',
							completeExpression: '={{ !$response.body.meta.has_next_page }}',
							limitPagesFetched: false,
							requestInterval: 0,
						},
					},
				},
			},
			{ credentials: headerCred(headerCredential) },
		),
		node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'items', include: 'noOtherFields', options: {} }),
	]);
}

/** The POST body {ids: [...]} → one item per id ({id}). Shared by both B2 variants. */
function idsToItems() {
	return node('Items', 'n8n-nodes-base.splitOut', 1, {
		fieldToSplitOut: 'body.ids',
		include: 'noOtherFields',
		options: { destinationFieldName: 'id' },
	});
}

/** B2, ours: Candidate → Get per item. */
function b2Ours(path, cred, extraParameters) {
	return chain(`bench B2 ours ${path}`, [
		webhookNode(path),
		idsToItems(),
		node(
			'Recruiting',
			RECRUITING,
			1,
			{ resource: 'candidate', operation: 'get', candidateId: '={{ $json.id }}', ...(extraParameters || {}) },
			{ credentials: recruitingCredential(cred) },
		),
	]);
}

/** B2, HTTP Request node: GET /candidates/{id} per item. */
function b2Http(path, headerCredential, apiBase) {
	return chain(`bench B2 http ${path}`, [
		webhookNode(path),
		idsToItems(),
		node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			4.2,
			{
				method: 'GET',
				url: `=${apiBase}/candidates/{{ encodeURIComponent($json.id) }}`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				options: {},
			},
			{ credentials: headerCred(headerCredential) },
		),
	]);
}

/** B4, ours: the Recruiting Trigger alone (fixed webhookId, so the URL is known). */
function b4Trigger(webhookUuid, cred, remoteWebhookId, events) {
	return chain('bench B4 trigger', [
		node(
			'Recruiting Trigger',
			TRIGGER,
			1,
			{ webhookId: remoteWebhookId, events, options: {} },
			{ credentials: recruitingCredential(cred), webhookId: webhookUuid },
		),
	]);
}

/** B4, n8n's Webhook node alone, answering on receipt like our trigger; with `headerCredential`, it checks that header. */
function b4Webhook(path, headerCredential) {
	const start = webhookNode(path, { responseMode: 'onReceived' });
	if (headerCredential) {
		start.parameters.authentication = 'headerAuth';
		start.credentials = headerCred(headerCredential);
	}
	return chain(`bench B4 webhook${headerCredential ? ' (header auth)' : ''}`, [start]);
}

module.exports = { b1Ours, b1Http, b2Ours, b2Http, b4Trigger, b4Webhook };
