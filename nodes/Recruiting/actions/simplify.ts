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

/** Output field → where it is in the resource; `tags` paths give the tag names, comma-separated. */
type FieldMap = Record<string, { path: string[]; tags?: true; list?: true }>;

const at = (...path: string[]) => ({ path });

const APPLICATION: FieldMap = {
	id: at('id'),
	applied_at: at('applied_at'),
	candidate_id: at('candidate', 'id'),
	candidate_name: at('candidate', 'full_name'),
	candidate_email: at('candidate', 'email'),
	candidate_phone: at('candidate', 'phone_number'),
	candidate_tags: { path: ['candidate', 'tags'], tags: true },
	job_id: at('job', 'id'),
	job_title: at('job', 'title'),
	stage: at('stage', 'custom_stage', 'name'),
	parent_stage: at('stage', 'parent_stage'),
	source: at('source', 'source'),
	potential_duplicate: at('potential_duplicate'),
};

const CANDIDATE: FieldMap = {
	id: at('id'),
	full_name: at('full_name'),
	first_name: at('first_name'),
	last_name: at('last_name'),
	email: at('email'),
	phone_number: at('phone_number'),
	title: at('title'),
	company: at('company'),
	address: at('location', 'address'),
	country: at('location', 'country', 'name'),
	rating: at('rating'),
	tags: { path: ['tags'], tags: true },
	application_ids: { path: ['application_ids'], list: true },
};

const JOB: FieldMap = {
	id: at('id'),
	title: at('title'),
	status: at('status'),
	type: at('type'),
	experience: at('experience'),
	city: at('location', 'city'),
	country: at('location', 'country', 'name'),
	remote: at('location', 'remote'),
	category: at('category', 'name'),
	owner_id: at('owner_id'),
	job_code: at('job_code'),
	created_date: at('created_date'),
	published_date: at('published_date'),
	apply_url: at('apply_url'),
	tags: { path: ['tags'], tags: true },
};

function lookup(resource: IDataObject, path: string[]): unknown {
	let value: unknown = resource;
	for (const key of path) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/** Every field of the map, always present: a value, `null` when absent, tag names or a list. */
function flatten(resource: IDataObject, fields: FieldMap): IDataObject {
	const out: IDataObject = {};
	for (const [name, field] of Object.entries(fields)) {
		const value = lookup(resource, field.path);
		if (field.tags) {
			out[name] = Array.isArray(value)
				? value
						.map((tag) => (typeof tag === 'object' && tag !== null ? String((tag as IDataObject).name ?? '') : ''))
						.filter((tagName) => tagName !== '')
						.join(', ')
				: '';
		} else if (field.list) {
			out[name] = Array.isArray(value) ? (value as IDataObject[]) : [];
		} else {
			out[name] = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
		}
	}
	return out;
}

export const simplifyApplication = (application: IDataObject): IDataObject => flatten(application, APPLICATION);
export const simplifyCandidate = (candidate: IDataObject): IDataObject => flatten(candidate, CANDIDATE);
export const simplifyJob = (job: IDataObject): IDataObject => flatten(job, JOB);
