/**
 * `runNode`: runs `Start → node[0] → node[1] …` through n8n-core's `WorkflowExecute`, in process.
 */
import { WorkflowExecute } from 'n8n-core';
import { createRunExecutionData, ExecutionBaseError, Workflow } from 'n8n-workflow';
import type {
	ExecutionError,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IRunData,
	IWorkflowBase,
	IWorkflowSettings,
} from 'n8n-workflow';

import { makeAdditionalData, makeHooks } from './additionalData';
import { HarnessCredentialsHelper, type CredentialValues } from './credentials';
import {
	defaultVersionOf,
	fullTypeName,
	HarnessNodeTypes,
	START_NODE_TYPE,
	type NodeTypeMap,
} from './nodeTypes';

export interface NodeSpec {
	/** Key in `nodeTypes` (`'recruiting'`) or a full type name (`'n8n-nodes-recruiting.recruiting'`). */
	type: string;
	parameters?: INodeParameters;
	/** Defaults to the type's default (newest) version. */
	typeVersion?: number;
	/** Defaults to the type's `defaults.name`, made unique. */
	name?: string;
	/** n8n's node setting; `'continueRegularOutput'` is the UI's "Continue" (continueOnFail). */
	onError?: INode['onError'];
	alwaysOutputData?: boolean;
	executeOnce?: boolean;
	disabled?: boolean;
	/** Credential slots on the node; default: one slot per entry in `credentials`. */
	credentials?: INode['credentials'];
}

export interface RunNodeOptions {
	nodeTypes: NodeTypeMap;
	/** One node (the usual case) … */
	node?: NodeSpec;
	/** … or a chain run in order after Start; results are for its last node. */
	chain?: NodeSpec[];
	/** Items Start emits; plain objects are wrapped as `{ json }`. Default: one empty item. */
	input?: Array<IDataObject | INodeExecutionData>;
	/** Credential values by type name, e.g. `{ recruitingApi: { baseUrl, companyId, accessToken } }`. */
	credentials?: CredentialValues;
	/** Credential classes whose `authenticate` is applied, e.g. `[new RecruitingApi()]`. */
	credentialTypes?: ICredentialType[];
	/** Workflow static data (`{ 'node:<name>': {...}, global: {...} }`). */
	staticData?: IDataObject;
	settings?: IWorkflowSettings;
	mode?: 'manual' | 'trigger' | 'webhook' | 'internal';
}

export interface RunNodeResult {
	/** Main output 0 of the last node in the chain (empty when it failed or did not run). */
	items: INodeExecutionData[];
	/** Every main output of that node. */
	outputs: INodeExecutionData[][];
	/**
	 * The error n8n recorded on a node's task (the first such node in run order): the
	 * NodeApiError / NodeOperationError instance the node threw (message, description,
	 * `context.itemIndex`, `httpCode`), else n8n's stored copy. Also set when the node ran with
	 * `onError: 'continueRegularOutput'` and n8n's engine turned the throw into an error item,
	 * as n8n's UI shows it; `status` tells whether the execution failed.
	 */
	error?: ExecutionError;
	/** Exactly what n8n stored in run data for that error (a plain copy). */
	recordedError?: ExecutionError;
	/** Name of the node the error belongs to. */
	errorNode?: string;
	/**
	 * n8n's execution status: 'success', 'error', … Note n8n reports 'error' when the *last*
	 * node continued on error (its error stays the execution's error); check `items` then.
	 */
	status: IRun['status'];
	runData: IRunData;
	run: IRun;
	/** Names of the nodes in the order n8n ran them. */
	executionOrder: string[];
	workflow: Workflow;
	credentialsHelper: HarnessCredentialsHelper;
	/** Node names, Start first. */
	nodeNames: string[];
}

function toItem(entry: IDataObject | INodeExecutionData): INodeExecutionData {
	const isItem =
		typeof entry.json === 'object' &&
		entry.json !== null &&
		Object.keys(entry).every((k) => ['json', 'binary', 'pairedItem', 'error'].includes(k));
	return isItem ? (entry as INodeExecutionData) : { json: entry as IDataObject };
}

let executionCounter = 0;

