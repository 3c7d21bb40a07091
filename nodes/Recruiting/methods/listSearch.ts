import type { IDataObject } from 'n8n-workflow';
import { scalarText } from '../../shared/text';
import { resourcePath } from '../../shared/transport';
import { listEntry, part, picker } from '../../shared/search';
import { EMAIL_TEMPLATE_LIST, TAG_LIST, USER_LIST } from '../lists';

export { searchJobs } from '../../shared/search';

/** The pickers' list sources; how a search walks them is in ../../shared/search.ts. */

function candidateName(candidate: IDataObject): string {
	const first = scalarText(candidate.first_name) ?? '';
	const last = scalarText(candidate.last_name) ?? '';
	const full = scalarText(candidate.full_name) || `${first} ${last}`.trim();
	return full || scalarText(candidate.email) || scalarText(candidate.id) || '';
}

const APPLICATIONS = resourcePath('applications');

export const searchTags = picker(TAG_LIST);

export const searchEmailTemplates = picker(EMAIL_TEMPLATE_LIST);

export const searchApplications = picker({
	path: APPLICATIONS,
	entries: (application) => {
		const candidate = part(application.candidate);
		const job = scalarText(part(application.job).title) || 'unknown job';
		// The e-mail tells two candidates of the same name apart, as in the candidate picker.
		const email = scalarText(candidate.email) ?? '';
		const who = candidateName(candidate) || scalarText(application.id);
		const name = `${email && who !== email ? `${who} <${email}>` : who} — ${job}`;
		return listEntry(application.id, name, candidate.email);
	},
});

/** Candidates who applied to anything, each once: name, with the e-mail to tell namesakes apart. */
export const searchCandidates = picker({
	path: APPLICATIONS,
	distinct: true,
	entries: (application) => {
		const candidate = part(application.candidate);
		const email = scalarText(candidate.email) ?? '';
		// n8n's list shows only the name: the e-mail in it tells namesakes apart.
		const name = email && candidateName(candidate) !== email ? `${candidateName(candidate)} <${email}>` : candidateName(candidate);
		return listEntry(candidate.id, name, email);
	},
});

/** The company's users (GET /users, the service's full API), as `First Last <e-mail>`. */
export const searchUsers = picker(USER_LIST);

