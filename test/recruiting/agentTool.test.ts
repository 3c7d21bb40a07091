/**
 * Agent-ready (issue #13, item 5): what n8n builds when the Recruiting node is an AI agent's tool.
 *
 * For every resource/operation, every field the operation shows is set the way n8n's editor
 * sets it for "Let the model define this parameter": `={{ $fromAI('<key>', '<the field's
 * description>', '<type>') }}`. n8n-core's own `getSchema` turns those into the tool's argument
 * schema, and n8n-workflow's `getToolDescriptionForNode` gives the tool's description; both must
 * tell the model something. The field lists come from the node description itself, so a field
 * added later without a description fails here.
 */
import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';
import {
	NodeHelpers,
	nodeNameToToolName,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
	type NodeParameterValueType,
} from 'n8n-workflow';
import { readFileSync } from 'fs';
import path from 'path';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { toolVariant } from './fixture';

const nodeType = new Recruiting();
const nodeDescription = nodeType.description;
const TYPE_VERSION = 1.1;

/** Parameter types an agent (or a person) fills with a value; the rest only group or explain. */
const FILLABLE = new Set(['string', 'number', 'boolean', 'dateTime', 'options', 'multiOptions', 'resourceLocator']);
/** Groups of fields: their children are fillable. */
const GROUPS = new Set(['collection', 'fixedCollection']);

const MIN_DESCRIPTION = 20;

type FromAiType = 'string' | 'number' | 'boolean';
const fromAiType = (property: INodeProperties): FromAiType =>
	property.type === 'number' || property.type === 'boolean' ? property.type : 'string';

/** A string literal of an n8n expression, as n8n's $fromAI parser reads it back. */
const quoted = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const fromAi = (key: string, description: string, type: FromAiType): string =>
	`={{ $fromAI(${quoted(key)}, ${quoted(description)}, ${quoted(type)}) }}`;

const isFillable = (property: INodeProperties): boolean =>
	FILLABLE.has(property.type) && property.noDataExpression !== true;

const groupsOf = (property: INodeProperties): INodePropertyCollection[] =>
	(property.options ?? []) as INodePropertyCollection[];

interface Operation {
	resource: string;
	operation: string;
	option: INodePropertyOptions;
}

const resourceProperty = nodeDescription.properties.find((p) => p.name === 'resource')!;
const operationProperties = nodeDescription.properties.filter((p) => p.name === 'operation');

const OPERATIONS: Operation[] = (resourceProperty.options as INodePropertyOptions[]).flatMap(({ value }) => {
	const resource = String(value);
	const selector = operationProperties.find((p) => p.displayOptions?.show?.resource?.includes(resource));
	if (!selector) throw new Error(`resource ${resource} has no Operation selector`);
	return (selector.options as INodePropertyOptions[]).map((option) => ({
		resource,
		operation: String(option.value),
		option,
	}));
});

/** How n8n describes the node as an AI agent's tool (`recruitingTool`): `@tool` fields shown. */
const toolDescriptionOfNode = toolVariant(nodeType).description;
/** Tool description fields (n8n's, or the node's own toolDescription per operation): for the agent's author, not the model to fill. */
const N8N_TOOL_FIELDS = new Set(['descriptionType', 'toolDescription']);

/** The tool variant's Tool Description for an operation: the text n8n hands the model by default. */
function toolDescriptionOf({ resource, operation }: Operation): string {
	const field = toolDescriptionOfNode.properties.find(
		(p) => p.name === 'toolDescription' && p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation),
	);
	if (!field) throw new Error(`${resource} → ${operation} has no Tool Description field`);
	return String(field.default);
}

/** The top-level fields n8n shows for this operation on a node of TYPE_VERSION (or its tool variant). */
function topLevelFields(
	{ resource, operation }: Operation,
	description = nodeDescription,
	set: INodeParameters = {},
): INodeProperties[] {
	const values: INodeParameters = { resource, operation, ...set };
	return description.properties.filter(
		(property) =>
			property.name !== 'resource' &&
			property.name !== 'operation' &&
			property.type !== 'notice' &&
			!N8N_TOOL_FIELDS.has(property.name) &&
			NodeHelpers.displayParameter(values, property, { typeVersion: TYPE_VERSION }, description),
	);
}

