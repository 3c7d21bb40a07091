/**
 * The deterministic seed. Each record draws from its own PRNG, seeded by its collection and index, so
 * record N of a collection is the same whatever the other sizes are. No clock, no Math.random.
 */
import { validationProblem } from './problems';
import { Rng } from './random';
import type {
	Application,
	ApplicationForm,
	Candidate,
	EmailTemplate,
	Feedback,
	FileObject,
	Interview,
	Job,
	Note,
	Question,
	Ref,
	Tag,
	User,
	UserCategory,
	Webhook,
} from './resources';
import { EXPERIENCE_LEVELS, JOB_STATUSES, JOB_TYPES, PARENT_STAGES, USER_PERMISSIONS, USER_TYPES } from './schemas';
import type { Store } from './store';
import type { SeedSizes } from './types';

export const DEFAULT_SIZES: Required<Omit<SeedSizes, 'candidates'>> = {
	applications: 50,
	jobs: 10,
	tags: 12,
	emailTemplates: 5,
	userCategories: 4,
	jobNotesPerJob: 3,
};

/** The seed's sizes with defaults applied; candidates default to max(50, applications). */
export function resolveSizes(sizes: SeedSizes = {}): Required<SeedSizes> {
	const merged = { ...DEFAULT_SIZES, ...stripUndefined(sizes) };
	const resolved = { ...merged, candidates: sizes.candidates ?? Math.max(50, merged.applications) };
	for (const [key, value] of Object.entries(resolved)) {
		if (!Number.isInteger(value) || value < 0) {
			throw validationProblem({ [key]: [`'${key}' must be an integer of at least 0.`] });
		}
	}
	if (resolved.applications > 0 && (resolved.jobs === 0 || resolved.candidates === 0)) {
		throw validationProblem({ applications: ['Applications need at least one job and one candidate.'] });
	}
	return resolved;
}

const stripUndefined = (o: SeedSizes): SeedSizes =>
	Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The fixed time the seeded data is relative to. */
const EPOCH = Date.UTC(2025, 0, 6, 9, 0, 0);
const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString();
/** Candidate notes are not sized: one each for the first 50 candidates keeps large seeds light. */
const CANDIDATES_WITH_NOTES = 50;

export interface SeedUser {
	id: string;
	first_name: string;
	last_name: string;
	email: string;
}

/** The company's users: the `users` collection (GET /users), and referenced by every other record. */
export const SEED_USERS: readonly SeedUser[] = [
	['usr_q7d2m1x8kp', 'Maeve', 'Brennan'],
	['usr_b4n9c3r6tz', 'Tomás', 'Ó Briain'],
	['usr_h2w8v5e1la', 'Priya', 'Natarajan'],
	['usr_z6f1y7j3sd', 'Jonas', 'Lindqvist'],
	['usr_m9k4t2p8gu', 'Aisha', 'Okafor'],
].map(([id, first_name, last_name]) => ({
	id,
	first_name,
	last_name,
	email: `${first_name.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}@acme-recruiting.example`,
}));

const userRef = (u: SeedUser): Ref => ({ id: u.id, name: `${u.first_name} ${u.last_name}` });

/** The user the sandbox's access token belongs to: the creator of notes and feedback made through the API. */
export const API_USER = SEED_USERS[0];

/** Each seeded user's role: its type, the user category (by index) and its permissions. */
const USER_ROLES: ReadonlyArray<{ type: (typeof USER_TYPES)[number]; category: number; permissions: ReadonlyArray<(typeof USER_PERMISSIONS)[number]> }> = [
	{ type: 'primary_admin', category: 3, permissions: USER_PERMISSIONS },
	{ type: 'admin', category: 0, permissions: USER_PERMISSIONS.filter((p) => p !== 'SETTINGS_BILLING') },
	{ type: 'recruiter', category: 1, permissions: ['MANAGE_JOBS', 'MESSAGE_CANDIDATE', 'EXPORT_REPORTS'] },
	{ type: 'user', category: 0, permissions: ['MANAGE_JOBS', 'JOB_PUBLISH', 'MESSAGE_CANDIDATE'] },
	{ type: 'reviewer', category: 2, permissions: ['RESTRICTED_ACCESS'] },
];