export function buildNodes(nodeTypes: HarnessNodeTypes, specs: NodeSpec[], credentials: CredentialValues) {
	const used = new Set<string>(['Start']);
	const nodes: INode[] = specs.map((spec, index) => {
		const type = fullTypeName(spec.type);
		const registered = nodeTypes.getByName(type);
		const typeVersion = spec.typeVersion ?? defaultVersionOf(registered);
		const description = nodeTypes.getByNameAndVersion(type, typeVersion).description;
		let name = spec.name ?? (description.defaults?.name as string | undefined) ?? description.displayName;
		if (!spec.name) {
			const base = name;
			for (let n = 1; used.has(name); n++) name = `${base}${n}`;
		}
		used.add(name);
		const slots =
			spec.credentials ??
			Object.fromEntries(Object.keys(credentials).map((c) => [c, { id: `cred-${c}`, name: c }]));
		return {
			id: `node-${index + 1}`,
			name,
			type,
			typeVersion,
			position: [200 * (index + 1), 0],
			parameters: structuredClone(spec.parameters ?? {}),
			credentials: slots,
			webhookId: `webhook-${index + 1}`,
			...(spec.onError && { onError: spec.onError }),
			...(spec.alwaysOutputData !== undefined && { alwaysOutputData: spec.alwaysOutputData }),
			...(spec.executeOnce !== undefined && { executeOnce: spec.executeOnce }),
			...(spec.disabled !== undefined && { disabled: spec.disabled }),
		} as INode;
	});
	return nodes;
}

export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const specs = options.chain ?? (options.node ? [options.node] : []);
	if (specs.length === 0) throw new Error('runNode: give `node` or `chain`');
	const credentials = options.credentials ?? {};
	const thrown = new Map<string, unknown>();
	const nodeTypes = new HarnessNodeTypes(options.nodeTypes, (nodeName, error) => thrown.set(nodeName, error));
	const credentialsHelper = new HarnessCredentialsHelper(options.credentialTypes ?? [], credentials);

	const start: INode = {
		id: 'node-0',
		name: 'Start',
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes = [start, ...buildNodes(nodeTypes, specs, credentials)];
	const connections: IConnections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = {
			main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]],
		};
	}
	const settings: IWorkflowSettings = { executionOrder: 'v1', ...options.settings };
	const workflowId = 'harness-workflow';
	const workflow = new Workflow({
		id: workflowId,
		name: 'Harness workflow',
		nodes,
		connections,
		nodeTypes,
		active: false,
		settings,
		staticData: structuredClone(options.staticData ?? {}),
	});

	const mode = options.mode ?? 'manual';
	const executionId = String(++executionCounter);
	const workflowData = {
		id: workflowId,
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as unknown as IWorkflowBase;
	const hooks = makeHooks(mode, executionId, workflowData);
	const executionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});

	const additionalData = makeAdditionalData({
		credentialsHelper,
		hooks,
		executionId,
		workflowId,
	});

	const input = (options.input ?? [{ json: {} }]).map(toItem);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: start, data: { main: [input] }, source: null }],
		},
	});
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	// Resolves after the workflowExecuteAfter hooks have run.
	const run = await workflowExecute.processRunExecutionData(workflow);

	const runData = run.data.resultData.runData;
	const last = nodes[nodes.length - 1].name;
	const outputs = runData[last]?.[0]?.data?.main?.map((o) => o ?? []) ?? [];
	let recordedError: ExecutionError | undefined;
	let errorNode: string | undefined;
	for (const name of executionOrder) {
		const taskError = runData[name]?.find((task) => task.error)?.error;
		if (taskError) {
			recordedError = taskError;
			errorNode = name;
			break;
		}
	}
	if (!recordedError && run.data.resultData.error) {
		recordedError = run.data.resultData.error;
		errorNode = run.data.resultData.lastNodeExecuted;
	}
	// n8n stores a plain copy (`{ ...error, message, stack }`); hand back the instance the node
	// threw when it is one of n8n's execution errors, so `instanceof NodeApiError` works.
	const original = errorNode === undefined ? undefined : thrown.get(errorNode);
	const error =
		recordedError && original instanceof ExecutionBaseError ? (original as ExecutionError) : recordedError;
	return {
		items: outputs[0] ?? [],
		outputs,
		error,
		recordedError,
		errorNode,
		status: run.status,
		runData,
		run,
		executionOrder,
		workflow,
		credentialsHelper,
		nodeNames: nodes.map((n) => n.name),
	};
}
