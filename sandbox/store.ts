/** The in-memory state of the service: one Map per collection, plus memoised indexes. */
import { Rng } from './random';
import type {
	Application,
	ApplicationForm,
	Candidate,
	EmailTemplate,
	Feedback,
	Interview,
	Job,
	Note,
	Tag,
	User,
	UserCategory,
	Webhook,
} from './resources';
import type { CollectionName } from './types';

export interface CollectionTypes {
	jobs: Job;
	candidates: Candidate;
	applications: Application;
	interviews: Interview;
	jobNotes: Note;
	candidateNotes: Note;
	tags: Tag;
	feedback: Feedback;
	applicationForms: ApplicationForm;
	emailTemplates: EmailTemplate;
	userCategories: UserCategory;
	webhooks: Webhook;
	users: User;
}

export const COLLECTIONS: readonly CollectionName[] = [
	'jobs',
	'candidates',
	'applications',
	'interviews',
	'jobNotes',
	'candidateNotes',
	'tags',
	'feedback',
	'applicationForms',
	'emailTemplates',
	'userCategories',
	'webhooks',
	'users',
];

/** Fields the sandbox keeps on a record to link it, which the API never shows. */
const INTERNAL_FIELDS: Partial<Record<CollectionName, readonly string[]>> = {
	jobs: ['custom_pipeline_id'],
	jobNotes: ['job_id'],
	candidateNotes: ['candidate_id'],
};

export const isCollection = (name: string): name is CollectionName =>
	(COLLECTIONS as readonly string[]).includes(name);

type Stored = { id: string };

export class Store {
	private readonly maps = new Map<CollectionName, Map<string, Stored>>(COLLECTIONS.map((c) => [c, new Map()]));
	private readonly versions = new Map<CollectionName, number>(COLLECTIONS.map((c) => [c, 0]));
	private readonly memos = new Map<string, { stamp: string; value: unknown }>();
	/** Ids of records created through the API: deterministic after each reset. */
	private idRng = new Rng('created-ids');

	clear(): void {
		for (const c of COLLECTIONS) this.map(c).clear();
		for (const c of COLLECTIONS) this.bump(c);
		this.memos.clear();
		this.idRng = new Rng('created-ids');
	}

	get<C extends CollectionName>(collection: C, id: string): CollectionTypes[C] | undefined {
		return this.map(collection).get(id);
	}

	/** Inserts or replaces a record by its id. */
	put<C extends CollectionName>(collection: C, record: CollectionTypes[C] | object): void {
		const id = (record as { id?: unknown }).id;
		if (typeof id !== 'string' || id === '') throw new TypeError(`A ${collection} record needs a non-empty string id.`);
		this.map(collection).set(id, record as CollectionTypes[C]);
		this.bump(collection);
	}

	delete(collection: CollectionName, id: string): boolean {
		const deleted = this.map(collection).delete(id);
		if (deleted) this.bump(collection);
		return deleted;
	}

	count(collection: CollectionName): number {
		return this.map(collection).size;
	}

	/** All records, in insertion order; the array is cached until the collection changes. */
	values<C extends CollectionName>(collection: C): ReadonlyArray<CollectionTypes[C]> {
		return this.memo(`values:${collection}`, [collection], () => Array.from(this.map(collection).values()));
	}

	/** The value of `build`, recomputed only when one of the collections it depends on changed. */
	memo<T>(key: string, dependsOn: readonly CollectionName[], build: () => T): T {
		const stamp = dependsOn.map((c) => this.versions.get(c)).join(',');
		const hit = this.memos.get(key);
		if (hit && hit.stamp === stamp) return hit.value as T;
		const value = build();
		this.memos.set(key, { stamp, value });
		return value;
	}

	/** A fresh id such as `job_k3h2...` that no record of the collection uses. */
	newId(collection: CollectionName, prefix: string): string {
		let id: string;
		do id = `${prefix}_${this.idRng.token()}`;
		while (this.map(collection).has(id));
		return id;
	}

	/** The record as the API shows it: without the sandbox's internal link fields. */
	view<T extends object>(collection: CollectionName, record: T): T {
		const hidden = INTERNAL_FIELDS[collection]?.filter((f) => f in record);
		if (!hidden?.length) return record;
		const copy = { ...record } as Record<string, unknown>;
		for (const f of hidden) delete copy[f];
		return copy as T;
	}

	private map<C extends CollectionName>(collection: C): Map<string, CollectionTypes[C]> {
		const map = this.maps.get(collection);
		if (!map) throw new TypeError(`Unknown collection '${collection}'; known: ${COLLECTIONS.join(', ')}.`);
		return map as unknown as Map<string, CollectionTypes[C]>;
	}

	private bump(collection: CollectionName): void {
		this.versions.set(collection, this.versions.get(collection)! + 1);
	}
}