const FIRST_NAMES = ['Aoife', 'Liam', 'Sofia', 'Mateo', 'Chen', 'Amara', 'Noah', 'Zoë', 'Ravi', 'Elena', 'Kwame', 'Ines', 'Oskar', 'Yuki', 'Fatima', 'Lucas', 'Niamh', 'Diego', 'Hana', 'Emeka'];
const LAST_NAMES = ['Murphy', 'García', 'Kowalski', 'Nguyen', 'Okonkwo', 'Schmidt', "O'Neill", 'Rossi', 'Haddad', 'Larsen', 'Dubois', 'Tanaka', 'Silva', 'Brennan', 'Müller', 'Patel'];
const COMPANIES = ['Globex', 'Initech', 'Umbrella Labs', 'Hooli', 'Stark Logistics', 'Wayne Analytics', 'Acme Retail', 'Vandelay Imports'];
const TITLES = ['Backend Engineer', 'Product Designer', 'Data Analyst', 'Account Executive', 'Customer Success Manager', 'DevOps Engineer', 'Marketing Lead', 'QA Engineer', 'Finance Controller', 'Recruiter'];
const PLACES = [
	{ city: 'Dublin', state: ['st_d', 'Leinster', 'L'], country: ['cty_ie', 'Ireland', 'IE'] },
	{ city: 'Cork', state: ['st_m', 'Munster', 'M'], country: ['cty_ie', 'Ireland', 'IE'] },
	{ city: 'Berlin', state: ['st_be', 'Berlin', 'BE'], country: ['cty_de', 'Germany', 'DE'] },
	{ city: 'Austin', state: ['st_tx', 'Texas', 'TX'], country: ['cty_us', 'United States', 'US'] },
	{ city: 'Lisbon', state: ['st_li', 'Lisboa', '11'], country: ['cty_pt', 'Portugal', 'PT'] },
] as const;
const CATEGORIES = ['Engineering', 'Design', 'Sales', 'Operations', 'Finance', 'People'];
const TAG_NAMES = ['Referral', 'Top talent', 'Relocation', 'Remote only', 'Visa needed', 'Silver medallist', 'Graduate', 'Returner', 'Bilingual', 'Leadership', 'Agency', 'Event lead'];
const COLORS = ['#e11d48', '#2563eb', '#16a34a', '#ca8a04', '#9333ea', '#0891b2', '#ea580c', '#4b5563'];
const CATEGORY_NAMES = ['Hiring managers', 'Recruiters', 'Interviewers', 'Administrators', 'Coordinators', 'Executives'];
const SOURCES = ['LinkedIn', 'Indeed', 'Careers page', 'Referral', 'Agency'];

const coded = ([id, name, code]: readonly [string, string, string]) => ({ id, name, code });
const slug = (s: string): string => s.toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '');

/** Everything the seed makes, in the order it is loaded into the store. */
export function seed(store: Store, companyId: string, sizes: SeedSizes = {}): void {
	const size = resolveSizes(sizes);
	const pipelines = [0, 1, 2].map((i) => `pip_${new Rng(`pipelines:${i}`).token()}`);
	const customStages = new Map(
		pipelines.map((p, i) => [
			p,
			new Map(PARENT_STAGES.map((s) => [s, { id: `cst_${new Rng(`stages:${i}:${s}`).token()}`, name: `${s[0].toUpperCase()}${s.slice(1)} (${['Standard', 'Engineering', 'Sales'][i]})` }])),
		]),
	);
	const forms = [0, 1].map(makeForm);
	const tags = range(size.tags, makeTag);
	const jobs = range(size.jobs, (i) => makeJob(i, companyId, pipelines[i % pipelines.length], forms, tags));
	const candidates = range(size.candidates, (i) => makeCandidate(i, tags));
	const applications = range(size.applications, (i) => {
		const rng = new Rng(`applications:${i}`);
		const candidate = candidates[i % candidates.length];
		const job = jobs[rng.int(jobs.length)];
		const app = makeApplication(rng, candidate, job, customStages.get(job.custom_pipeline_id!)!);
		candidate.application_ids.push(app.id);
		return app;
	});
	const interviews = applications.slice(0, 3).map(makeInterview);
	const feedback = applications.slice(0, 3).map((app, i) => makeFeedback(i, app, forms[i % forms.length]));
	const jobNotes = jobs.flatMap((job, j) => range(size.jobNotesPerJob, (k) => ({ ...makeNote(`jobNotes:${j}:${k}`), job_id: job.id })));
	const candidateNotes = candidates.slice(0, CANDIDATES_WITH_NOTES).map((c, i) => makeCandidateNote(i, c));

	store.clear();
	const load = <C extends Parameters<Store['put']>[0]>(c: C, records: readonly object[]) => {
		for (const r of records) store.put(c, r);
	};
	load('applicationForms', forms);
	load('tags', tags);
	load('jobs', jobs);
	load('candidates', candidates);
	load('applications', applications);
	load('interviews', interviews);
	load('feedback', feedback);
	load('jobNotes', jobNotes);
	load('candidateNotes', candidateNotes);
	load('emailTemplates', range(size.emailTemplates, (i) => makeEmailTemplate(i, companyId)));
	const userCategories = range(size.userCategories, makeUserCategory);
	load('userCategories', userCategories);
	load('webhooks', [makeWebhook('wh_demo', 0), makeWebhook('wh_second', 1)]);
	load('users', SEED_USERS.map((u, i) => makeUser(u, i, userCategories, customStages.get(pipelines[0])!, candidates)));
}

