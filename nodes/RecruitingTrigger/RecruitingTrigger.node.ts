import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
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
						description: 'Whether to add the request headers to the output item',
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
