/**
 * `pollHarness`: runs a polling trigger's `poll()` with n8n-core's real `PollContext`, keeping its
 * static data as n8n 2.41.1 does (../shared/n8n-polling.md and n8n's ActiveWorkflowManager):
 *
 * - activation (`activate`, `init` on a restart, `update` on republish) loads the workflow from the
 *   "database", runs the first poll at once (an error fails the activation), and saves the static data;
 * - a scheduled poll (`tick`) runs on that same loaded workflow, with the activation poll's context
 *   (n8n-core's ActiveWorkflows reuses it): its static data stays in memory
 *   between polls, and is saved only when the poll returned items (before the execution runs);
 *   a poll that throws records a failed execution and saves nothing;
 * - `manual` (Fetch Test Event) runs on a freshly loaded workflow in mode `manual` and saves nothing;
 * - `stop` (unpublish, or n8n stopping) drops the loaded workflow: what was not saved is gone.
 *
 * With `engine: 'durable'`, as n8n 2.41.1's durable polling (N8N_POLLER_DURABLE_CURSORS_ENABLED and
 * the settings it needs; its TriggerExecutionContextFactory): the node's static data is staged (a
 * copy read and written by the poll); the activation poll's staged cursor is kept only when it
 * emits, while the workflow's other static data is saved after activation as before; each scheduled
 * poll runs on a context and a workflow of its own, loaded from what is stored, with a poll budget
 * of the scheduler's, and its staged cursor is kept whether it emits or not.
 */
import { PollContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters, INodeType, Workflow, WorkflowActivateMode } from 'n8n-workflow';

import type { StaticDataStore } from './staticData';
import { TriggerWorkflow, type TriggerOptions } from './triggerWorkflow';

export interface PollOutcome {
	/** The items the poll emitted (each list one execution's items); empty when it returned null. */
	emitted: IDataObject[];
	error?: Error;
}

export interface PollHarness {
	readonly store: StaticDataStore;
	/** The node's static data as stored in the "database" now. */
	readonly staticData: IDataObject;
	/** Every item emitted in production, in order (what executions started with). */
	readonly executions: IDataObject[][];
	/** Failed polls, and failures a poll recorded itself (n8n's failed executions / error workflow). */
	readonly failures: Error[];
	activate(activation?: WorkflowActivateMode): Promise<PollOutcome>;
	tick(): Promise<PollOutcome>;
	manual(): Promise<PollOutcome>;
	stop(): void;
	/** Changes the node's parameters, as a saved edit does (takes effect at the next activation). */
	setParameters(parameters: INodeParameters): void;
}

/** Each harness is a workflow of its own (n8n's IDs are unique; a trigger may keep things per workflow in its process). */
let harnesses = 0;

export interface PollHarnessOptions extends TriggerOptions {
	engine?: 'default' | 'durable';
}

/** The budget n8n's durable scheduler gives a poll at its default timeout (45 s less its margin). */
const DURABLE_POLL_BUDGET_MS = 36_000;

export function pollHarness(nodeType: INodeType, parameters: INodeParameters, options: PollHarnessOptions = {}): PollHarness {
	const durable = options.engine === 'durable';
	harnesses += 1;
	const trigger = new TriggerWorkflow(nodeType, { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters }, {
		workflowId: `harness-poll-workflow-${harnesses}`,
		...options,
	});
	let loaded: Workflow | undefined;
	let loadedContext: PollContext | undefined;
	const executions: IDataObject[][] = [];
	const failures: Error[] = [];

	/** Durable polling's staged cursor of each context, and how it is committed into the workflow. */
	const staged = new WeakMap<PollContext, IDataObject>();
	const commit = (context: PollContext, workflow: Workflow): void => {
		const nodeData = workflow.getStaticData('node', workflow.getNode(trigger.node.name)!);
		for (const key of Object.keys(nodeData)) delete nodeData[key];
		Object.assign(nodeData, structuredClone(staged.get(context)));
	};
	const never = () => {
		throw new Error('pollHarness: n8n hands the result over itself');
	};
	/** n8n's __emitError: a failed execution (and the error workflow), the workflow staying published. */
	const recordFailure = (error: Error) => {
		failures.push(error);
	};
	const contextFor = (workflow: Workflow, mode: 'trigger' | 'manual', activation: WorkflowActivateMode, budgetMs?: number): PollContext => {
		const node = workflow.getNode(trigger.node.name)!;
		if (mode === 'manual') return new PollContext(workflow, node, trigger.additionalData(), mode, activation);
		if (!durable) return new PollContext(workflow, node, trigger.additionalData(), mode, activation, never, recordFailure);
		const cursor = JSON.parse(JSON.stringify(workflow.getStaticData('node', node))) as IDataObject;
		const context = new PollContext(workflow, node, trigger.additionalData(), mode, activation, never, recordFailure, async () => {}, async (poll) => await poll(), () => cursor, budgetMs === undefined ? undefined : () => budgetMs);
		staged.set(context, cursor);
		return context;
	};
	const run = async (context: PollContext, workflow: Workflow): Promise<IDataObject[]> => {
		const node = workflow.getNode(trigger.node.name)!;
		const type = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const result = (await type.poll!.call(context)) as INodeExecutionData[][] | null;
		return result === null ? [] : result[0].map((item) => item.json);
	};

	/** n8n's saveStaticData: written when changed, then marked clean. */
	const save = (workflow: Workflow): void => {
		trigger.store.saveFrom(workflow);
		workflow.staticData.__dataChanged = false;
	};
	const emitted = (items: IDataObject[], workflow: Workflow): void => {
		if (items.length === 0) return;
		save(workflow);
		executions.push(items);
	};

	return {
		get store() {
			return trigger.store;
		},
		get staticData() {
			return trigger.staticData;
		},
		executions,
		failures,
		async activate(activation = 'activate') {
			const workflow = trigger.loadWorkflow();
			const context = contextFor(workflow, 'trigger', activation);
			try {
				const items = await run(context, workflow);
				// Durable: the staged cursor goes with an execution; the rest of the static data is saved after activation.
				if (durable && items.length > 0) commit(context, workflow);
				emitted(items, workflow);
				save(workflow);
				loaded = workflow;
				loadedContext = context;
				return { emitted: items };
			} catch (error) {
				loaded = undefined;
				return { emitted: [], error: error as Error };
			}
		},
		async tick() {
			if (!loaded) throw new Error('pollHarness: tick() on a workflow that is not active');
			const active = loaded;
			const workflow = durable ? trigger.loadWorkflow() : active;
			const context = durable ? contextFor(workflow, 'trigger', 'update', DURABLE_POLL_BUDGET_MS) : loadedContext!;
			try {
				const items = await run(context, workflow);
				// n8n discards the result of a poll whose workflow was unpublished or republished meanwhile.
				if (loaded !== active) return { emitted: [] };
				// Durable: the staged cursor is committed with the execution, or on its own after a poll that found nothing.
				if (durable) {
					commit(context, workflow);
					save(workflow);
				}
				emitted(items, workflow);
				return { emitted: items };
			} catch (error) {
				failures.push(error as Error);
				return { emitted: [], error: error as Error };
			}
		},
		async manual() {
			try {
				const workflow = trigger.loadWorkflow();
				return { emitted: await run(contextFor(workflow, 'manual', 'manual'), workflow) };
			} catch (error) {
				return { emitted: [], error: error as Error };
			}
		},
		stop() {
			loaded = undefined;
		},
		setParameters(next: INodeParameters) {
			trigger.node.parameters = { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...structuredClone(next) };
		},
	};
}