const range = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

function makeTag(i: number): Tag {
	const rng = new Rng(`tags:${i}`);
	const base = TAG_NAMES[i % TAG_NAMES.length];
	return {
		id: `tag_${rng.token()}`,
		name: i < TAG_NAMES.length ? base : `${base} ${Math.floor(i / TAG_NAMES.length) + 1}`,
		color: rng.pick(COLORS),
		type: 'candidate',
		status: 'active',
	};
}

const tagRefs = (rng: Rng, tags: readonly Tag[], max: number): Ref[] => {
	const picked = new Map<string, Ref>();
	for (let n = rng.int(max + 1); n > 0 && tags.length > 0; n--) {
		const t = rng.pick(tags);
		picked.set(t.id, { id: t.id, name: t.name });
	}
	return [...picked.values()];
};

function makeForm(i: number): ApplicationForm {
	const rng = new Rng(`applicationForms:${i}`);
	return {
		id: `form_${rng.token()}`,
		name: ['Engineering screening', 'Right to work'][i] ?? `Form ${i + 1}`,
		questions: [
			{ id: `q_${rng.token(8)}`, type: 'textbox', question: 'Why do you want to join us?', required: true },
			{ id: `q_${rng.token(8)}`, type: 'yes_no', question: 'Do you need a visa to work here?', required: false },
		],
	};
}

function makeJob(i: number, companyId: string, pipeline: string, forms: ApplicationForm[], tags: Tag[]): Job {
	const rng = new Rng(`jobs:${i}`);
	const id = `job_${rng.token()}`;
	const title = TITLES[i % TITLES.length];
	const place = rng.pick(PLACES);
	const owner = rng.pick(SEED_USERS);
	const created = EPOCH - rng.between(20, 400) * DAY;
	const status = i === 0 ? 'published' : rng.pick(JOB_STATUSES);
	const category = CATEGORIES[i % CATEGORIES.length];
	return {
		id,
		title: i < TITLES.length ? title : `${title} ${Math.floor(i / TITLES.length) + 1}`,
		description: `<p>We are looking for a ${title} to join our ${category} team in ${place.city}.</p><ul><li>Ship work that matters</li><li>Grow with a kind team</li></ul>`,
		owner_id: owner.id,
		status,
		type: i === 0 ? 'full_time' : rng.pick(JOB_TYPES),
		experience: rng.pick(EXPERIENCE_LEVELS),
		salary: `€${rng.between(40, 90)},000 - €${rng.between(95, 140)},000`,
		job_code: `${category.slice(0, 3).toUpperCase()}-${String(100 + i).padStart(4, '0')}`,
		created_date: iso(created),
		published_date: iso(created + rng.between(0, 5) * DAY),
		apply_url: `https://apply.example.invalid/${encodeURIComponent(companyId)}/jobs/${id}`,
		category: { id: `jcat_${slug(category)}`, name: category },
		language: { id: 'lang_en', name: 'English', code: 'en' },
		location: { city: place.city, state: coded(place.state), country: coded(place.country), remote: 'not_remote' },
		deadline: { closes_at: iso(EPOCH + rng.between(10, 90) * DAY), auto_close: rng.chance(0.5) },
		assigned_team: { assigned_users: [owner.id, rng.pick(SEED_USERS).id], recruiter_ids: [SEED_USERS[2].id] },
		notifications: { new_application_email: [owner.email] },
		application_form: {
			base_form: { current_title: 'optional', current_company: 'optional', location: 'required', phone: 'required', resume: 'required', cover_letter: 'off' },
			additional_form_ids: forms.length ? [forms[i % forms.length].id] : [],
		},
		auto_responder: {
			id: `tmpl_auto${i}`,
			email_subject: `Thanks for applying: ${title}`,
			email_body: `Hi {{candidate.first_name}}, thanks for applying for ${title}. We will be in touch soon.`,
		},
		tags: tagRefs(rng, tags, 2),
		job_ads: [
			{
				id: 10_000 + i,
				created_at: iso(created + DAY),
				expires_at: iso(created + 31 * DAY),
				job_board: 'indeed',
				status: 'unknown',
				budget: rng.between(1, 20) * 50,
				meta: [{ key: 'campaign', value: `spring-${i}` }],
			},
		],
		custom_pipeline_id: pipeline,
	};
}

