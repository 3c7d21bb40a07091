'use strict';
/**
 * Workflow JSON for the end-to-end suite: one workflow running every operation of the Recruiting
 * node once (each node fed by the Manual Trigger) and an error workflow.
 * Targets are picked from the sandbox's deterministic seed so each node touches its own records.
 */
const { PKG, RECRUITING, TRIGGER, manualTrigger, recruitingNode, chain, fanOut } = require('../../../scripts/n8n/workflow');
const MISSING_JOB_ID = 'job_e2e_missing';

const rl = (value) => ({ __rl: true, mode: 'id', value });
/** A value chosen in a picker's *From list* mode, as the editor stores it. */
const picked = (value, cachedResultName) => ({ __rl: true, mode: 'list', value, cachedResultName });
/** A user as the user pickers list them. */
const userLabel = (u) => `${u.first_name} ${u.last_name} <${u.email}>`;

/** The application the service lists first (it lists them by applied_at, then id): found with one lookup request. */
function listedFirst(applications) {
	const key = (a) => [Date.parse(a.applied_at) || 0, a.id];
	return [...applications].sort((a, b) => {
		const [x, y] = [key(a), key(b)];
		return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
	})[0];
}

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
	// Remove Tag: a candidate with two tags or more whose first tag's name is unique among the tags.
	const untagCandidate = candidates.find(
		(c, i) => i > 20 && (c.tags || []).length >= 2 && tags.filter((t) => t.name === c.tags[0].name).length === 1,
	);
	const feedback = v('feedback')[0];
	const users = v('users');
	const form = v('applicationForms')[0];
	return {
		users,
		noteApplication: apps[30],
		applicationToGet: listedFirst(apps),
		sourceApplication: apps[41],
		completeApplication: apps[42],
		completeForm: form,
		completeQuestion: form.questions.find((q) => q.required),
		formToDelete: v('applicationForms')[1],
		tagCandidate,
		newTag,
		untagCandidate,
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
			feedback: v('feedback').length,
		},
	};
}

/** [resource, operation, node name, parameters]: one row per operation of the node (26). */
function operationRows(t, userId) {
	const [maeve, tomas, priya, jonas] = t.users;
	return [
		['application', 'getMany', 'Application: Get Many (Return All)', { returnAll: true }],
		[
			'application',
			'get',
			'Application: Get (picked, candidate found)',
			{ applicationId: picked(t.applicationToGet.id, `${t.applicationToGet.candidate.full_name} — ${t.applicationToGet.job.title}`) },
		],
		[
			'application',
			'updateSource',
			'Application: Update Source',
			{
				applicationId: rl(t.sourceApplication.id),
				candidateId: rl(t.sourceApplication.candidate.id),
				updateFields: { origin: 'referred', source: 'Employee referral (e2e)', user: picked(jonas.id, userLabel(jonas)) },
			},
		],
		['applicationForm', 'delete', 'Application Form: Delete', { formId: t.formToDelete.id }],
		['candidate', 'addTag', 'Candidate: Add Tag', { candidateId: t.tagCandidate.id, tagId: rl(t.newTag.id) }],
		['candidate', 'get', 'Candidate: Get', { candidateId: t.getCandidate.id }],
		[
			'candidate',
			'removeTag',
			'Candidate: Remove Tag (by name)',
			{ candidateId: t.untagCandidate.id, tagId: { __rl: true, mode: 'name', value: t.untagCandidate.tags[0].name } },
		],
		[
			'candidate',
			'update',
			'Candidate: Update',
			{ candidateId: t.updateCandidate.id, updateFields: { company: 'Initrode (e2e)', firstName: 'Updated' } },
		],
		[
			'candidateNote',
			'create',
			'Candidate Note: Create (with a mention)',
			{
				candidateId: rl(t.noteApplication.candidate.id),
				text: 'AI screening (e2e): strong match.',
				additionalFields: { applicationId: rl(t.noteApplication.id), mentionedUsers: [tomas.id] },
			},
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
			'complete',
			'Feedback: Complete',
			{
				applicationId: rl(t.completeApplication.id),
				formId: t.completeForm.id,
				answers: { answer: [{ questionId: t.completeQuestion.id, text: 'Keen on the mission (e2e).' }] },
			},
		],
		// Only pending: the feedback Complete adds (in whichever order the two run) is complete.
		['feedback', 'getMany', 'Feedback: Get Many (pending)', { returnAll: true, filters: { status: 'pending' } }],
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
				additionalFields: {
					title: 'E2E interview',
					meetingUrl: 'https://meet.example.com/e2e',
					organizerId: picked(maeve.id, userLabel(maeve)),
				},
			},
		],
		[
			'job',
			'create',
			'Job: Create',
			{
				title: 'E2E Platform Engineer',
				additionalFields: {
					description: '<p>Created by the e2e suite.</p>',
					ownerId: picked(priya.id, userLabel(priya)),
					assignedTeam: { team: { assignedUsers: [priya.id, jonas.id], recruiterIds: [priya.id] } },
				},
			},
		],
		['job', 'delete', 'Job: Delete', { jobId: t.jobToDelete.id }],
		['job', 'get', 'Job: Get', { jobId: t.jobToGet.id }],
		['jobNote', 'getMany', 'Job Note: Get Many', { jobId: t.jobWithNotes.id, returnAll: true }],
		['tag', 'getMany', 'Tag: Get Many', { returnAll: true }],
		['user', 'get', 'User: Get', { userId: rl(priya.id) }],
		['user', 'getMany', 'User: Get Many', { returnAll: true }],
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

/** Manual Trigger fanning out to one node per operation, plus a continue-on-fail node. */
function operationsWorkflow(rows, credential) {
	const nodes = rows.map(([resource, operation, name, params]) =>
		recruitingNode(name, { resource, operation, ...params }, credential),
	);
	nodes.push(
		recruitingNode(
			'Job: Get (unknown id, continue on fail)',
			{ resource: 'job', operation: 'get', jobId: MISSING_JOB_ID },
			credential,
			{ onError: 'continueRegularOutput' },
		),
	);
	return fanOut('E2E: every Recruiting operation', manualTrigger(), nodes);
}

function errorWorkflow(credential) {
	return chain('E2E: unknown job id fails', [
		manualTrigger(),
		recruitingNode('Job: Get (unknown id)', { resource: 'job', operation: 'get', jobId: MISSING_JOB_ID }, credential),
	]);
}

module.exports = {
	picked,
	userLabel,
	PKG,
	RECRUITING,
	TRIGGER,
	MISSING_JOB_ID,
	pickTargets,
	operationRows,
	operationsWorkflow,
	errorWorkflow,
};
