import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { PARENT_STAGE_OPTIONS } from '../Recruiting/actions/application/getMany.operation';
import { WEBHOOK_EVENT_OPTIONS } from '../shared/events';
import { receiveDelivery } from './delivery';
import { checkExists, create, deleteWebhook } from './lifecycle';

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
		description: 'Starts the workflow when the recruiting service sends a webhook event',
		defaults: { name: 'Recruiting Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'recruitingApi', required: true }],
		triggerPanel: {
			header: 'Waiting for an event from the recruiting service',
			executionsHelp: {
				inactive:
					'While testing, n8n points the webhook at its test URL. To get an event, create or change a record the webhook listens to in the recruiting service (for example move an application to another stage). In the demo, send one from a second terminal with <code>npm start -- deliver new-application</code> (or <code>deliver hired</code>). The webhook is put back when the test ends. While the workflow is active, testing with the same webhook is refused: the active workflow keeps its events.',
				active:
					'The workflow is active: every verified delivery of the selected events starts an execution. Find them in the executions list. Testing with the same webhook is refused while the workflow is active; deactivate it first, or use another webhook for tests.',
			},
			activationHint:
				'Once you are happy with the workflow, activate it: the webhook then points at this workflow until you deactivate it, when its endpoint and events are put back.',
		},
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
				displayName:
					"Create a webhook in the recruiting service's dashboard and copy its ID below. While this workflow is active the webhook points at n8n; deactivating the workflow puts its endpoint and events back.",
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Webhook ID',
				name: 'webhookId',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'wh_abc123',
				description: 'The ID of the webhook, as shown in the service\'s dashboard',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: WEBHOOK_EVENT_OPTIONS,
				default: [],
				required: true,
				description: 'The events that start the workflow; the webhook is subscribed to exactly these',
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
							"Whether to answer a delivery whose message ID (messageId in the output) this n8n process accepted in the last 10 minutes with 200 and start nothing (the service re-sends a delivery when it missed the answer). Best effort with several queue-mode webhook processes: for a guarantee, insert messageId into a database table with a unique key and continue only when the insert succeeded (see the README).",
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
						typeOptions: { minValue: 1, maxValue: 600 },
						default: 600,
						description:
							"How long a fetched signing key is used before it is fetched again (at most 10 minutes). After a key is rotated in the dashboard, deliveries signed with the old one are refused at the latest this long after.",
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteWebhook.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}
}