function makeCandidate(i: number, tags: Tag[]): Candidate {
	const rng = new Rng(`candidates:${i}`);
	const first_name = rng.pick(FIRST_NAMES);
	const last_name = rng.pick(LAST_NAMES);
	const place = rng.pick(PLACES);
	const handle = `${slug(first_name)}.${slug(last_name)}${i}`;
	return {
		id: `can_${rng.token()}`,
		first_name,
		last_name,
		full_name: `${first_name} ${last_name}`,
		email: `${handle}@mail.example`,
		phone_number: `+353 8${rng.between(3, 9)} ${rng.between(100, 999)} ${rng.between(1000, 9999)}`,
		title: rng.pick(TITLES),
		company: rng.pick(COMPANIES),
		location: { address: `${rng.between(1, 200)} Main Street, ${place.city}`, country: { name: place.country[1], code: place.country[2] } },
		image_url: `https://img.example.invalid/avatars/${rng.token(8)}.png`,
		rating: rng.between(1, 5),
		tags: tagRefs(rng, tags, 2),
		application_ids: [],
		social_profiles: [{ type: 'linked_in', uri: `https://www.linkedin.com/in/${handle.replace(/\./g, '-')}` }],
	};
}

const fileInfo = (name: string, ext: string, type: string) => ({
	name: `${name}.${ext}`,
	original_name: `${name}.${ext}`,
	content_type: type,
	file_extension: ext,
});

