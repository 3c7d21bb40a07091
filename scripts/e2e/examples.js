'use strict';
/**
 * The example workflows in examples/*.json and how they are wired to a running n8n + sandbox:
 * used by the demo (scripts/demo.js) and the e2e suite, so what the demo imports is what is tested.
 *
 * The JSON files reference the credential as { id: 'REPLACE_WITH_CREDENTIAL_ID', name: 'Recruiting
 * sandbox' } and the chat URL as a Slack-style placeholder; fillExample() puts in the real values.
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const DIR = path.resolve(__dirname, '..', '..', 'examples');

const EXAMPLES = {
	chat: 'new-application-to-chat.json',
	chatPolling: 'new-application-to-chat-polling.json',
	hired: 'candidate-hired.json',
	export: 'nightly-applications-export.json',
	inbox: 'demo-chat-inbox.json',
	assistant: 'recruiting-assistant.json',
	safetyNet: 'instant-with-safety-net.json',
};

/** What the examples need in the sandbox beyond its seed: a "Hired" tag and three webhooks. */
const HIRED_TAG = { id: 'tag_hired', name: 'Hired', color: '#16a34a', type: 'candidate', status: 'active' };

/** A webhook as created in the service's dashboard, enabled. */
function dashboardWebhook(id, name, description, events) {
	return {
		id,
		name,
		version: 1,
		endpoint: `https://hooks.example.invalid/${id.slice('wh_'.length)}`,
		description,
		// Deterministic, so a restarted sandbox signs with the same key.
		signing_key: `whsec_${crypto.createHash('sha256').update(id).digest().subarray(0, 24).toString('base64')}`,
		status: 'enabled',
		source: 'dashboard',
		subscribed_events: events,
	};
}

const hiresWebhook = () =>
	dashboardWebhook('wh_hires', 'Hires webhook', 'Created in the dashboard for the "candidate hired" automation.', ['application.stage.updated']);

/**
 * The table where the safety-net example claims each event's key (the first INSERT of a key wins):
 * its database, name, key and other columns, and the SQL that makes it.
 */
const EVENTS_TABLE = {
	database: 'recruiting_events',
	table: 'recruiting_events',
	column: 'event_key',
	create: 'CREATE TABLE recruiting_events (event_key text PRIMARY KEY, message text, received_at timestamptz NOT NULL DEFAULT now())',
};

/** The safety-net example's webhook (one webhook points at one workflow): the events both triggers see. */
const SAFETY_NET_WEBHOOK_ID = 'wh_safety_net';

const safetyNetWebhook = () =>
	dashboardWebhook(SAFETY_NET_WEBHOOK_ID, 'Every event once', 'Created in the dashboard for the "instant, with a safety net" workflow.', [
		'application.created',
		'application.stage.updated',
		'feedback.submitted',
	]);

/**
 * The demo's free webhook: enabled, and held by no example, so a newcomer can click "Listen for
 * test event" on a Recruiting Trigger with it and send it `npm start -- deliver … --webhook wh_try`.
 */
const TRY_WEBHOOK_ID = 'wh_try';

const tryWebhook = () =>
	dashboardWebhook(TRY_WEBHOOK_ID, 'Try the trigger', 'Free for trying the Recruiting Trigger: no example workflow uses it.', ['application.created']);

/** Adds the examples' records to a sandbox through its control API (idempotent). */
async function seedExampleRecords(control) {
	await control.put('tags', HIRED_TAG);
	await control.put('webhooks', hiresWebhook());
	await control.put('webhooks', tryWebhook());
	await control.put('webhooks', safetyNetWebhook());
}

function readExample(key) {
	return JSON.parse(fs.readFileSync(path.join(DIR, EXAMPLES[key]), 'utf8'));
}

const CHAT_TRIGGER = '@n8n/n8n-nodes-langchain.chatTrigger';

/**
 * A copy of an example with the credentials and the chat URL filled in. `active` and other
 * read-only fields are left out so the result can be POSTed/PUT to the public API as it is.
 * `publicChat`: the assistant's Chat Trigger answers on its production URL (the demo's and the
 * e2e's choice; the file keeps n8n's default, the editor's chat only, since it has no login).
 */
