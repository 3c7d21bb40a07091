/**
 * What happens in the service while n8n runs, for the polling trigger's tests and the demo: a
 * candidate applies, an application moves to another stage, a note is added to a job. Each is
 * stored as the service would show it at once (the polling trigger finds it at its next poll); no
 * webhook delivery is sent (the webhook trigger's tests send their own).
 */
import type { Application, Candidate, Note } from './resources';
import { notFound, validationProblem } from './problems';
import type { Store } from './store';

export interface ApplyInput {
	jobId?: string;
	appliedAt?: string;
}

/** A new candidate applies to a job (the first job by default): both records, stage `new`. */
export function apply(store: Store, input: ApplyInput): Application {
	const jobs = store.values('jobs');
	const job = input.jobId === undefined ? jobs[0] : store.get('jobs', input.jobId);
	if (!job) throw input.jobId === undefined ? validationProblem({ jobId: ['The sandbox has no job to apply to.'] }) : notFound('Job', input.jobId);
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
