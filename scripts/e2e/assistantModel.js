'use strict';
/**
 * The demo's stand-in for a language model: an OpenAI-compatible endpoint (scriptedModel.js) that
 * reads the user's last chat message with a few patterns, calls the Recruiting tools it is offered
 * (chosen by their descriptions and argument schemas, so it follows what the workflow offers) and
 * answers from what the tools returned. It understands:
 *
 *   find applications for job job_… [at <parent stage>] [page N]
 *   show application app_…
 *   tag can_… as <tag name>
 *   schedule an interview for app_… on 2030-05-06 14:00 [Europe/Dublin] [45 min] [with usr_… | with <name>]
 *   who can interview / list users
 *
 * and otherwise says what it can do. It is not a model: no language understanding, no keys, no
 * network. `npm start` runs it for the "Recruiting assistant" example; the e2e suite checks it.
 */
const { startScriptedModel } = require('./scriptedModel');

const PARENT_STAGES = ['rejected', 'new', 'screening', 'interviewing', 'offered', 'hired'];
const DEFAULT_STAGE = 'new';
const DEFAULT_MINUTES = 45;
const DEFAULT_TIME_ZONE = 'UTC';

/** The offered tools it recognises: by what their description says and which arguments they take. */
const argNames = (tool) => Object.keys(tool.parameters?.properties || {});
const hasArg = (tool, pattern) => argNames(tool).some((k) => pattern.test(k));
const TOOL_KINDS = {
	findApplications: (t) => /applications/i.test(t.description) && /search|many|find|list/i.test(t.description) && hasArg(t, /job/i),
	readApplication: (t) => /^get one application|application/i.test(t.description) && /^get/i.test(t.description) && hasArg(t, /application/i) && !hasArg(t, /job/i),
	tagCandidate: (t) => /add a tag/i.test(t.description) && hasArg(t, /candidate/i),
	scheduleInterview: (t) => /schedule an interview/i.test(t.description) && hasArg(t, /application/i),
	listUsers: (t) => /users/i.test(t.description) && /many|list/i.test(t.description),
};

/** Fills each argument the tool declares from the values by the argument's name. */
function argsFor(tool, values) {
	const rules = [
		[/job/i, values.jobId],
		[/stage/i, values.stage],
		[/page/i, values.page],
		[/application/i, values.applicationId],
		[/candidate/i, values.candidateId],
		[/tag/i, values.tagName],
		[/start/i, values.start],
		[/end/i, values.end],
		[/time.?zone|tz/i, values.timeZone],
		[/interviewer|user/i, values.interviewerId],
		[/title/i, values.title],
	];
	const args = {};
	for (const key of argNames(tool)) {
		const rule = rules.find(([pattern, value]) => pattern.test(key) && value !== undefined);
		if (rule) args[key] = tool.parameters.properties[key]?.type === 'number' ? Number(rule[1]) : rule[1];
	}
	return args;
}

/** A tool's result as a list of items ([] when it is not JSON). */
const itemsOf = (result) => (result && result.json != null ? [].concat(result.json) : []);
/** The `{ error }` a tool handed back, if that is what it did. */
const errorOf = (result) => itemsOf(result).find((x) => x && typeof x.error === 'string')?.error;

const wallClock = (iso) => iso.replace('T', ' ').slice(0, 16);
/** A user's name as the tool gives it (simplified: first_name, last_name), else their e-mail or ID. */
const personName = (u) => [u.first_name, u.last_name].filter(Boolean).join(' ') || u.full_name || u.name || u.email || u.id;

