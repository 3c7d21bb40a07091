'use strict';
/**
 * Workflow JSON for the end-to-end suite: one workflow running every operation of the Recruiting
 * node once (each node fed by the Manual Trigger), an error workflow, and a trigger workflow.
 * Targets are picked from the sandbox's deterministic seed so each node touches its own records.
 */
const crypto = require('crypto');

const PKG = 'n8n-nodes-recruiting';
const RECRUITING = `${PKG}.recruiting`;
const TRIGGER = `${PKG}.recruitingTrigger`;
const MISSING_JOB_ID = 'job_e2e_missing';

const rl = (value) => ({ __rl: true, mode: 'id', value });

/** Records each operation works on, from a Store seeded like the sandbox. */
function pickTargets(seeded) {
	const v = (c) => seeded.values(c);
	const candidates = v('candidates');
	const tags = v('tags');
	const jobs = v('jobs');
	const apps = v('applications');
	const note = v('candidateNotes')[5];
	const tagCandidate = candidates[12];
	const newTag = tags.find((t) => !(tagCandidate.tags || []).some((ct) => ct.id === t.id));
	const feedback = v('feedback')[0];
	return {
		formToDelete: v('applicationForms')[1],
		tagCandidate,
		newTag,
		getCandidate: candidates[10],
		updateCandidate: candidates[11],
		note,
		feedback,
		feedbackQuestion: feedback.questions[0],
		interviewToCancel: v('interviews')[1],
		interviewApplication: apps[20],
		jobToGet: jobs[0],
		jobToDelete: jobs[9],
		jobWithNotes: jobs[1],
		jobNotes: v('jobNotes').filter((n) => n.job_id === jobs[1].id),
		webhook: seeded.get('webhooks', 'wh_second'),
		counts: {
			applications: apps.length,
			emailTemplates: v('emailTemplates').length,
			tags: tags.length,
			userCategories: v('userCategories').length,
		},
	};
}

/** [resource, operation, node name, parameters]: one row per operation of the node (18). */
function operationRows(t, userId) {
	return [
		['application', 'getMany', 'Application: Get Many (Return All)', { returnAll: true }],
		['applicationForm', 'delete', 'Application Form: Delete', { formId: t.formToDelete.id }],
		['candidate', 'addTag', 'Candidate: Add Tag', { candidateId: t.tagCandidate.id, tagId: rl(t.newTag.id) }],
		['candidate', 'get', 'Candidate: Get', { candidateId: t.getCandidate.id }],
		[
			'candidate',
			'update',
			'Candidate: Update',
			{ candidateId: t.updateCandidate.id, updateFields: { company: 'Initrode (e2e)', firstName: 'Updated' } },
		],
		[
			'candidateNote',
			'update',
			'Candidate Note: Update',
			{ candidateId: t.note.candidate_id, noteId: t.note.id, updateFields: { text: 'Updated by the e2e suite' } },
		],
		['emailTemplate', 'getMany', 'Email Template: Get Many', { returnAll: true }],
		[
			'feedback',
			'update',
			'Feedback: Update',
			{
				feedbackId: t.feedback.id,
				applicationId: t.feedback.application_id,
				formId: t.feedback.form_id,
				answers: { answer: [{ questionId: t.feedbackQuestion.id, text: 'Strong systems design (e2e).' }] },
			},
		],
		['interview', 'cancel', 'Interview: Cancel', { interviewId: t.interviewToCancel.id }],
		[
			'interview',
			'create',
			'Interview: Create',
			{
				applicationId: rl(t.interviewApplication.id),
				type: 'online',
				start: '2030-03-04T10:00:00',
				end: '2030-03-04T11:00:00',
				timeZone: 'Europe/Dublin',
				attendees: { attendee: [{ type: 'user', userId }, { type: 'candidate' }] },
				additionalFields: { title: 'E2E interview', meetingUrl: 'https://meet.example.com/e2e' },
			},
		],
		[
			'job',
			'create',
			'Job: Create',
			{ title: 'E2E Platform Engineer', additionalFields: { description: '<p>Created by the e2e suite.</p>' } },
		],
		['job', 'delete', 'Job: Delete', { jobId: t.jobToDelete.id }],
		['job', 'get', 'Job: Get', { jobId: t.jobToGet.id }],
		['jobNote', 'getMany', 'Job Note: Get Many', { jobId: t.jobWithNotes.id, returnAll: true }],
		['tag', 'getMany', 'Tag: Get Many', { returnAll: true }],
		['userCategory', 'getMany', 'User Category: Get Many', { returnAll: true }],
		['webhook', 'get', 'Webhook: Get', { webhookId: t.webhook.id }],
		[
			'webhook',
			'update',
			'Webhook: Update',
			{
				webhookId: t.webhook.id,
				updateFields: { description: 'Updated by the e2e suite', events: ['candidate.tag.added', 'job.created'] },
			},
		],
	];
}