function makeApplication(rng: Rng, candidate: Candidate, job: Job, stages: Map<string, Ref>): Application {
	const stage = rng.pick(PARENT_STAGES);
	const applied = EPOCH - rng.int(365 * DAY / 1000) * 1000;
	const recruiter = userRef(SEED_USERS[2]);
	const origin = rng.pick(SOURCES);
	const resumeName = `${slug(candidate.full_name)}-cv`;
	return {
		id: `app_${rng.token()}`,
		candidate,
		applied_at: iso(applied),
		job: { id: job.id, title: job.title },
		cover_letter: `Dear hiring team, I would love to bring my experience as ${candidate.title} at ${candidate.company} to the ${job.title} role.`,
		stage: { parent_stage: stage, custom_stage: { ...stages.get(stage)! } },
		resume: {
			id: `res_${rng.token()}`,
			original: fileInfo(resumeName, 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
			pdf: fileInfo(resumeName, 'pdf', 'application/pdf'),
		},
		source: {
			origin: 'added',
			source: origin,
			contact: { id: `con_${rng.token(8)}`, name: `${origin} contact` },
			user: userRef(rng.pick(SEED_USERS)),
			recruiter,
		},
		interviews: [],
		feedback: [],
		potential_duplicate: rng.chance(0.05),
		compliance: {
			gdpr: {
				consent_requests: [{ status: 'pending', sent_at: iso(applied + DAY), expires_at: iso(applied + 31 * DAY) }],
				consent_expires_at: iso(applied + 730 * DAY),
			},
		},
	};
}

function makeInterview(app: Application, i: number): Interview {
	const rng = new Rng(`interviews:${i}`);
	const organizer = SEED_USERS[i % SEED_USERS.length];
	const start = EPOCH + (i - 1) * 7 * DAY + 14 * 3_600_000;
	const type = (['online', 'on_site', 'phone'] as const)[i % 3];
	const interview: Interview = {
		id: `int_${rng.token()}`,
		candidate_id: app.candidate.id,
		application_id: app.id,
		job_id: app.job.id,
		event: {
			title: `${app.job.title} interview with ${app.candidate.full_name}`,
			location: type === 'on_site' ? '1 Grand Canal Square, Dublin 2' : '',
			type,
			status: i === 0 ? 'past' : 'active',
			start: iso(start),
			end: iso(start + 3_600_000),
			time_zone: 'Europe/Dublin',
			organizer_id: organizer.id,
			attendees: [
				{ id: `attd_${rng.token()}`, application_id: app.id, user_id: null, type: 'candidate', status: 'accepted', display_name: app.candidate.full_name, email: app.candidate.email },
				{ id: `attd_${rng.token()}`, application_id: null, user_id: organizer.id, type: 'user', status: 'accepted', display_name: `${organizer.first_name} ${organizer.last_name}`, email: organizer.email },
				{ id: `attd_${rng.token()}`, application_id: null, user_id: null, type: 'guest', status: 'pending', display_name: 'External panelist', email: 'panel@partner.example' },
			],
		},
		meta: {
			note_for_candidate: 'Please bring a photo id.',
			note_for_attendees: 'Focus on system design.',
			attach_resume_to_invite: true,
			online_meeting_type: type === 'online' ? 'teams_for_business' : null,
			meeting_url: type === 'online' ? `https://meet.example.invalid/${rng.token(12)}` : '',
		},
	};
	app.interviews.push(interview.id);
	return interview;
}

function makeFeedback(i: number, app: Application, form: ApplicationForm): Feedback {
	const rng = new Rng(`feedback:${i}`);
	const reviewer = userRef(SEED_USERS[(i + 1) % SEED_USERS.length]);
	const created = Date.parse(app.applied_at) + 3 * DAY;
	const q = (n: number, type: string, question: string, options: string[]): Question => {
		const id = `q_${rng.token(8)}`;
		return {
			id,
			type,
			question,
			description: `Question ${n + 1} of the scorecard.`,
			required: n === 0,
			restricted: false,
			display_order: n + 1,
			options: options.map((label, k) => ({ id: `opt_${id.slice(2)}_${k}`, label, description: `${label} answer` })),
			answer: { question_id: id, text: '', ratings: [], selected_options: [], selected_option: '' },
		};
	};
	const fb: Feedback = {
		id: `fb_${rng.token()}`,
		application_id: app.id,
		form_id: form.id,
		name: `${app.job.title} scorecard`,
		candidate: { id: app.candidate.id, name: app.candidate.full_name },
		creator: userRef(SEED_USERS[0]),
		reviewer,
		status: 'pending',
		date_created: iso(created),
		date_complete: iso(created + DAY),
		questions: [
			q(0, 'textbox', 'Summarise the interview.', []),
			q(1, 'rating', 'Rate the technical skills.', ['Technical skills', 'Communication']),
			q(2, 'multiple_choice', 'Recommendation', ['Strong yes', 'Yes', 'No', 'Strong no']),
		],
	};
	app.feedback.push(fb.id);
	return fb;
}

function makeFile(rng: Rng): FileObject {
	const name = rng.pick(['portfolio', 'references', 'certificate', 'transcript']);
	return {
		id: `file_${rng.token()}`,
		type: 'inbound_email_attachment',
		size_in_kb: rng.between(20, 4000),
		download_link: `https://files.example.invalid/${rng.token(16)}/${name}.pdf`,
		name: `${name}.pdf`,
		original_name: `${name}-final.pdf`,
		content_type: 'application/pdf',
		file_extension: 'pdf',
	};
}

function makeNote(label: string): Note {
	const rng = new Rng(label);
	const author = rng.pick(SEED_USERS);
	return {
		id: `note_${rng.token()}`,
		date_created: iso(EPOCH - rng.int(200 * DAY / 1000) * 1000),
		text: rng.pick(['Great call, strong on fundamentals.', 'Follow up about notice period.', 'Salary expectations above band.', 'Shared with the hiring manager.']),
		creator: { name: `${author.first_name} ${author.last_name}`, user_id: author.id, guest_id: '', recruiter: SEED_USERS[2].id },
		files: [makeFile(rng)],
		mentioned_users: [rng.pick(SEED_USERS).id],
		restricted: rng.chance(0.3),
	};
}

function makeCandidateNote(i: number, candidate: Candidate): Note {
	const note = makeNote(`candidateNotes:${i}`);
	const rng = new Rng(`shares:${i}`);
	const sender = SEED_USERS[i % SEED_USERS.length];
	return {
		...note,
		share: {
			id: `shr_${rng.token()}`,
			application_id: candidate.application_ids[0] ?? '',
			message: `Have a look at ${candidate.full_name}.`,
			metadata: { expires_at: iso(EPOCH + 14 * DAY), visits: rng.int(10), expired: false, revoked: false },
			guest: { id: `gst_${rng.token()}`, email: 'hiring.partner@partner.example' },
			sender: { id: sender.id, first_name: sender.first_name, last_name: sender.last_name },
		},
		candidate_id: candidate.id,
	};
}

function makeEmailTemplate(i: number, companyId: string): EmailTemplate {
	const rng = new Rng(`emailTemplates:${i}`);
	const stage = PARENT_STAGES[i % PARENT_STAGES.length];
	return {
		id: `tmpl_${rng.token()}`,
		company_id: companyId,
		name: `${stage[0].toUpperCase()}${stage.slice(1)} update ${i + 1}`,
		subject: `About your application for {{job.title}}`,
		body: `<p>Hi {{candidate.first_name}},</p><p>Your application has moved to ${stage}.</p>`,
		type_id: 'application_email',
		sub_stage_id: `cst_${rng.token()}`,
		stage,
		user_id: rng.pick(SEED_USERS).id,
		language: { name: 'English', code: 'en' },
		private: rng.chance(0.2),
		auto_response_default: i === 0,
	};
}

function makeUserCategory(i: number): UserCategory {
	const rng = new Rng(`userCategories:${i}`);
	const base = CATEGORY_NAMES[i % CATEGORY_NAMES.length];
	return { id: `ucat_${rng.token()}`, name: i < CATEGORY_NAMES.length ? base : `${base} ${Math.floor(i / CATEGORY_NAMES.length) + 1}` };
}

function makeUser(user: SeedUser, i: number, categories: readonly UserCategory[], stages: Map<string, Ref>, candidates: readonly Candidate[]): User {
	const role = USER_ROLES[i % USER_ROLES.length];
	const category = categories.length ? categories[role.category % categories.length] : { id: '', name: '' };
	const linked = role.type === 'recruiter' ? candidates.slice(0, 1) : [];
	return {
		...user,
		assigned_job_ids: [],
		type: role.type,
		category: { id: category.id, name: category.name },
		permissions: [...role.permissions],
		reviewer_statuses:
			role.type === 'reviewer'
				? (['interviewing', 'offered'] as const).map((parent_stage) => ({ parent_stage, custom_stage: { ...stages.get(parent_stage)! } }))
				: [],
		linked_user_candidates: linked.map((c) => ({ user_id: user.id, candidate_id: c.id, full_name: c.full_name, email: c.email })),
	};
}

function makeWebhook(id: string, i: number): Webhook {
	const rng = new Rng(`webhooks:${id}`);
	const demo = i === 0;
	return {
		id,
		name: demo ? 'Demo webhook' : 'Second webhook',
		version: demo ? 1 : 3,
		endpoint: demo ? 'https://hooks.example.invalid/recruiting' : 'https://hooks.example.invalid/second',
		description: demo ? 'Created in the dashboard for the demo.' : 'A second, disabled webhook.',
		signing_key: `whsec_${rng.bytes(24).toString('base64')}`,
		status: demo ? 'enabled' : 'disabled',
		source: 'dashboard',
		subscribed_events: demo
			? ['job.created', 'job.deleted', 'candidate.updated', 'interview.created', 'interview.cancelled']
			: ['candidate.tag.added', 'feedback.updated'],
	};
}
