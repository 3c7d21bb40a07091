/**
 * Node-type registry for the harness: n8n's `INodeTypes` over node classes passed in by the test
 * (so ts-jest compiles our TypeScript sources), plus the harness's own start node.
 *
 * Version selection is n8n's own `NodeHelpers.getVersionedNodeType`, so `VersionedNodeType`
 * shells (`new RecruitingTrigger().getNodeType(2)`-style) resolve exactly as in n8n.
 */
import { isNodeClassInstance, NodeConnectionTypes, NodeHelpers, UnexpectedError } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';

/** Package prefix of our node types, as n8n names a community package's nodes. */
export const PACKAGE_NAME = 'n8n-nodes-recruiting';

export const START_NODE_TYPE = 'harness.start';

/**
 * Stand-in for n8n's Manual Trigger: a node with no inputs that passes on the items the
 * harness puts on the execution stack for it (as n8n's own harness does with `trigger.input`).
 */
export class HarnessStart implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Start',
		name: 'start',
		group: ['input'],
		version: 1,
		description: 'Emits the test input items',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export type NodeTypeMap = Record<string, INodeType | IVersionedNodeType>;

/** `recruiting` → `n8n-nodes-recruiting.recruiting`; names that already have a dot stay. */
export function fullTypeName(name: string): string {
	return name.includes('.') ? name : `${PACKAGE_NAME}.${name}`;
}

/** The version n8n would give a new node of this type (its default / latest version). */
export function defaultVersionOf(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** Receives what a node's `execute` threw, before n8n's engine copies it into run data. */
export type ThrowObserver = (nodeName: string, error: unknown) => void;

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	private readonly observed = new Map<INodeType, INodeType>();

	/**
	 * @param onThrow when given, `execute` is wrapped (same `this`, same arguments, same result)
	 * so the error instance a node throws can be handed to the test as thrown.
	 */
	constructor(
		nodeTypes: NodeTypeMap,
		private readonly onThrow?: ThrowObserver,
	) {
		this.types.set(START_NODE_TYPE, new HarnessStart());
		for (const [name, type] of Object.entries(nodeTypes)) this.types.set(fullTypeName(name), type);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) {
			throw new UnexpectedError(`Harness: unknown node type "${nodeType}"`, {
				extra: { known: [...this.types.keys()] },
			});
		}
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const type = NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
		return this.onThrow && type.execute ? this.observe(type) : type;
	}

	private observe(type: INodeType): INodeType {
		let wrapped = this.observed.get(type);
		if (wrapped) return wrapped;
		const execute = type.execute!;
		const onThrow = this.onThrow!;
		wrapped = Object.create(type) as INodeType;
		wrapped.execute = async function (this: unknown, ...args: unknown[]) {
			try {
				return await (execute as (...a: unknown[]) => unknown).apply(this, args);
			} catch (error) {
				const context = (isNodeClassInstance(type) ? args[0] : this) as { getNode(): INode };
				onThrow(context.getNode().name, error);
				throw error;
			}
		} as INodeType['execute'];
		this.observed.set(type, wrapped);
		return wrapped;
	}

	getKnownTypes() {
		return {};
	}
}