interface Filled {
	/** Where the field is: `updateFields.location.location.city`. */
	path: string;
	key: string;
	description: string;
}

/** The parameter value of one field with every fillable field in it left to the model; records each. */
function fill(property: INodeProperties, path: string, filled: Filled[]): NodeParameterValueType {
	if (isFillable(property)) {
		const key = path.replace(/\./g, '_');
		const description = property.description ?? '';
		filled.push({ path, key, description });
		const expression = fromAi(key, description, fromAiType(property));
		// The editor keeps a resource locator's shape and puts the expression in its value.
		return property.type === 'resourceLocator' ? { __rl: true, mode: 'id', value: expression } : expression;
	}
	if (property.type === 'collection') {
		const children = (property.options ?? []) as INodeProperties[];
		return Object.fromEntries(children.map((child) => [child.name, fill(child, `${path}.${child.name}`, filled)]));
	}
	if (property.type === 'fixedCollection') {
		return Object.fromEntries(
			groupsOf(property).map((group) => [
				group.name,
				Object.fromEntries(
					group.values.map((child) => [child.name, fill(child, `${path}.${group.name}.${child.name}`, filled)]),
				),
			]),
		);
	}
	return property.default;
}

/** A Recruiting node of TYPE_VERSION for this operation, every field it shows left to the model. */
function agentNode(op: Operation, description = nodeDescription): { node: INode; filled: Filled[]; topLevel: string[] } {
	const filled: Filled[] = [];
	const parameters: INodeParameters = { resource: op.resource, operation: op.operation };
	const fields = topLevelFields(op, description);
	for (const property of fields) parameters[property.name] = fill(property, property.name, filled);
	const node: INode = {
		id: `agent-${op.resource}-${op.operation}`,
		name: 'Recruiting',
		type: `n8n-nodes-recruiting.${description.name}`,
		typeVersion: TYPE_VERSION,
		position: [0, 0],
		parameters,
		credentials: { recruitingApi: { id: '1', name: 'Recruiting' } },
	};
	return { node, filled, topLevel: fields.filter(isFillable).map((p) => p.name) };
}

/** Every field of the node, at any depth, with where it is. */
function everyField(properties: INodeProperties[], at = ''): Array<{ path: string; property: INodeProperties }> {
	return properties.flatMap((property) => {
		const path = `${at}/${property.name}`;
		const here = [{ path, property }];
		if (property.type === 'collection') return [...here, ...everyField((property.options ?? []) as INodeProperties[], path)];
		if (property.type === 'fixedCollection') {
			return [...here, ...groupsOf(property).flatMap((group) => everyField(group.values, `${path}/${group.name}`))];
		}
		return here;
	});
}

const label = (op: Operation) => `${op.resource} → ${op.operation}`;

test('the operation list is read from the node: all 13 resources and their 26 operations', () => {
	expect(new Set(OPERATIONS.map((op) => op.resource)).size).toBe(13);
	expect(OPERATIONS).toHaveLength(26);
});

describe.each(
	OPERATIONS.flatMap((op) => [
		[label(op), 'as the node', op, nodeDescription] as const,
		[label(op), 'as its tool variant', op, toolDescriptionOfNode] as const,
	]),
)('as an agent tool: %s, %s', (_, __, op, description) => {
	test('every argument of the schema n8n-core builds has the field\'s description', () => {
		const { node, filled, topLevel } = agentNode(op, description);
		// Every operation shows some field (a list at least Return All), and each top-level one is filled.
		expect(filled.length).toBeGreaterThan(0);
		for (const name of topLevel) expect(filled.map((f) => f.path)).toContain(name);

		const schema = getSchema(node);
		const shape = schema.shape as Record<string, { description?: string }>;
		expect(Object.keys(shape).sort()).toEqual(filled.map((f) => f.key).sort());
		for (const { key, path, description } of filled) {
			expect({ path, description: shape[key].description }).toEqual({ path, description });
			expect({ path, length: (shape[key].description ?? '').trim().length >= MIN_DESCRIPTION }).toEqual({
				path,
				length: true,
			});
		}
	});

	test('the tool description n8n-workflow builds is the Tool Description field\'s, naming the operation', () => {
		const { node } = agentNode(op, description);
		// As n8n's Workflow does before a run: every parameter not set takes its default (the Tool Description's too).
		const defaults = NodeHelpers.getNodeParameters(description.properties, { resource: op.resource, operation: op.operation }, true, false, node, description)!;
		node.parameters = { ...node.parameters, toolDescription: defaults.toolDescription };
		const toolDescription = NodeHelpers.getToolDescriptionForNode(node, { ...nodeType, description } as typeof nodeType);
		expect(toolDescription.trim()).not.toBe('');
		expect(op.option.action).toBeTruthy();
		if (description === toolDescriptionOfNode) expect(toolDescription).toBe(toolDescriptionOf(op));
		expect(toolDescription).toMatch(/ in Recruiting$/);
	});
});

