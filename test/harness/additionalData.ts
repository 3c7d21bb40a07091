/**
 * The hand-made `IWorkflowExecuteAdditionalData`: what n8n's CLI builds in
 * `WorkflowExecuteAdditionalData.getBase()`, cut to what node code can reach. n8n's own
 * harness uses a deep mock here; this one is explicit so that a node reaching for something
 * unsupported fails loudly instead of receiving a mock function.
 */
import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import { UnexpectedError } from 'n8n-workflow';
import type { ICredentialsHelper, IWorkflowBase, IWorkflowExecuteAdditionalData, WorkflowExecuteMode } from 'n8n-workflow';

/** Where a fake n8n instance would live; every URL n8n derives from it is absolute. */
export const DEFAULT_INSTANCE_BASE_URL = 'http://127.0.0.1:5678';

export interface AdditionalDataOptions {
	credentialsHelper: ICredentialsHelper;
	hooks?: ExecutionLifecycleHooks;
	executionId?: string;
	/** Base for production webhook URLs, `<webhookBaseUrl>/<webhookId>/<path>`; default `<instance>/webhook`. */
	webhookBaseUrl?: string;
	instanceBaseUrl?: string;
	workflowId?: string;
}

const notSupported = (what: string) => () => {
	throw new UnexpectedError(`Harness: ${what} is not supported`);
};

export function makeAdditionalData(options: AdditionalDataOptions): IWorkflowExecuteAdditionalData {
	const instance = (options.instanceBaseUrl ?? DEFAULT_INSTANCE_BASE_URL).replace(/\/$/, '');
	const webhookBaseUrl = (options.webhookBaseUrl ?? `${instance}/webhook`).replace(/\/$/, '');
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${instance}/rest`,
		instanceBaseUrl: `${instance}/`,
		formBaseUrl: `${instance}/form`,
		formWaitingBaseUrl: `${instance}/form-waiting`,
		formTestBaseUrl: `${instance}/form-test`,
		webhookBaseUrl,
		webhookWaitingBaseUrl: `${instance}/webhook-waiting`,
		webhookTestBaseUrl: `${instance}/webhook-test`,
		mcpBaseUrl: `${instance}/mcp`,
		mcpTestBaseUrl: `${instance}/mcp-test`,
		variables: {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: notSupported('executeWorkflow (sub-workflows)'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: notSupported('startRunnerTask (Code node task runners)'),
	} as IWorkflowExecuteAdditionalData;
}

/** Lifecycle hooks as n8n's harness makes them: real `ExecutionLifecycleHooks`, no DB/push handlers. */
export function makeHooks(
	mode: WorkflowExecuteMode,
	executionId: string,
	workflowData: IWorkflowBase,
): ExecutionLifecycleHooks {
	return new ExecutionLifecycleHooks(mode, executionId, workflowData);
}
