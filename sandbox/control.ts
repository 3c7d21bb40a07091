/**
 * The HTTP control API under /__sandbox (no auth, never recorded): the programmatic Sandbox API for
 * tests that run in another process.
 */
import type { Deliveries } from './deliveries';
import type { Faults } from './faults';
import { notFound, validationProblem } from './problems';
import type { Reply } from './api';
import type { RouteSpec } from './router';
import { COLLECTIONS, isCollection, Store, type CollectionTypes } from './store';
import { addJobNote, advance, apply, completeFeedback, moveStage, type ApplyInput } from './activity';
import { PARENT_STAGES } from './schemas';
import type { DeliverInput, Sandbox, SeedSizes } from './types';
import { arr, int, isPlainObject, jsonObject, obj, oneOf, str, validate } from './validation';

export interface ControlContext {
	sandbox: Sandbox;
	store: Store;
	faults: Faults;
	deliveries: Deliveries;
	params: Record<string, string>;
	body: unknown;
}

export interface ControlRoute extends RouteSpec {
	handle(ctx: ControlContext): Reply | Promise<Reply>;
}

const ok = (body: unknown): Reply => ({ status: 200, body });
const NO_CONTENT: Reply = { status: 204 };

const seedSizes = obj(
	Object.fromEntries(
		['applications', 'jobs', 'candidates', 'tags', 'emailTemplates', 'userCategories', 'jobNotesPerJob'].map((k) => [
			k,
			int({ min: 0 }),
		]),
	),
	{ strict: true },
);

const applyInput = obj({ jobId: str({ min: 1 }), appliedAt: str({ min: 1 }) }, { strict: true });
const stageInput = obj({ parentStage: oneOf(PARENT_STAGES) }, { strict: true, required: ['parentStage'] });
const noteInput = obj({ text: str({ min: 1 }) }, { strict: true, required: ['text'] });
const feedbackInput = obj({ applicationId: str({ min: 1 }) }, { strict: true });

const retriesInput = obj({ delaysMs: arr(int({ min: 0, max: 86_400_000 })) }, { strict: true, required: ['delaysMs'] });

/** The record as the API shows it, after its webhook event is sent as the service would send it. */
function changed<C extends 'applications' | 'feedback'>(c: ControlContext, event: string, collection: C, record: CollectionTypes[C], status = 200): Reply {
	const view = c.store.view(collection, record);
	c.deliveries.emit(event, view);
	return { status, body: { data: view } };
}

const created = <C extends 'applications' | 'feedback'>(c: ControlContext, event: string, collection: C, record: CollectionTypes[C]): Reply =>
	changed(c, event, collection, record, 201);

const deliverInput = obj(
	{
		webhookId: str({ min: 1 }),
		event: str({ min: 1 }),
		object: jsonObject(),
		shape: oneOf(['object', 'flat']),
	},
	{ strict: true, required: ['webhookId', 'event'] },
);

/** What GET /__sandbox/info (and the CLI) tell about the running sandbox. */
export function describeSandbox(sandbox: Sandbox, store: Store): Record<string, unknown> {
	const pipelines = new Set(store.values('jobs').map((j) => j.custom_pipeline_id).filter(Boolean));
	return {
		url: sandbox.url,
		apiBase: `${sandbox.url}/v1.0/${encodeURIComponent(sandbox.companyId)}`,
		companyId: sandbox.companyId,
		token: sandbox.token,
		counts: Object.fromEntries(COLLECTIONS.map((c) => [c, store.count(c)])),
		webhookIds: store.values('webhooks').map((w) => w.id),
		customPipelineIds: [...pipelines],
		// The first jobs, for the polling trigger's Job IDs; the activity routes use the first.
		jobIds: store.values('jobs').slice(0, 2).map((j) => j.id),
	};
}

function collectionOf(ctx: ControlContext) {
	const { collection } = ctx.params;
	if (!isCollection(collection)) throw notFound('Collection', collection);
	return collection;
}