/** What the user asked for, from the last message. */
function readRequest(text) {
	const id = (prefix) => (text.match(new RegExp(`\\b${prefix}_[A-Za-z0-9]+`)) || [])[0];
	const when = text.match(/(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})/);
	const minutes = Number((text.match(/(\d+)\s*-?\s*min/i) || [])[1]) || DEFAULT_MINUTES;
	const tagName = (text.match(/\bas\s+["“']?([^"”'.]+?)["”']?\s*\.?\s*$/i) || text.match(/["“]([^"”]+)["”]/) || [])[1];
	const stage = PARENT_STAGES.find((s) => new RegExp(`\\b${s}\\b`, 'i').test(text));
	return {
		text,
		jobId: id('job'),
		applicationId: id('app'),
		candidateId: id('can'),
		interviewerId: id('usr'),
		interviewerName: (text.match(/\bwith\s+([A-Z][\w'-]+)/) || [])[1],
		stage,
		page: Number((text.match(/\bpage\s+(\d+)/i) || [])[1]) || 1,
		tagName: tagName && tagName.trim(),
		when: when && { date: when[1], time: `${when[2].padStart(2, '0')}:${when[3]}`, minutes },
		timeZone: (text.match(/\b([A-Z][a-z]+\/[A-Z][A-Za-z_]+)\b/) || [])[1] || DEFAULT_TIME_ZONE,
		wants: {
			destructive: /\b(delete|remove|cancel|archive|drop)\b/i.test(text),
			interview: /\b(schedule|book|arrange|set up)\b[^.]*\binterview/i.test(text),
			tag: /\btag\b/i.test(text),
			users: /\b(users|interviewers|who can interview|team)\b/i.test(text),
			applications: /\b(applications?|candidates?|applicants?)\b/i.test(text) || /\bjob_/.test(text),
		},
	};
}

/** start + minutes, as a wall-clock ISO 8601 date-time without offset (the tool takes the zone apart). */
function endOf({ date, time, minutes }) {
	const d = new Date(`${date}T${time}:00Z`);
	d.setUTCMinutes(d.getUTCMinutes() + minutes);
	return d.toISOString().slice(0, 19);
}

const HELP = [
	'I am the demo\'s scripted stand-in for a language model, not a real one: I understand a few kinds of requests and call the Recruiting tools this workflow offers. Try:',
	'- find applications for job job_… (add "at screening" or another parent stage: rejected, new, screening, interviewing, offered, hired; "page 2" for more)',
	'- show application app_…',
	'- tag can_… as Shortlisted',
	'- schedule an interview for app_… on 2030-05-06 14:00 Europe/Dublin (45 min; "with usr_…" or "with <first name>" picks the interviewer)',
	'- who can interview',
	'IDs come from earlier answers. Deleting or cancelling is not among the tools this workflow connects.',
];

/** A conversation for scriptedModel.js: the tool steps this request needs and the answer. */
function planFor(rec, { hints = [] } = {}) {
	const tools = rec.tools;
	const toolOf = (kind) => tools.find(TOOL_KINDS[kind]);
	const r = readRequest(rec.lastUser);
	const help = (why) => ({ id: 'assistant-help', steps: [], answer: () => [why, ...HELP, ...hints].filter(Boolean).join('\n') });
	const missingTool = (what) => help(`This workflow offers me no tool to ${what}.`);
	const step = (tool, values) => ({ pick: (t) => t.name === tool.name, args: (ctx) => argsFor(tool, typeof values === 'function' ? values(ctx) : values) });

	if (r.wants.destructive) {
		return help('I cannot delete, remove or cancel anything: this workflow connects no such tools. A person can do that in the recruiting service.');
	}
	if (r.wants.interview) {
		const schedule = toolOf('scheduleInterview');
		if (!schedule) return missingTool('schedule interviews');
		if (!r.applicationId || !r.when) {
			return help('To schedule an interview I need the application ID (app_…) and a start such as 2030-05-06 14:00.');
		}
		const start = `${r.when.date}T${r.when.time}:00`;
		const values = { applicationId: r.applicationId, start, end: endOf(r.when), timeZone: r.timeZone, title: 'Interview' };
		const users = toolOf('listUsers');
		const steps = [];
		let interviewer = () => ({ id: r.interviewerId, name: r.interviewerId });
		if (!r.interviewerId) {
			if (!users) return help('Who interviews? Give their user ID (with usr_…).');
			steps.push(step(users, { page: 1 }));
			interviewer = ({ results }) => {
				const people = itemsOf(results[0]).filter((u) => u.id);
				const named = r.interviewerName && people.find((u) => JSON.stringify(u).toLowerCase().includes(r.interviewerName.toLowerCase()));
				const chosen = named || people[0];
				return chosen && { id: chosen.id, name: personName(chosen), picked: !named };
			};
		}
		steps.push(step(schedule, (ctx) => ({ ...values, interviewerId: interviewer(ctx)?.id })));
		return {
			id: 'assistant-interview',
			steps,
			answer: (ctx) => {
				const result = ctx.results.at(-1);
				const error = errorOf(result);
				if (error) return `The interview was not scheduled: ${error}`;
				const [interview] = itemsOf(result);
				const who = interviewer(ctx);
				const picked = who?.picked ? ' (the first user listed; say "with <name>" to choose another)' : '';
				return `Scheduled ${interview?.id ?? 'the interview'} for ${r.applicationId}: ${wallClock(start)} to ${wallClock(values.end)} ${r.timeZone}, with ${who?.name}${picked}.`;
			},
		};
	}
	if (r.wants.tag && r.candidateId) {
		const tag = toolOf('tagCandidate');
		if (!tag) return missingTool('tag candidates');
		if (!r.tagName) return help(`Which tag? For example: tag ${r.candidateId} as Shortlisted`);
		return {
			id: 'assistant-tag',
			steps: [step(tag, { candidateId: r.candidateId, tagName: r.tagName })],
			answer: ({ results }) => {
				const error = errorOf(results[0]);
				return error ? `I could not tag ${r.candidateId}: ${error}` : `Tagged ${r.candidateId} as "${r.tagName}".`;
			},
		};
	}
	if (r.applicationId) {
		const read = toolOf('readApplication');
		if (!read) return missingTool('read an application');
		return {
			id: 'assistant-read',
			steps: [step(read, { applicationId: r.applicationId })],
			answer: ({ results }) => {
				const error = errorOf(results[0]);
				if (error) return error;
				const [a] = itemsOf(results[0]);
				return [
					`Application ${a.id}: ${a.candidate_name} (${a.candidate_id}, ${a.candidate_email}) for ${a.job_title} (${a.job_id}).`,
					`Stage ${a.stage} (${a.parent_stage}), applied ${wallClock(String(a.applied_at))}, source ${a.source}${a.candidate_tags ? `, tags: ${a.candidate_tags}` : ''}.`,
				].join('\n');
			},
		};
	}
	if (r.wants.users) {
		const users = toolOf('listUsers');
		if (!users) return missingTool('list users');
		return {
			id: 'assistant-users',
			steps: [step(users, { page: r.page })],
			answer: ({ results }) => {
				const people = itemsOf(results[0]).filter((u) => u.id);
				return [`${people.length} users:`, ...people.map((u) => `- ${personName(u)} (${u.id}${u.email ? `, ${u.email}` : ''})`)].join('\n');
			},
		};
	}
	if (r.wants.applications) {
		const find = toolOf('findApplications');
		if (!find) return missingTool('find applications');
		if (!r.jobId) return help('Which job? Give its ID (job_…).');
		const stage = r.stage || DEFAULT_STAGE;
		return {
			id: 'assistant-find',
			steps: [step(find, { jobId: r.jobId, stage, page: r.page })],
			answer: ({ results }) => {
				const error = errorOf(results[0]);
				if (error) return error;
				const items = itemsOf(results[0]);
				const apps = items.filter((x) => x.id);
				const note = items.find((x) => !x.id && x.note);
				if (!apps.length) return `No applications to ${r.jobId} at the ${stage} stage.${r.stage ? '' : ' Say "at screening" (or another stage) to look elsewhere.'}`;
				return [
					`Applications to ${apps[0].job_title} (${r.jobId}) at the ${stage} stage${r.stage ? '' : ' (say "at screening" or another stage for others)'}:`,
					...apps.map((a) => `- ${a.candidate_name} (${a.candidate_id}): application ${a.id}, ${a.stage}, applied ${String(a.applied_at).slice(0, 10)}`),
					...(note ? [note.note] : []),
				].join('\n');
			},
		};
	}
	return help(rec.lastUser.trim() ? 'I did not understand that.' : '');
}

/** The demo's endpoint: `url` is the Base URL for an openAiApi credential. */
async function startAssistantModel({ port = 0, hints } = {}) {
	return startScriptedModel({ port, unscripted: (rec) => planFor(rec, { hints }) });
}

module.exports = { startAssistantModel, planFor, readRequest, HELP };
