import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { forgetSigningKey } from './signingKeys';
import type { RemoteWebhook } from './webhookApi';
import {
	findWebhook,
	getWebhook,
	putWebhook,
	sameEvents,
	signingKeySource,
	webhookIdParameter,
} from './webhookApi';

/**
 * The webhook is created in the service's dashboard; the trigger borrows it. Activation points
 * it at n8n, deactivation puts back what was there. What was there is kept in the node's static
 * data (it survives restarts and lives with the workflow), and only that: never the signing key.
 *
 * Two slots, so that "Listen for test event" on an active workflow cannot undo production:
 * - `originalWebhook`: the dashboard's endpoint and events before the first production activation.
 *   Written once; repeated activations, restarts and republishing leave it alone.
 * - `webhookBeforeTest`: what the webhook pointed at when a test listen began (the original, or
 *   the production URL while the workflow is active); restored when the test listen ends.
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
	};
}

function snapshot(remote: RemoteWebhook, replacedBy: string): SavedWebhook {
	// Pick fields one by one: nothing else of the webhook (its signing key above all) is stored.
	const saved: SavedWebhook = {
		webhookId: remote.id,
		endpoint: remote.endpoint,
		events: [...remote.events],
		replacedBy,
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

function isTestListen(this: IHookFunctions): boolean {
	return this.getActivationMode() === 'manual';
}

/**
 * Puts a snapshot back, unless someone else has re-pointed the webhook since we took it over
 * (then their change stands). A webhook deleted meanwhile is fine: there is nothing to restore.
 */
async function restore(this: IHookFunctions, saved: SavedWebhook, urls: string[]): Promise<void> {
	const remote = await findWebhook.call(this, saved.webhookId);
	if (!remote || !urls.includes(remote.endpoint)) return;
	await putWebhook.call(this, saved, saved.webhookId, { allowNotFound: true });
}

/** True only when the webhook already points at this URL with exactly the selected events. */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const id = webhookIdParameter.call(this);
	const url = ourUrl.call(this);
	const events = selectedEvents.call(this);
	// An unknown id throws here, naming it: activation fails instead of "creating" anything.
	const remote = await getWebhook.call(this, id);
	const staticData = this.getWorkflowStaticData('node');
	const slot = isTestListen.call(this) ? TEST_SLOT : ORIGINAL_SLOT;
	const saved = readSlot(staticData, slot);
	// A snapshot of another webhook (the ID was changed): let create hand that one back first.
	if (saved && saved.webhookId !== id) return false;
	return remote.endpoint === url && sameEvents(remote.events, events);
}

/** Points the webhook at this URL with the selected events, after remembering what it was. */
export async function create(this: IHookFunctions): Promise<boolean> {
	const id = webhookIdParameter.call(this);
	const url = ourUrl.call(this);
	const events = selectedEvents.call(this);
	const staticData = this.getWorkflowStaticData('node');
	const slot = isTestListen.call(this) ? TEST_SLOT : ORIGINAL_SLOT;

	const earlier = readSlot(staticData, slot);
	if (earlier && earlier.webhookId !== id) {
		// The Webhook ID changed while a snapshot of the previous one was kept: hand that one back.
		await restore.call(this, earlier, [earlier.replacedBy, url]);
		delete staticData[slot];
	}

	const remote = await getWebhook.call(this, id);
	// Remember the original once. If the webhook already points here and nothing is remembered,
	// there is no original to keep: our own URL must never become the "original".
	if (!readSlot(staticData, slot) && remote.endpoint !== url) {
		staticData[slot] = snapshot(remote, url);
	}
	await putWebhook.call(
		this,
		{ endpoint: url, events, name: remote.name, description: remote.description },
		id,
	);
	return true;
}

/** Puts back the remembered endpoint and events, then forgets them. */
export async function deleteWebhook(this: IHookFunctions): Promise<boolean> {
	const url = ourUrl.call(this);
	const staticData = this.getWorkflowStaticData('node');
	const beforeTest = readSlot(staticData, TEST_SLOT);
	// n8n ends a test listen with the same call as a deactivation; the test URL tells them apart.
	const slot: Slot = beforeTest && beforeTest.replacedBy === url ? TEST_SLOT : ORIGINAL_SLOT;
	const saved = slot === TEST_SLOT ? beforeTest : readSlot(staticData, ORIGINAL_SLOT);
	if (!saved) return true;

	await restore.call(this, saved, [saved.replacedBy, url]);
	delete staticData[slot];
	forgetSigningKey((await signingKeySource.call(this, saved.webhookId)).cacheKey);
	return true;
}