function manualTrigger() {
	return {
		id: crypto.randomUUID(),
		name: 'Manual Trigger',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

function recruitingNode(name, parameters, credential, position, extra = {}) {
	return {
		id: crypto.randomUUID(),
		name,
		type: RECRUITING,
		typeVersion: 1,
		position,
		parameters,
		credentials: { recruitingApi: { id: credential.id, name: credential.name } },
		...extra,
	};
}

/** Manual Trigger fanning out to one node per operation, plus a continue-on-fail node. */
function operationsWorkflow(rows, credential) {
	const trigger = manualTrigger();
	const nodes = [trigger];
	rows.forEach(([resource, operation, name, params], i) => {
		nodes.push(recruitingNode(name, { resource, operation, ...params }, credential, [300, i * 120]));
	});
	nodes.push(
		recruitingNode(
			'Job: Get (unknown id, continue on fail)',
			{ resource: 'job', operation: 'get', jobId: MISSING_JOB_ID },
			credential,
			[300, rows.length * 120],
			{ onError: 'continueRegularOutput' },
		),
	);
	return {
		name: 'E2E: every Recruiting operation',
		nodes,
		connections: {
			[trigger.name]: { main: [nodes.slice(1).map((n) => ({ node: n.name, type: 'main', index: 0 }))] },
		},
		settings: { executionOrder: 'v1' },
	};
}

function errorWorkflow(credential) {
	const trigger = manualTrigger();
	const node = recruitingNode('Job: Get (unknown id)', { resource: 'job', operation: 'get', jobId: MISSING_JOB_ID }, credential, [300, 0]);
	return {
		name: 'E2E: unknown job id fails',
		nodes: [trigger, node],
		connections: { [trigger.name]: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** Recruiting Trigger (fixed n8n webhookId, so its production URL is known) -> No Op. */
function triggerWorkflow(credential, { webhookId = 'wh_demo', events, nodeWebhookId = crypto.randomUUID(), name = 'E2E: Recruiting Trigger', options = {} } = {}) {
	const trigger = {
		id: crypto.randomUUID(),
		name: 'Recruiting Trigger',
		type: TRIGGER,
		typeVersion: 1,
		position: [0, 0],
		webhookId: nodeWebhookId,
		parameters: { webhookId, events, options },
		credentials: { recruitingApi: { id: credential.id, name: credential.name } },
	};
	const noop = {
		id: crypto.randomUUID(),
		name: 'Received',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [250, 0],
		parameters: {},
	};
	return {
		workflow: {
			name,
			nodes: [trigger, noop],
			connections: { [trigger.name]: { main: [[{ node: noop.name, type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
		nodeWebhookId,
		/** n8n's production URL of the trigger (the node's webhook path is `webhook`). */
		productionUrl: (webhookBase) => `${webhookBase.replace(/\/$/, '')}/webhook/${nodeWebhookId}/webhook`,
	};
}

module.exports = {
	PKG,
	RECRUITING,
	TRIGGER,
	MISSING_JOB_ID,
	pickTargets,
	operationRows,
	operationsWorkflow,
	errorWorkflow,
	triggerWorkflow,
};