function fillExample(key, { credential, chatUrl, modelCredential, eventsCredential, publicChat = false, jobId } = {}) {
	const wf = readExample(key);
	// The safety net's stage changes follow a job of the account (the file has a placeholder).
	if (jobId) fillJobId(wf, jobId);
	for (const node of wf.nodes) {
		if (node.credentials?.recruitingApi && credential) {
			node.credentials.recruitingApi = { id: credential.id, name: credential.name };
		}
		if (node.credentials?.postgres && eventsCredential) {
			node.credentials.postgres = { id: eventsCredential.id, name: eventsCredential.name };
		}
		if (node.credentials?.openAiApi && modelCredential) {
			node.credentials.openAiApi = { id: modelCredential.id, name: modelCredential.name };
		}
		if (chatUrl && node.type === 'n8n-nodes-base.httpRequest' && node.name === 'Post to chat') {
			node.parameters.url = chatUrl;
		}
		if (publicChat && node.type === CHAT_TRIGGER) {
			node.parameters = { ...node.parameters, public: true, mode: 'hostedChat', authentication: 'none' };
		}
	}
	return { name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings };
}

function fillJobId(wf, jobId) {
	for (const node of wf.nodes) {
		for (const row of node.parameters.jobIds?.jobs ?? []) if (row.job?.value === 'REPLACE_WITH_JOB_ID') row.job.value = jobId;
	}
}

/** The production URL of an example's webhook/trigger node (its fixed webhookId and path). */
function webhookUrlOf(wf, webhookBase) {
	const node = wf.nodes.find((n) => n.webhookId);
	const suffix = node.type === 'n8n-nodes-base.webhook' ? node.parameters.path : `${node.webhookId}/webhook`;
	return `${webhookBase.replace(/\/$/, '')}/webhook/${suffix}`;
}

/** The production chat URL of a Chat Trigger (the hosted page on GET, messages on POST). */
function chatUrlOf(wf, webhookBase) {
	const node = wf.nodes.find((n) => n.type === CHAT_TRIGGER);
	return `${webhookBase.replace(/\/$/, '')}/webhook/${node.webhookId}/chat`;
}

/** An application as Simplify (node version 1.1) outputs it: what the e2e checks compare against. */
function simplifiedApplication(app) {
	return {
		id: app.id,
		applied_at: app.applied_at,
		candidate_id: app.candidate.id,
		candidate_name: app.candidate.full_name,
		candidate_email: app.candidate.email,
		candidate_phone: app.candidate.phone_number,
		candidate_tags: (app.candidate.tags || []).map((t) => t.name).join(', '),
		job_id: app.job.id,
		job_title: app.job.title,
		stage: app.stage.custom_stage.name,
		parent_stage: app.stage.parent_stage,
		source: app.source.source,
		potential_duplicate: app.potential_duplicate,
	};
}

/** A candidate as Simplify (node version 1.1) outputs it. */
function simplifiedCandidate(c) {
	const value = (v) => (['string', 'number', 'boolean'].includes(typeof v) ? v : null);
	return {
		id: c.id,
		full_name: value(c.full_name),
		first_name: value(c.first_name),
		last_name: value(c.last_name),
		email: value(c.email),
		phone_number: value(c.phone_number),
		title: value(c.title),
		company: value(c.company),
		address: value(c.location?.address),
		country: value(c.location?.country?.name),
		rating: value(c.rating),
		tags: (c.tags || []).map((t) => t.name).join(', '),
		application_ids: c.application_ids || [],
	};
}

/** The ten fields, id first, of a record an AI tool hands a model by default (Output: Simplified). */
const TOOL_FIELDS = {
	application: ['id', 'applied_at', 'candidate_id', 'candidate_name', 'candidate_email', 'job_id', 'job_title', 'stage', 'parent_stage', 'source'],
	candidate: ['id', 'full_name', 'email', 'phone_number', 'title', 'company', 'country', 'rating', 'tags', 'application_ids'],
};
const pick = (record, fields) => Object.fromEntries(fields.map((f) => [f, record[f]]));
/** An application as a Recruiting tool hands it to a model (Output: Simplified). */
const toolApplication = (app) => pick(simplifiedApplication(app), TOOL_FIELDS.application);
/** A candidate as a Recruiting tool hands it to a model (Output: Simplified). */
const toolCandidate = (c) => pick(simplifiedCandidate(c), TOOL_FIELDS.candidate);

module.exports = {
	EXAMPLES,
	HIRED_TAG,
	TRY_WEBHOOK_ID,
	SAFETY_NET_WEBHOOK_ID,
	EVENTS_TABLE,
	hiresWebhook,
	tryWebhook,
	seedExampleRecords,
	readExample,
	fillExample,
	webhookUrlOf,
	chatUrlOf,
	simplifiedApplication,
	simplifiedCandidate,
	toolApplication,
	toolCandidate,
	DIR,
};