describe('the node description', () => {
	test('every operation option says what it does and returns, and has an action', () => {
		const missing = OPERATIONS.filter(
			({ option }) =>
				(option.description ?? '').trim().length < MIN_DESCRIPTION ||
				!/\breturns?\b/i.test(option.description ?? '') ||
				!(option.action ?? '').trim(),
		).map(label);
		expect(missing).toEqual([]);
	});

	test('the Resource and Operation selectors have descriptions', () => {
		for (const selector of [resourceProperty, ...operationProperties]) {
			expect((selector.description ?? '').length).toBeGreaterThanOrEqual(MIN_DESCRIPTION);
		}
	});

	test(`every fillable field, at any depth, has a description of at least ${MIN_DESCRIPTION} characters`, () => {
		const fields = everyField(nodeDescription.properties).filter(({ property }) => isFillable(property));
		expect(fields.length).toBeGreaterThan(100);
		const short = fields
			.filter(({ property }) => (property.description ?? '').trim().length < MIN_DESCRIPTION)
			.map(({ path, property }) => `${path} [${property.type}]`);
		expect(short).toEqual([]);
	});

	test('every group of fields (fixed collection) says what it holds', () => {
		const groups = everyField(nodeDescription.properties).filter(({ property }) => property.type === 'fixedCollection');
		const missing = groups.filter(({ property }) => !(property.description ?? '').trim()).map(({ path }) => path);
		expect(missing).toEqual([]);
	});

	test.each([
		['job', 'delete', /permanently/i, /cannot be undone/i],
		['applicationForm', 'delete', /permanently/i, /cannot be undone/i],
		['webhook', 'update', /stops deliveries/i, /Recruiting Trigger/],
		['candidate', 'update', /overwrites/i, /replace the candidate's whole tag list/i],
		['candidate', 'removeTag', /read/i, /can be lost/i],
		['interview', 'cancel', /cancels/i, /cannot be undone/i],
	])('%s → %s warns plainly', (resource, operation, ...warnings) => {
		const op = OPERATIONS.find((o) => o.resource === resource && o.operation === operation)!;
		for (const warning of warnings) expect(op.option.description).toMatch(warning);
	});

	test('as a tool, operations that return records offer Output; lists offer Results per Page and Page, not Limit', () => {
		for (const op of OPERATIONS) {
			const limited = { returnAll: false };
			const names = topLevelFields(op, toolDescriptionOfNode, limited).map((property) => property.name);
			const plain = topLevelFields(op, nodeDescription, limited).map((property) => property.name);
			const returnsRecords = !/\{ (success|deleted): true \}/.test(op.option.description ?? '');
			expect({ op: label(op), output: names.includes('output') }).toEqual({ op: label(op), output: returnsRecords });
			expect(names).not.toContain('simplify');
			if (plain.includes('returnAll')) {
				expect(names).toEqual(expect.arrayContaining(['returnAll', 'pageSize', 'page']));
				expect(names).not.toContain('limit');
			}
			for (const name of ['output', 'fields', 'pageSize', 'page']) expect(plain).not.toContain(name);
		}
	});

	test('every action is a label for people: at most 50 characters, verb first, no sentence, no ID form', () => {
		// n8n names a node added from the panel after its action (a tool: "<action> in Recruiting"),
		// shows it on the canvas, in error toasts and in $('…') expressions: "Get a candidate", not
		// "Get a candidate by ID (can_…)". The ID form is for the model (the tool description below).
		const long = OPERATIONS.map((op) => ({ op: label(op), action: op.option.action ?? '' })).filter(
			({ action }) => action.length > 50 || !/^[A-Z][a-z]+ /.test(action) || /[.;:()…]|\bby ID\b|_/.test(action),
		);
		expect(long).toEqual([]);
	});

	test('the Operation selector carries only n8n\'s option keys (the tool description is a field of its own)', () => {
		for (const op of OPERATIONS) expect(Object.keys(op.option).sort()).toEqual(['action', 'description', 'name', 'value']);
	});

	test('every tool description names the ID format it needs, and destructive ones say so', () => {
		const prefixes: Record<string, RegExp> = {
			application: /app_…|job_…|can_…/,
			applicationForm: /form_…/,
			candidate: /can_…/,
			candidateNote: /can_…/,
			feedback: /fdbk_…|app_…/,
			interview: /int_…|app_…/,
			job: /job_…/,
			jobNote: /job_…/,
			user: /usr_…/,
			webhook: /wh_…/,
		};
		for (const op of OPERATIONS) {
			const action = toolDescriptionOf(op);
			const prefix = prefixes[op.resource];
			if (prefix && op.operation !== 'create') expect({ op: label(op), action }).toEqual({ op: label(op), action: expect.stringMatching(prefix) });
			// The action is short; the operation's description, shown under the selector, says it plainly.
			if (/^(delete|cancel)$/.test(op.operation)) expect(op.option.description).toMatch(/cannot be undone/);
		}
	});

	test('the MCP snippet (docs/agents-and-mcp.md) calls the tool by the name n8n gives a Candidate → Get tool node added from the panel', () => {
		// The node panel names a node with makeNodeName (a tool: "<action> in Recruiting"); the tool is named with nodeNameToToolName.
		// n8n's tool variant outputs ai_tool, which makes the name end in " in Recruiting".
		const nodeName = NodeHelpers.makeNodeName({ resource: 'candidate', operation: 'get' }, { ...toolDescriptionOfNode, outputs: ['ai_tool'] });
		expect(nodeName).toBe('Get a candidate in Recruiting');
		const name = nodeNameToToolName(nodeName);
		expect(name).toBe('Get_a_candidate_in_Recruiting');
		const readme = readFileSync(path.join(__dirname, '..', '..', 'docs', 'agents-and-mcp.md'), 'utf8');
		expect(readme).toContain(`name: '${name}'`);
		// The ✨ button's key is the field's display name ([^a-zA-Z0-9-] as _).
		const candidate = topLevelFields(OPERATIONS.find((op) => op.resource === 'candidate' && op.operation === 'get')!, toolDescriptionOfNode, {}).find(
			(property) => property.name === 'candidateId',
		)!;
		expect(readme).toContain(`arguments: { ${candidate.displayName.replace(/[^a-zA-Z0-9-]/g, '_')}: 'can_…' }`);
	});

	test('deletes say so in the tool description the agent sees; the label stays n8n\'s "Delete a …"', () => {
		for (const resource of ['job', 'applicationForm']) {
			const op = OPERATIONS.find((o) => o.resource === resource && o.operation === 'delete')!;
			expect(toolDescriptionOf(op)).toMatch(/^Permanently delete /);
			expect(op.option.action).toMatch(/^Delete an? /);
		}
	});

	test('ID fields say which ID prefix they take or where the ID comes from', () => {
		const idFields = everyField(nodeDescription.properties).filter(
			({ property }) => isFillable(property) && /ID$/.test(property.displayName) && property.type !== 'options',
		);
		expect(idFields.length).toBeGreaterThan(10);
		const vague = idFields
			.filter(({ property }) => !/\b[a-z]+_…|→|trigger|dashboard|as the service|list/i.test(property.description ?? ''))
			.map(({ path }) => path);
		expect(vague).toEqual([]);
	});
});
