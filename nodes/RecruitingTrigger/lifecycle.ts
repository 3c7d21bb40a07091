import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { EndpointKind, OwnUrls } from './n8nUrls';
import { ownUrls, sameEndpoint } from './n8nUrls';
import { forgetSigningKey, rememberSigningKey } from './signingKeys';
import { readBorrowNote, withBorrowNote } from './borrowNote';
import type { RemoteWebhook } from './webhookApi';
import { putWebhook, readWebhook, sameEvents, signingKeyCacheKeyOf, webhookIdParameter } from './webhookApi';

/**
 * The webhook is created in the service's dashboard; the trigger borrows it. Activation points
 * it at n8n, deactivation puts back what was there. What was there is kept in the node's static
 * data (it survives restarts and lives with the workflow), and only that: never the signing key.
 * It is also written as a note at the end of the webhook's description (borrowNote.ts), for when
 * n8n loses the static data: a test listen's on a restart, a failed activation's in n8n 1.x.
 *
 * The trigger owns what it borrows, and nothing else: only an endpoint outside n8n is ever
 * remembered as the original, and a webhook that another n8n URL holds is not taken:
 * - another workflow's URL (production or test): activation and "Listen for test event" fail,
 *   naming the webhook, the workflow that holds it (by the name in its note, when it has one) and
 *   its URL, and saying what to do;
 * - this workflow's production URL, during "Listen for test event": refused, like n8n does for
 *   its own single-webhook triggers, so an active workflow never loses its deliveries;
 * - this workflow's test URL, during activation: production takes the webhook over, with the
 *   original from the note. That also covers a listen that n8n's restart cut short, which no
 *   hook ever ends; a new test listen adopts the note the same way. A listen still running then
 *   receives nothing more and, when it ends, leaves the webhook to production. Without a note
 *   (set to the test URL by hand) the original is unknown: activation and test listen refused.
 * A note is trusted only on a webhook that points at this node's URL and only when written for
 * one; on a webhook that points outside n8n it is left over (set back by hand) and taken out.
 *
 * Two slots, because the editor's test listen runs on its own copy of the static data:
 * - `originalWebhook`: the dashboard's endpoint and events before the production activation.
 * - `webhookBeforeTest`: the same, taken when a test listen began; put back when it ends.
 */

export const ORIGINAL_SLOT = 'originalWebhook';
export const TEST_SLOT = 'webhookBeforeTest';
type Slot = typeof ORIGINAL_SLOT | typeof TEST_SLOT;

export interface SavedWebhook extends IDataObject {
	/** The webhook this snapshot belongs to (the parameter may change while active). */
	webhookId: string;
	endpoint: string;
	events: string[];
	name?: string;
	description?: string;
	/** The n8n URL that replaced `endpoint` when the snapshot was taken. */
	replacedBy: string;
	/** The events n8n last wrote: put back only while the webhook still has them. */
	wroteEvents?: string[];
}

function readSlot(staticData: IDataObject, slot: Slot): SavedWebhook | undefined {
	const value = staticData[slot] as Partial<SavedWebhook> | undefined;
	if (!value || typeof value !== 'object' || typeof value.webhookId !== 'string') return undefined;
	return {
		webhookId: value.webhookId,
		endpoint: typeof value.endpoint === 'string' ? value.endpoint : '',
		events: Array.isArray(value.events) ? value.events.filter((e) => typeof e === 'string') : [],
		name: typeof value.name === 'string' ? value.name : undefined,
		description: typeof value.description === 'string' ? value.description : undefined,
		replacedBy: typeof value.replacedBy === 'string' ? value.replacedBy : '',
		...(Array.isArray(value.wroteEvents) && { wroteEvents: value.wroteEvents.filter((e) => typeof e === 'string') }),
	};
}

function snapshot(remote: RemoteWebhook, replacedBy: string, wroteEvents: string[]): SavedWebhook {
	// Pick fields one by one: nothing else of the webhook (its signing key above all) is stored.
	const saved: SavedWebhook = {
		webhookId: remote.id,
		endpoint: remote.endpoint,
		events: [...remote.events],
		replacedBy,
		wroteEvents: [...wroteEvents],
	};
	if (remote.name !== undefined) saved.name = remote.name;
	if (remote.description !== undefined) saved.description = remote.description;
	return saved;
}

function ourUrl(this: IHookFunctions): string {
	const url = this.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(this.getNode(), 'n8n did not provide a webhook URL for this trigger');
	return url;
}

function urlsOf(this: IHookFunctions, url: string): OwnUrls {
	return ownUrls(url, this.getNode().webhookId);
}

function selectedEvents(this: IHookFunctions): string[] {
	const events = this.getNodeParameter('events', []) as unknown;
	const list = Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [];
	if (list.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Select at least one event', {
			description: 'The webhook is subscribed to exactly the events selected in "Events".',
		});
	}
	return list;
}

