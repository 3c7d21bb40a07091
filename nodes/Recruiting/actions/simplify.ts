import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Simplify (on by default from node version 1.1, as n8n's guidelines ask for resources of more
 * than ten fields): one flat item of the fields people use, instead of the service's nested
 * resource. Version 1 nodes have no such option and keep the full resource.
 */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
};

export function isSimplified(this: IExecuteFunctions, itemIndex: number): boolean {
	return this.getNodeParameter('simplify', itemIndex, false) === true;
}

const object = (value: unknown): IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : {};

const scalar = (value: unknown): string | number | boolean | null =>
	typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;

/** Tag names, comma-separated: what a spreadsheet or a message shows. */
const tagNames = (tags: unknown): string =>
	Array.isArray(tags) ? tags.map((tag) => String(object(tag).name ?? '')).filter((name) => name !== '').join(', ') : '';

export function simplifyApplication(application: IDataObject): IDataObject {
	const candidate = object(application.candidate);
	const job = object(application.job);
	const stage = object(application.stage);
	return {
		id: scalar(application.id),
		applied_at: scalar(application.applied_at),
		candidate_id: scalar(candidate.id),
		candidate_name: scalar(candidate.full_name),
		candidate_email: scalar(candidate.email),
		candidate_phone: scalar(candidate.phone_number),
		candidate_tags: tagNames(candidate.tags),
		job_id: scalar(job.id),
		job_title: scalar(job.title),
		stage: scalar(object(stage.custom_stage).name),
		parent_stage: scalar(stage.parent_stage),
		source: scalar(object(application.source).source),
		potential_duplicate: scalar(application.potential_duplicate),
	};
}

export function simplifyCandidate(candidate: IDataObject): IDataObject {
	const location = object(candidate.location);
	return {
		id: scalar(candidate.id),
		full_name: scalar(candidate.full_name),
		first_name: scalar(candidate.first_name),
		last_name: scalar(candidate.last_name),
		email: scalar(candidate.email),
		phone_number: scalar(candidate.phone_number),
		title: scalar(candidate.title),
		company: scalar(candidate.company),
		address: scalar(location.address),
		country: scalar(object(location.country).name),
		rating: scalar(candidate.rating),
		tags: tagNames(candidate.tags),
		application_ids: Array.isArray(candidate.application_ids) ? candidate.application_ids : [],
	};
}

export function simplifyJob(job: IDataObject): IDataObject {
	const location = object(job.location);
	return {
		id: scalar(job.id),
		title: scalar(job.title),
		status: scalar(job.status),
		type: scalar(job.type),
		experience: scalar(job.experience),
		city: scalar(location.city),
		country: scalar(object(location.country).name),
		remote: scalar(location.remote),
		category: scalar(object(job.category).name),
		owner_id: scalar(job.owner_id),
		job_code: scalar(job.job_code),
		created_date: scalar(job.created_date),
		published_date: scalar(job.published_date),
		apply_url: scalar(job.apply_url),
		tags: tagNames(job.tags),
	};
}
