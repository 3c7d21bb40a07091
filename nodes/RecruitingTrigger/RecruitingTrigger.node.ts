import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { PARENT_STAGE_OPTIONS } from '../shared/stages';
import { inRun, URGENT_RUN } from '../shared/transport';
import { WEBHOOK_EVENT_OPTIONS } from '../shared/events';
import { receiveDelivery, SECRET_HEADER_NAMES } from './delivery';
import { TRIGGER_PANEL, WEBHOOK_NOTICE } from './texts';
import { checkExists, create, deleteWebhook } from './lifecycle';
import { DUPLICATE_WINDOW_MINUTES, HELD_DELIVERIES_PER_SECOND } from './seenDeliveries';
import { SIGNING_KEY_MAX_AGE_SECONDS } from './signingKeys';

/**
 * Starts a workflow for each verified delivery of a webhook created in the service's dashboard.
 * Lifecycle in lifecycle.ts, deliveries in delivery.ts, the signature check in ../shared/signature.ts.
 */
export class RecruitingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Recruiting Trigger',
		name: 'recruitingTrigger',
		icon: { light: 'file:../Recruiting/recruiting.svg', dark: 'file:../Recruiting/recruiting.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Events: " + $parameter["events"].join(", ")}}',
		// n8n's node panel merges this node with the Recruiting node into one entry and shows this
		// description on it: it speaks for both.
		description:
			'Work with jobs, candidates, applications and interviews in the recruiting service, or start a workflow when it sends a webhook event',
		defaults: { name: 'Recruiting Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'recruitingApi', required: true }],
		// What the Include Headers option could carry that n8n must always redact, as its Webhook node
		// declares: the headers the trigger already leaves out (delivery.ts), in case one slips through.
		sensitiveOutputFields: SECRET_HEADER_NAMES.map((name) => `headers.${name}`),
		triggerPanel: TRIGGER_PANEL,
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName: WEBHOOK_NOTICE,
				name: 'notice',
				type: 'notice',
				default: '',
			},
			// Not `required`: n8n leaves the whole trigger panel empty while a required parameter is
			// empty. Both are checked when the webhook is taken, with an error that says what to enter.
			{
				displayName: 'Webhook ID',
				name: 'webhookId',
				type: 'string',
				default: '',
				placeholder: 'wh_abc123',
				description: "The ID of the webhook, as shown in the service's dashboard (needed)",
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: WEBHOOK_EVENT_OPTIONS,
				default: [],
				description: 'The events that start the workflow (at least one); the webhook is subscribed to exactly these',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Drop Duplicate Deliveries',
						name: 'dropDuplicates',
						type: 'boolean',
						default: true,
						description:
							`Whether to answer a delivery whose message ID (messageId in the output) this n8n process accepted in the last ${DUPLICATE_WINDOW_MINUTES} minutes with 200 and start nothing (the service re-sends a delivery when it missed the answer); every ID is kept that long up to ${HELD_DELIVERIES_PER_SECOND} deliveries a second. Best effort with several queue-mode webhook processes: for a guarantee, insert messageId into a database table with a unique key and continue only when the insert succeeded (see the Duplicates part of the trigger's documentation).`,
					},
					{
						displayName: 'Ignore Unselected Events',
						name: 'ignoreUnselectedEvents',
						type: 'boolean',
						default: true,
						description:
							'Whether to answer a delivery of a known event that is not selected above with 200 and start nothing. Event names the node does not know yet always pass through.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers to the output item. Credential-bearing headers (Authorization, Proxy-Authorization, Cookie, API keys, tokens) are always left out.',
					},
					{
						displayName: 'Job IDs',
						name: 'jobIds',
						type: 'string',
						default: '',
						placeholder: 'job_abc123, job_def456',
						description:
							"Only start for events about these jobs (comma-separated). Application events match on the application's job, job events on the job itself, interview events on their job. Events that name no job always pass.",
					},
					{
						displayName: 'Parent Stages',
						name: 'parentStages',
						type: 'multiOptions',
						options: PARENT_STAGE_OPTIONS,
						default: [],
						description:
							"Only start for application events whose application is in one of these stages. Other events, and applications without a stage, always pass.",
					},
					{
						displayName: 'Signing Key Max Age (Seconds)',
						name: 'signingKeyMaxAge',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: SIGNING_KEY_MAX_AGE_SECONDS },
						default: SIGNING_KEY_MAX_AGE_SECONDS,
						description:
							`How long a fetched signing key is used before it is fetched again (at most ${SIGNING_KEY_MAX_AGE_SECONDS / 60} minutes). After a key is rotated in the dashboard, deliveries signed with the old one are refused at the latest this long after.`,
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			// Each hook and delivery is an urgent run of its own: someone activates the workflow, a sender waits.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await inRun(this, URGENT_RUN, async () => await checkExists.call(this));
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await inRun(this, URGENT_RUN, async () => await create.call(this));
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await inRun(this, URGENT_RUN, async () => await deleteWebhook.call(this));
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await inRun(this, URGENT_RUN, async () => await receiveDelivery.call(this));
	}
}