export const CONTROL_ROUTES: readonly ControlRoute[] = [
	{ method: 'GET', path: '/__sandbox/info', handle: (c) => ok(describeSandbox(c.sandbox, c.store)) },
	{ method: 'GET', path: '/__sandbox/requests', handle: (c) => ok(c.sandbox.requests) },
	{ method: 'GET', path: '/__sandbox/connections', handle: (c) => ok({ connections: c.sandbox.connectionCount() }) },
	{
		method: 'DELETE',
		path: '/__sandbox/requests',
		handle: (c) => {
			c.sandbox.clearRequests();
			return NO_CONTENT;
		},
	},
	{ method: 'GET', path: '/__sandbox/rate-limit', handle: (c) => ok(c.sandbox.rateLimit()) },
	{ method: 'GET', path: '/__sandbox/rate-limit/refusals', handle: (c) => ok({ at: c.sandbox.rateLimitRefusals() }) },
	{
		// { "rate": 10, "burst": 10, "retryAfter"?: "seconds"|"date"|"none", "info"?: ... } or null for none.
		method: 'PUT',
		path: '/__sandbox/rate-limit',
		handle: (c) => {
			c.sandbox.setRateLimit(c.body === null || c.body === undefined ? undefined : (c.body as never));
			return ok(c.sandbox.rateLimit());
		},
	},
	{ method: 'GET', path: '/__sandbox/faults', handle: (c) => ok(c.faults.list()) },
	{
		method: 'PUT',
		path: '/__sandbox/faults',
		handle: (c) => {
			if (!isPlainObject(c.body)) throw validationProblem({ body: ["The body must be { \"rules\": [...] }."] });
			c.faults.set(c.body.rules ?? []);
			return ok(c.faults.list());
		},
	},
	{
		method: 'POST',
		path: '/__sandbox/reset',
		handle: (c) => {
			c.sandbox.reset(c.body === undefined ? {} : validate<SeedSizes>(seedSizes, c.body));
			return ok(describeSandbox(c.sandbox, c.store));
		},
	},
	{
		method: 'PUT',
		path: '/__sandbox/records/:collection',
		handle: (c) => {
			const collection = collectionOf(c);
			const record = c.body;
			if (!isPlainObject(record) || typeof record.id !== 'string' || record.id === '') {
				throw validationProblem({ id: ['The record must be a JSON object with a non-empty string id.'] });
			}
			c.sandbox.put(collection, record);
			return ok({ data: record });
		},
	},
	{
		method: 'GET',
		path: '/__sandbox/records/:collection/:id',
		handle: (c) => {
			const record = c.sandbox.get(collectionOf(c), c.params.id);
			if (!record) throw notFound('Record', c.params.id);
			return ok({ data: record });
		},
	},
	{
		method: 'POST',
		path: '/__sandbox/deliver',
		handle: async (c) => ok(await c.sandbox.deliver(validate<DeliverInput>(deliverInput, c.body))),
	},
	{ method: 'GET', path: '/__sandbox/deliveries', handle: (c) => ok(c.sandbox.deliveries) },
	// What happens in the service while n8n runs (activity.ts), with the webhook event the service sends.
	{
		method: 'POST',
		path: '/__sandbox/applications',
		handle: (c) => created(c, 'application.created', 'applications', apply(c.store, validate<ApplyInput>(applyInput, c.body ?? {}))),
	},
	{
		method: 'PUT',
		path: '/__sandbox/applications/:id/stage',
		handle: (c) => {
			const before = c.store.get('applications', c.params.id)?.stage;
			const moved = moveStage(c.store, c.params.id, validate<{ parentStage: string }>(stageInput, c.body).parentStage);
			// Moved to where it stood: no event, as the API sends none for a no-op.
			if (JSON.stringify(before) === JSON.stringify(moved.stage)) return ok({ data: c.store.view('applications', moved) });
			return changed(c, 'application.stage.updated', 'applications', moved);
		},
	},
	{
		// Job notes have no webhook event.
		method: 'POST',
		path: '/__sandbox/jobs/:id/notes',
		handle: (c) => ({ status: 201, body: { data: addJobNote(c.store, c.params.id, validate<{ text: string }>(noteInput, c.body).text) } }),
	},
	{
		// An application of the job moves one stage on (activity.ts: advance).
		method: 'POST',
		path: '/__sandbox/jobs/:id/stage-moves',
		handle: (c) => changed(c, 'application.stage.updated', 'applications', advance(c.store, { jobId: c.params.id })),
	},
	{
		method: 'POST',
		path: '/__sandbox/feedback',
		handle: (c) => created(c, 'feedback.submitted', 'feedback', completeFeedback(c.store, validate<{ applicationId?: string }>(feedbackInput, c.body ?? {}))),
	},
	{ method: 'GET', path: '/__sandbox/delivery-retries', handle: (c) => ok(c.sandbox.deliveryRetries()) },
	{
		// { "delaysMs": [1000, 60000] }: the delays between attempts of the event deliveries sent from now on.
		method: 'PUT',
		path: '/__sandbox/delivery-retries',
		handle: (c) => {
			c.sandbox.setDeliveryRetries(validate<{ delaysMs: number[] }>(retriesInput, c.body).delaysMs);
			return ok(c.sandbox.deliveryRetries());
		},
	},
	{
		method: 'POST',
		path: '/__sandbox/delivery-retries/now',
		handle: (c) => ok({ retried: c.sandbox.retryDeliveriesNow() }),
	},
];
