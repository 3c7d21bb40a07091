/**
 * The one-trigger workflow shared by `hookHarness` and `webhookServer`: node, `Workflow`
 * (rebuilt from the static-data store for every call, as n8n reloads it) and the
 * `IWebhookData` n8n's `WebhookService.getNodeWebhooks` would derive for it.
 */
import { NodeHelpers, UnexpectedError, Workflow } from 'n8n-workflow';
import type {
	ICredentialType,
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { makeAdditionalData } from './additionalData';
import { HarnessCredentialsHelper, type CredentialValues } from './credentials';
import { defaultVersionOf, fullTypeName, HarnessNodeTypes } from './nodeTypes';
import { StaticDataStore } from './staticData';

export interface TriggerOptions {
	/** Credential values by type, e.g. `{ recruitingApi: { baseUrl, companyId, accessToken } }`. */
	credentials?: CredentialValues;
	/** Credential classes whose `authenticate` is applied, e.g. `[new RecruitingApi()]`. */
	credentialTypes?: ICredentialType[];
	/**
	 * The node's static data to start from (what `getWorkflowStaticData('node')` returns), or a
	 * `StaticDataStore` to share with another harness / server (one "database row").
	 */
	staticData?: IDataObject | StaticDataStore;
	typeVersion?: number;
	/** Default: the type's `defaults.name`. */
	nodeName?: string;
	/** The node's `webhookId` (first segment of its production URL). */
	webhookId?: string;
	workflowId?: string;
	/** Production webhook base, default `http://127.0.0.1:5678/webhook`. */
	webhookBaseUrl?: string;
	/** Which of the node's webhooks (`description.webhooks[].name`). */
	webhookName?: string;
}

export const DEFAULT_WEBHOOK_ID = '5f1c2d3e-harness-webhook';

/**
 * The node type a harness runs: an instance, or a function that returns the instance to use now.
 * A function is called for every hook call and every request (each loads the workflow afresh, as
 * n8n does), so a test can replace the n8n process behind the same URLs and static data
 * (`RestartableProcess` in freshProcess.ts). It must return the same type (name, versions).
 */
export type NodeTypeSource = INodeType | IVersionedNodeType | (() => INodeType | IVersionedNodeType);

export class TriggerWorkflow {
	private readonly nodeTypeNow: () => INodeType | IVersionedNodeType;

	private readonly typeName: string;

	readonly credentialsHelper: HarnessCredentialsHelper;

	readonly store: StaticDataStore;

	readonly node: INode;

	readonly workflowId: string;

	readonly webhookName: string;

	webhookBaseUrl: string | undefined;

	constructor(
		source: NodeTypeSource,
		parameters: INodeParameters,
		private readonly options: TriggerOptions,
	) {
		this.nodeTypeNow = typeof source === 'function' ? source : () => source;
		const nodeType = this.nodeTypeNow();
		const typeName = fullTypeName(nodeType.description.name);
		this.typeName = typeName;
		const credentials = options.credentials ?? {};
		this.credentialsHelper = new HarnessCredentialsHelper(options.credentialTypes ?? [], credentials);
		const typeVersion = options.typeVersion ?? defaultVersionOf(nodeType);
		const description = this.nodeTypes().getByNameAndVersion(typeName, typeVersion).description;
		this.node = {
			id: 'trigger-node',
			name: options.nodeName ?? (description.defaults?.name as string | undefined) ?? description.displayName,
			type: typeName,
			typeVersion,
			position: [0, 0],
			parameters: structuredClone(parameters),
			webhookId: options.webhookId ?? DEFAULT_WEBHOOK_ID,
			credentials: Object.fromEntries(
				Object.keys(credentials).map((c) => [c, { id: `cred-${c}`, name: c }]),
			),
		};
		this.workflowId = options.workflowId ?? 'harness-trigger-workflow';
		this.webhookName = options.webhookName ?? 'default';
		this.webhookBaseUrl = options.webhookBaseUrl;
		const { staticData } = options;
		if (staticData instanceof StaticDataStore) {
			this.store = staticData;
		} else {
			this.store = new StaticDataStore();
			if (staticData) this.store.setNode(this.node.name, staticData);
		}
	}

	/** The node-type registry over the node type to use now. */
	nodeTypes(): HarnessNodeTypes {
		return new HarnessNodeTypes({ [this.typeName]: this.nodeTypeNow() });
	}

	/** A fresh `Workflow` loaded with the stored static data, as n8n builds for every call. */
	loadWorkflow(): Workflow {
		return new Workflow({
			id: this.workflowId,
			name: 'Harness trigger workflow',
			nodes: [structuredClone(this.node)],
			connections: {},
			active: true,
			nodeTypes: this.nodeTypes(),
			staticData: this.store.load(),
			settings: { executionOrder: 'v1' },
		});
	}

	additionalData(executionId?: string): IWorkflowExecuteAdditionalData {
		return makeAdditionalData({
			credentialsHelper: this.credentialsHelper,
			webhookBaseUrl: this.webhookBaseUrl,
			workflowId: this.workflowId,
			executionId,
		});
	}

	/** `WebhookService.getNodeWebhooks` for our single node and the chosen webhook. */
	webhookData(workflow: Workflow, additionalData: IWorkflowExecuteAdditionalData): IWebhookData {
		const node = workflow.getNode(this.node.name)!;
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const description = nodeType.description.webhooks?.find((w) => w.name === this.webhookName);
		if (!description) {
			throw new UnexpectedError(`Harness: node has no webhook named "${this.webhookName}"`);
		}
		const expr = workflow.expression;
		let path = String(expr.getSimpleParameterValue(node, description.path, 'internal', {}) ?? '');
		path = path.replace(/^\//, '').replace(/\/$/, '');
		const isFullPath = expr.getSimpleParameterValue(
			node,
			description.isFullPath,
			'internal',
			{},
			undefined,
			false,
		) as boolean;
		const httpMethod = String(
			expr.getSimpleParameterValue(node, description.httpMethod, 'internal', {}, undefined, 'GET'),
		).split(',')[0].trim() as IHttpRequestMethods;
		return {
			httpMethod,
			node: node.name,
			path: NodeHelpers.getNodeWebhookPath(this.workflowId, node, path, isFullPath),
			webhookDescription: description,
			workflowId: this.workflowId,
			workflowExecuteAdditionalData: additionalData,
			webhookId: node.webhookId,
		};
	}

	/** The node's static data as stored now (a copy). */
	get staticData(): IDataObject {
		return this.store.node(this.node.name);
	}
}