/**
 * Whether this hook call is about a test listen (TEST_SLOT) or production (ORIGINAL_SLOT):
 * decided here, once per call. n8n begins a listen with activation mode `manual` (checkExists,
 * create) but ends it with the same call as a deactivation (delete, activation `update`), so at
 * the end only the URL n8n gives tells: the test URL, or the one the listen's snapshot replaced
 * (an endpoint name n8nUrls.ts cannot read as the test one). A refused listen has no snapshot:
 * its end, on the test URL, must not touch production's.
 */
function isTestListen(this: IHookFunctions, ending?: { url: string; urls: OwnUrls; staticData: IDataObject }): boolean {
	if (ending === undefined) return this.getActivationMode() === 'manual';
	return ending.urls.isTest || readSlot(ending.staticData, TEST_SLOT)?.replacedBy === ending.url;
}

function slotOf(test: boolean): Slot {
	return test ? TEST_SLOT : ORIGINAL_SLOT;
}

/**
 * GET /webhooks/{id}, and its signing key into this process's memory cache: a delivery to this
 * process then needs no fetch. The lifecycle's only write to the cache besides forgetting a key.
 */
async function readCachingKey(context: IHookFunctions, id: string, required: true): Promise<RemoteWebhook>;
async function readCachingKey(context: IHookFunctions, id: string, required: false): Promise<RemoteWebhook | undefined>;
async function readCachingKey(context: IHookFunctions, id: string, required: boolean): Promise<RemoteWebhook | undefined> {
	const read = await readWebhook(context, id, { required });
	if (read) rememberSigningKey(signingKeyCacheKeyOf.call(context, id), read.signingKey);
	return read?.webhook;
}

/**
 * A webhook as read, with what the rules below ask of it worked out once per read: whose URL it
 * points at, and the note at the end of its description (trusted only as notedOriginal says).
 */
interface SightedWebhook {
	remote: RemoteWebhook;
	kind: EndpointKind;
	found: ReturnType<typeof readBorrowNote>;
}

function sight(remote: RemoteWebhook, urls: OwnUrls): SightedWebhook {
	return { remote, kind: urls.kind(remote.endpoint), found: readBorrowNote(remote.description) };
}

/**
 * Puts the original back, if the webhook still points at one of `ours`: the snapshot, or without
 * one (n8n lost it) this node's note on the webhook, written for the test URL when `test` (see
 * isTestListen), else for the production one. If someone else re-pointed it meanwhile,
 * their change stands, minus a note of ours left in the description. A webhook deleted meanwhile
 * is fine: there is nothing to restore. True when the original was put back.
 */
async function restore(
	this: IHookFunctions,
	id: string,
	ours: string[],
	urls: OwnUrls,
	test: boolean,
	saved?: SavedWebhook,
): Promise<boolean> {
	const remote = await readCachingKey(this, id, false);
	if (!remote) return false;
	const seen = sight(remote, urls);
	if (ours.some((url) => sameEndpoint(url, remote.endpoint))) {
		const original = saved ?? notedOriginal(seen, urls, [test ? 'own-test' : 'own-production']);
		if (!original) return false;
		const wroteEvents = saved ? saved.wroteEvents : selectedEventsIfAny.call(this);
		await putWebhook.call(this, restoredWebhook.call(this, seen, original, wroteEvents), id, { allowNotFound: true });
		return true;
	}
	const leftover = leftoverNoteRemoved(seen);
	if (leftover) await putWebhook.call(this, leftover, id, { allowNotFound: true });
	return false;
}

/**
 * What putting the webhook back writes: the original endpoint (the webhook still points here);
 * the original events only while it still has the events n8n wrote (`wroteEvents`; unknown:
 * as n8n wrote them); its name and description as they are now, minus our note (n8n wrote
 * them unchanged, so any difference from the original is an edit made in the dashboard while
 * n8n held the webhook). What is left as the user set it is said in n8n's log.
 */
function restoredWebhook(
	this: IHookFunctions,
	{ remote, found }: SightedWebhook,
	original: Pick<RemoteWebhook, 'endpoint' | 'events' | 'name' | 'description'>,
	wroteEvents: string[] | undefined,
): Omit<RemoteWebhook, 'id' | 'status'> {
	const eventsAsWritten = wroteEvents === undefined || sameEvents(remote.events, wroteEvents);
	const description = found ? found.description : remote.description;
	const edited: string[] = [];
	if (remote.name !== undefined && remote.name !== original.name) edited.push('name');
	if (description !== undefined && description !== original.description) edited.push('description');
	if (!eventsAsWritten) edited.push('events');
	if (edited.length > 0) {
		this.logger.info(
			`Recruiting Trigger: webhook "${remote.id}" is put back to ${original.endpoint}, except what was changed in the service's dashboard while n8n held it, which is left as set there: ${edited.join(', ')}`,
			{ webhookId: remote.id, keptAsEdited: edited },
		);
	}
	return {
		endpoint: original.endpoint,
		events: eventsAsWritten ? original.events : remote.events,
		name: remote.name ?? original.name,
		description,
	};
}

