/**
 * What happens in the service while n8n runs, for the polling trigger's tests and the demo: a
 * candidate applies, an application moves to another stage, a note is added to a job, a reviewer
 * completes feedback. Each is stored as the service would show it at once (the polling trigger
 * finds it at its next poll); the control routes that call these send the webhook event the service
 * would (control.ts). `npm start -- apply|move|note|feedback` (scripts/demo.js) call them through
 * the control API.
 */
import { completedFeedback } from './api';
import type { Answer, Application, Candidate, Feedback, Job, Note } from './resources';
import { notFound, validationProblem } from './problems';
import type { Store } from './store';

export interface ApplyInput {
	jobId?: string;
	appliedAt?: string;
}

/** A new candidate applies to a job (the first job by default): both records, stage `new`. */
export function apply(store: Store, input: ApplyInput): Application {
	const job = jobOf(store, input.jobId, 'apply to');
	const template = store.values('applications').find((a) => a.stage?.parent_stage === 'new') ?? store.values('applications')[0];
	if (!template) throw validationProblem({ jobId: ['The sandbox has no application to model the new one on.'] });
	const number = store.count('candidates') + 1;
	const candidateId = store.newId('candidates', 'can');
	const id = store.newId('applications', 'app');
	const candidate: Candidate = {
		...template.candidate,
		id: candidateId,
		first_name: 'Applicant',
		last_name: String(number),
		full_name: `Applicant ${number}`,
		email: `applicant${number}@example.com`,
		tags: [],
		application_ids: [id],
	};
	const application: Application = {
		...template,
		id,
		candidate,
		applied_at: input.appliedAt ?? new Date().toISOString(),
		job: { id: job.id, title: job.title },
		stage: { ...template.stage, parent_stage: 'new' },
		interviews: [],
		feedback: [],
	};
	store.put('candidates', candidate);
	store.put('applications', application);
	return application;
}

/** The application moves to a parent stage (its custom stage: one the sandbox uses for it, if any). */
export function moveStage(store: Store, applicationId: string, parentStage: string): Application {
	const application = store.get('applications', applicationId);
	if (!application) throw notFound('Application', applicationId);
	const custom = store.values('applications').find((a) => a.stage?.parent_stage === parentStage)?.stage.custom_stage;
	const moved: Application = { ...application, stage: { parent_stage: parentStage, custom_stage: custom ?? application.stage.custom_stage } };
	store.put('applications', moved);
	return moved;
}

/** The parent stages an application goes through, in order (`rejected` ends it on the way). */
const STAGE_ORDER = ['new', 'screening', 'interviewing', 'offered', 'hired'];

/**
 * An application of the job (the first job by default) moves one stage on: the one furthest back
 * of those neither hired nor rejected (the first stored of them), so repeated moves bring the
 * job's applications forward from the back.
 */
export function advance(store: Store, input: { jobId?: string }): Application {
	const job = jobOf(store, input.jobId, 'move an application in');
	const step = (a: Application): number => STAGE_ORDER.indexOf(a.stage?.parent_stage);
	const movable = store.values('applications').filter((a) => a.job?.id === job.id && step(a) >= 0 && step(a) < STAGE_ORDER.length - 1);
	if (!movable.length) throw validationProblem({ jobId: [`Job '${job.id}' has no application left to move (every one is hired or rejected).`] });
	const furthestBack = Math.min(...movable.map(step));
	const application = movable.find((a) => step(a) === furthestBack)!;
	return moveStage(store, application.id, STAGE_ORDER[furthestBack + 1]);
}

/**
 * A reviewer completes a feedback form now for the application (the first application by
 * default), as POST /feedback does: the first form, its required questions answered.
 */
export function completeFeedback(store: Store, input: { applicationId?: string }): Feedback {
	const application = input.applicationId === undefined ? store.values('applications')[0] : store.get('applications', input.applicationId);
	if (!application) {
		throw input.applicationId === undefined
			? validationProblem({ applicationId: ['The sandbox has no application to give feedback on.'] })
			: notFound('Application', input.applicationId);
	}
	const form = store.values('applicationForms')[0];
	if (!form) throw validationProblem({ applicationId: ['The sandbox has no feedback form to complete.'] });
	const answers = new Map<string, Answer>(
		form.questions.filter((q) => q.required).map((q) => [q.id, { question_id: q.id, text: 'Completed in the sandbox.' }]),
	);
	const feedback = completedFeedback(store, application, form, answers);
	store.put('feedback', feedback);
	return store.view('feedback', feedback);
}

/** The job asked for, or the first job; a problem naming what was to be done when there is none. */
function jobOf(store: Store, jobId: string | undefined, toDo: string): Job {
	const job = jobId === undefined ? store.values('jobs')[0] : store.get('jobs', jobId);
	if (!job) throw jobId === undefined ? validationProblem({ jobId: [`The sandbox has no job to ${toDo}.`] }) : notFound('Job', jobId);
	return job;
}

/** A note is added to a job now. */
export function addJobNote(store: Store, jobId: string, text: string): Note {
	if (!store.get('jobs', jobId)) throw notFound('Job', jobId);
	const note = {
		id: store.newId('jobNotes', 'note'),
		job_id: jobId,
		date_created: new Date().toISOString(),
		text,
		creator: { name: 'Sandbox', user_id: '', guest_id: '', recruiter: '' },
		files: [],
		mentioned_users: [],
		restricted: false,
	};
	store.put('jobNotes', note);
	return store.view('jobNotes', note as Note);
}
