/**
 * `hookHarness`: calls a trigger's `webhookMethods[<name>].checkExists|create|delete` with
 * n8n-core's real `HookContext`, the way n8n's `WebhookService.runWebhookMethod` does, and
 * keeps static data between calls the way `ActiveWorkflowManager` does.
 */
import { HookContext } from 'n8n-core';
import type {
	IDataObject,
	INodeParameters,
	WebhookSetupMethodNames,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import type { Workflow } from 'n8n-workflow';

import { nodeKey, toStored, type StaticDataStore } from './staticData';
import { TriggerWorkflow, type NodeTypeSource, type TriggerOptions } from './triggerWorkflow';

export interface HookCall {
	method: WebhookSetupMethodNames;
	/** The method's return value (`undefined` when the node has no such method). */
	result?: boolean;
	error?: Error;
	/** The node's static data as the call left it in memory (saved only if the call succeeded). */
	staticData: IDataObject;
}

export interface HookHarness {
	/** What `this.getNodeWebhookUrl('default')` returns to the node. */
	readonly webhookUrl: string;
	readonly nodeName: string;
	/** The node's static data as n8n has it stored now (a copy). */
	readonly staticData: IDataObject;
	/** The "database row" of static data; pass it to another harness or `webhookServer` to share it. */
	readonly store: StaticDataStore;
	/** Every lifecycle call, in order. */
	readonly calls: HookCall[];
	/** Single method, on a freshly loaded workflow; static data is saved if it succeeded. */
	checkExists(): Promise<boolean | undefined>;
	create(): Promise<boolean | undefined>;
	delete(): Promise<boolean | undefined>;
	/**
	 * What n8n does when the workflow is activated (`addWebhooks` → `createWebhookIfNotExists`):
	 * `checkExists`, then `create` when that returned false, on one loaded workflow, then save.
	 * When either throws, n8n runs `deactivate()` (its `clearWebhooks`) on the stored data and
	 * rethrows; the failed attempt's static data is not saved. Mode `trigger`.
	 */
	activate(activation?: WorkflowActivateMode): Promise<{ existed: boolean; created?: boolean }>;
	/** What n8n does on deactivation (`clearWebhooks`): `delete` in mode `internal`, activation `update`. */
	deactivate(): Promise<boolean | undefined>;
}

export function hookHarness(
	nodeType: NodeTypeSource,
	parameters: INodeParameters,
	options: TriggerOptions = {},
): HookHarness {
	const trigger = new TriggerWorkflow(nodeType, parameters, options);
	const calls: HookCall[] = [];

	const runMethod = async (
		method: WebhookSetupMethodNames,
		workflow: Workflow,
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
	): Promise<boolean | undefined> => {
		const additionalData = trigger.additionalData();
		const webhookData = trigger.webhookData(workflow, additionalData);
		const node = workflow.getNode(webhookData.node)!;
		const type = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const fn = type.webhookMethods?.[webhookData.webhookDescription.name]?.[method];
		if (fn === undefined) return undefined;
		const context = new HookContext(workflow, node, additionalData, mode, activation, webhookData);
		return (await fn.call(context)) as boolean;
	};

	const record = (
		method: WebhookSetupMethodNames,
		workflow: Workflow,
		result?: boolean,
		error?: Error,
	) => {
		const live = workflow.staticData[nodeKey(trigger.node.name)] as IDataObject | undefined;
		calls.push({ method, result, error, staticData: toStored(live ?? {}) });
	};

	const single = (method: WebhookSetupMethodNames, mode: WorkflowExecuteMode, activation: WorkflowActivateMode) =>
		async () => {
			const workflow = trigger.loadWorkflow();
			try {
				const result = await runMethod(method, workflow, mode, activation);
				trigger.store.saveFrom(workflow);
				record(method, workflow, result);
				return result;
			} catch (error) {
				record(method, workflow, undefined, error as Error);
				throw error;
			}
		};

	const deactivate = single('delete', 'internal', 'update');

	const harness: HookHarness = {
		get webhookUrl() {
			const workflow = trigger.loadWorkflow();
			const additionalData = trigger.additionalData();
			const { path } = trigger.webhookData(workflow, additionalData);
			return `${additionalData.webhookBaseUrl}/${path}`;
		},
		nodeName: trigger.node.name,
		get staticData() {
			return trigger.staticData;
		},
		store: trigger.store,
		calls,
		checkExists: single('checkExists', 'trigger', 'activate'),
		create: single('create', 'trigger', 'activate'),
		delete: single('delete', 'internal', 'update'),
		deactivate,
		async activate(activation: WorkflowActivateMode = 'activate') {
			const workflow = trigger.loadWorkflow();
			let method: WebhookSetupMethodNames = 'checkExists';
			try {
				const existed = (await runMethod('checkExists', workflow, 'trigger', activation)) === true;
				record('checkExists', workflow, existed);
				if (existed) {
					trigger.store.saveFrom(workflow);
					return { existed };
				}
				method = 'create';
				const created = await runMethod('create', workflow, 'trigger', activation);
				record('create', workflow, created);
				trigger.store.saveFrom(workflow);
				return { existed, created };
			} catch (error) {
				record(method, workflow, undefined, error as Error);
				try {
					await deactivate();
				} catch {
					// n8n logs and reports this one, then rethrows the activation error.
				}
				throw error;
			}
		},
	};
	return harness;
}