/** The selected events, or undefined when none can be read (a deactivation must still run). */
function selectedEventsIfAny(this: IHookFunctions): string[] | undefined {
	try {
		return selectedEvents.call(this);
	} catch {
		return undefined;
	}
}

/**
 * The webhook with our note taken out of its description, when the note is left over: the
 * webhook points outside n8n (someone set it back by hand, or re-pointed it while n8n held it).
 * Undefined when there is nothing to take out.
 */
function leftoverNoteRemoved({ remote, kind, found }: SightedWebhook): RemoteWebhook | undefined {
	if (kind !== 'external' || !found) return undefined;
	return { ...remote, description: found.description };
}

/** n8n 2.x publishes a workflow where n8n 1.x activated it: texts for users of both say both. */
const PUBLISH = 'publish (activate in n8n 1.x)';
const UNPUBLISH = 'unpublish (deactivate in n8n 1.x)';

/** A disabled webhook sends nothing, and the API cannot enable it: say so instead of taking it. */
function assertEnabled(this: IHookFunctions, remote: RemoteWebhook): void {
	if (remote.status !== 'disabled') return;
	throw new NodeOperationError(
		this.getNode(),
		`Webhook "${remote.id}" is disabled in the recruiting service: enable it in the service's dashboard, then try again`,
		{
			description: `A disabled webhook sends no events, and the API cannot enable it. Once it is enabled in the dashboard, ${PUBLISH} the workflow (or listen for a test event) again.`,
		},
	);
}

const OWN: readonly EndpointKind[] = ['own-production', 'own-test'];

/**
 * What the webhook was before this node took it, from the note in its description; undefined
 * unless the webhook points at one of this node's URLs of the given kinds, the note was written
 * for one of this node's URLs, and it names an endpoint outside n8n (an n8n URL is never taken
 * for the original).
 */
function notedOriginal(seen: SightedWebhook, urls: OwnUrls, kinds: readonly EndpointKind[]): RemoteWebhook | undefined {
	const { remote, kind, found } = seen;
	if (!kinds.includes(kind) || !found) return undefined;
	const { endpoint, events, holder } = found.note;
	if (urls.kind(endpoint) !== 'external' || !OWN.includes(urls.kind(holder))) return undefined;
	return { ...remote, endpoint, events, description: found.description };
}

/**
 * The workflow that holds the webhook, as its note names it: `the workflow "Name"`; without a
 * note of its holder (or a name in it), `another n8n workflow`. The note is trusted only when it
 * was written for the URL the webhook points at.
 */
function holderOf({ remote, found }: SightedWebhook): string {
	const note = found?.note;
	const named = note?.workflow !== undefined && sameEndpoint(note.holder, remote.endpoint);
	return named ? `the workflow "${note.workflow}"` : 'another n8n workflow';
}

/**
 * Refuses to take a webhook that another n8n URL holds; see the rules at the top. n8n 2.x shows
 * only the message of an error that ends a test listen, so the message itself says what to do.
 */
function assertNotHeld(this: IHookFunctions, seen: SightedWebhook, test: boolean): void {
	const { remote, kind } = seen;
	const where = `Webhook "${remote.id}" points at ${remote.endpoint}`;
	if (kind === 'other-n8n') {
		throw new NodeOperationError(
			this.getNode(),
			`Webhook "${remote.id}" is in use by ${holderOf(seen)} (it points at ${remote.endpoint}). To use it here, ${UNPUBLISH} that workflow or end its test listen; or enter another webhook's ID. Nothing was changed.`,
			{
				description:
					'One webhook can start one workflow: the workflow that holds it keeps receiving its events. Create another webhook in the dashboard for this workflow if both should run.',
			},
		);
	}
	if (test && kind === 'own-production') {
		throw new NodeOperationError(
			this.getNode(),
			`${where}: this workflow is published (active in n8n 1.x) and receives its events. To test with this webhook, ${UNPUBLISH} the workflow first, or test with another webhook.`,
			{
				description:
					'"Listen for test event" would take the deliveries away from the published workflow, so it is refused and nothing was changed.',
			},
		);
	}
	if (kind === 'own-test') {
		// Reached only without the listen's note: where the webhook pointed before is unknown.
		throw new NodeOperationError(
			this.getNode(),
			`${where}: this workflow's "Listen for test event" URL, and what it replaced is unknown. If a test listen is running, wait until it ends (it puts the webhook back); otherwise set the webhook's endpoint and events back in the dashboard, then ${PUBLISH} again.`,
			{
				description: 'Nothing was changed: without knowing the dashboard\'s endpoint, taking the webhook could lose it.',
			},
		);
	}
}

