/**
 * Resource shapes, field for field as in recruiting-api.md. The seed is typed against these, so the
 * compiler checks that every field of every resource is populated.
 */

export interface Ref {
	id: string;
	name: string;
}
export interface Coded extends Ref {
	code: string;
}

export interface JobAd {
	id: number;
	created_at: string;
	expires_at: string;
	job_board: string;
	status: string;
	budget: number;
	meta: Array<{ key: string; value: string }>;
}

export interface Job {
	id: string;
	title: string;
	description: string;
	owner_id: string;
	status: string;
	type: string;
	experience: string;
	salary: string;
	job_code: string;
	created_date: string;
	published_date: string | null;
	apply_url: string;
	category: Ref;
	language: Coded;
	location: { city: string; state: Coded; country: Coded; remote: string };
	deadline: { closes_at: string | null; auto_close: boolean };
	assigned_team: { assigned_users: string[]; recruiter_ids: string[] };
	notifications: { new_application_email: string[] };
	application_form: { base_form: Record<string, string>; additional_form_ids: string[] };
	auto_responder: { id: string; email_subject: string; email_body: string };
	tags: Ref[];
	job_ads: JobAd[];
	/** Sandbox-internal (not in API output): the custom pipeline the job's applications go through. */
	custom_pipeline_id?: string;
}

export interface Candidate {
	id: string;
	first_name: string;
	last_name: string;
	full_name: string;
	email: string;
	phone_number: string;
	title: string;
	company: string;
	location: { address: string; country: { name: string; code: string } };
	image_url: string;
	rating: number;
	tags: Ref[];
	application_ids: string[];
	social_profiles: Array<{ type: string; uri: string }>;
}

export interface FileObject {
	id: string;
	type: string;
	size_in_kb: number;
	download_link: string;
	name: string;
	original_name: string;
	content_type: string;
	file_extension: string;
}

export interface NoteShare {
	id: string;
	application_id: string;
	message: string;
	metadata: { expires_at: string; visits: number; expired: boolean; revoked: boolean };
	guest: { id: string; email: string };
	sender: { id: string; first_name: string; last_name: string };
}

export interface Note {
	id: string;
	date_created: string;
	text: string;
	creator: { name: string; user_id: string; guest_id: string; recruiter: string };
	files: FileObject[];
	mentioned_users: string[];
	restricted: boolean;
	/** Candidate notes only. */
	share?: NoteShare;
	/** Sandbox-internal (not in API output): the job a job note belongs to. */
	job_id?: string;
	/** Sandbox-internal (not in API output): the candidate a candidate note belongs to. */
	candidate_id?: string;
}

export interface Attendee {
	id: string;
	application_id: string | null;
	user_id: string | null;
	type: string;
	status: string;
	display_name: string;
	email: string;
}

export interface InterviewMeta {
	note_for_candidate: string;
	note_for_attendees: string;
	attach_resume_to_invite: boolean;
	online_meeting_type: string | null;
	meeting_url: string;
}

export interface Interview {
	id: string;
	candidate_id: string;
	application_id: string;
	job_id: string;
	event: {
		title: string;
		location: string;
		type: string;
		status: string;
		start: string;
		end: string;
		time_zone: string;
		organizer_id: string;
		attendees: Attendee[];
	};
	meta: InterviewMeta;
}

export interface FileInfo {
	name: string;
	original_name: string;
	content_type: string;
	file_extension: string;
}

export interface Application {
	id: string;
	candidate: Candidate;
	applied_at: string;
	job: { id: string; title: string };
	cover_letter: string;
	stage: { parent_stage: string; custom_stage: Ref };
	resume: { id: string; original: FileInfo; pdf: FileInfo };
	source: { origin: string; source: string; contact: Ref; user: Ref; recruiter: Ref };
	interviews: string[];
	feedback: string[];
	potential_duplicate: boolean;
	compliance: {
		gdpr: {
			consent_requests: Array<{ status: string; sent_at: string; expires_at: string }>;
			consent_expires_at: string;
		};
	};
}

export interface Answer {
	question_id: string;
	text?: string;
	ratings?: Array<{ option_id: string; rating: number }>;
	selected_options?: string[];
	selected_option?: string;
}

export interface Question {
	id: string;
	type: string;
	question: string;
	description: string;
	required: boolean;
	restricted: boolean;
	display_order: number;
	options: Array<{ id: string; label: string; description: string }>;
	answer: Answer;
}

export interface Feedback {
	id: string;
	application_id: string;
	form_id: string;
	name: string;
	candidate: Ref;
	creator: Ref;
	reviewer: Ref;
	status: string;
	date_created: string;
	date_complete: string | null;
	questions: Question[];
}

/** Not described by the spec (only deleted through it); the sandbox keeps a plausible shape. */
export interface ApplicationForm {
	id: string;
	name: string;
	questions: Array<{ id: string; type: string; question: string; required: boolean }>;
}

export interface EmailTemplate {
	id: string;
	company_id: string;
	name: string;
	subject: string;
	body: string;
	type_id: string;
	sub_stage_id: string;
	stage: string;
	user_id: string;
	language: { name: string; code: string };
	private: boolean;
	auto_response_default: boolean;
}

export interface Tag {
	id: string;
	name: string;
	color: string;
	type: string;
	status: string;
}

/** A user of the company account (GET /users of the service's full API). */
export interface User {
	id: string;
	first_name: string;
	last_name: string;
	email: string;
	/** Shown as the jobs whose team holds the user, computed when read (a new job counts at once). */
	assigned_job_ids: string[];
	type: string;
	category: Ref;
	permissions: string[];
	reviewer_statuses: Array<{ parent_stage: string; custom_stage: Ref }>;
	linked_user_candidates: Array<{ user_id: string; candidate_id: string; full_name: string; email: string }>;
}

export interface UserCategory {
	id: string;
	name: string;
}

export interface Webhook {
	id: string;
	name: string;
	version: number;
	endpoint: string;
	description: string;
	signing_key: string;
	status: string;
	source: string;
	subscribed_events: string[];
}