/** True only when the webhook already points at this URL with exactly the selected events. */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const id = webhookIdParameter.call(this);
	const url = ourUrl.call(this);
	const events = selectedEvents.call(this);
	// An unknown id throws here, naming it: activation fails instead of "creating" anything.
	const remote = await readCachingKey(this, id, true);
	assertEnabled.call(this, remote);
	const staticData = this.getWorkflowStaticData('node');
	const test = isTestListen.call(this);
	const saved = readSlot(staticData, slotOf(test));
	// A snapshot of another webhook (the ID was changed): let create hand that one back first.
	if (saved && saved.webhookId !== id) return false;
	// A test listen without a snapshot of its own (one cut short by a restart left the webhook on
	// this URL): create takes the original from the note, so that this listen's end puts it back.
	if (!saved && test) return false;
	return sameEndpoint(remote.endpoint, url) && sameEvents(remote.events, events);
}

/** Points the webhook at this URL with the selected events, after remembering what it was. */
export async function create(this: IHookFunctions): Promise<boolean> {
	const id = webhookIdParameter.call(this);
	const url = ourUrl.call(this);
	const urls = urlsOf.call(this, url);
	const events = selectedEvents.call(this);
	const staticData = this.getWorkflowStaticData('node');
	const test = isTestListen.call(this);
	const slot = slotOf(test);

	const earlier = readSlot(staticData, slot);
	if (earlier && earlier.webhookId !== id) {
		// The Webhook ID changed while a snapshot of the previous one was kept: hand that one back.
		await restore.call(this, earlier.webhookId, [earlier.replacedBy, url], urls, test, earlier);
		delete staticData[slot];
	}

	const fetched = await readCachingKey(this, id, true);
	assertEnabled.call(this, fetched);
	const seen = sight(fetched, urls);
	// On this node's URL with its note: the note says what the dashboard had (a test listen never
	// takes it from production). Outside n8n, a note is left over and not the user's text.
	const original = notedOriginal(seen, urls, test ? ['own-test'] : OWN);
	const remote = leftoverNoteRemoved(seen) ?? fetched;
	if (!original) assertNotHeld.call(this, seen, test);
	// Only an endpoint outside n8n is the dashboard's: remember it (a newer one replaces an older).
	// Pointing here already (re-activation, republishing), there is nothing new to remember.
	const dashboard = original ?? (seen.kind === 'external' ? remote : undefined);
	const kept = readSlot(staticData, slot);
	if (dashboard) staticData[slot] = snapshot(dashboard, url, events);
	// Re-pointed here already: the events written now are the ones to find when putting back.
	else if (kept && kept.webhookId === id && !sameEvents(kept.wroteEvents ?? [], events)) {
		staticData[slot] = { ...kept, wroteEvents: [...events] };
	}
	const description = (original ?? remote).description;
	// The note only on a description the service showed us: one left out of its answer would be
	// overwritten without our knowing what to put back.
	const noted = dashboard !== undefined && description !== undefined;
	await putWebhook.call(
		this,
		{
			endpoint: url,
			events,
			name: remote.name,
			description: noted
				? withBorrowNote(description, {
						endpoint: dashboard.endpoint,
						events: dashboard.events,
						holder: url,
						since: new Date().toISOString(),
						workflow: this.getWorkflow().name,
					})
				: description,
		},
		id,
	);
	return true;
}

/** Puts back the remembered endpoint and events, then forgets them. */
export async function deleteWebhook(this: IHookFunctions): Promise<boolean> {
	const url = ourUrl.call(this);
	const staticData = this.getWorkflowStaticData('node');
	const urls = urlsOf.call(this, url);
	const test = isTestListen.call(this, { url, urls, staticData });
	const slot = slotOf(test);
	const saved = readSlot(staticData, slot);
	if (saved) {
		await restore.call(this, saved.webhookId, [saved.replacedBy, url], urls, test, saved);
		delete staticData[slot];
		forgetSigningKey(signingKeyCacheKeyOf.call(this, saved.webhookId));
		return true;
	}
	// No snapshot, yet the webhook may be ours: n8n 1.x clears the webhooks of an activation that
	// failed on another node with the static data saved before it. Its note is put back then.
	let id: string;
	try {
		id = webhookIdParameter.call(this);
	} catch {
		return true; // no valid Webhook ID: no webhook was taken
	}
	if (await restore.call(this, id, [url], urls, test)) forgetSigningKey(signingKeyCacheKeyOf.call(this, id));
	return true;
}
