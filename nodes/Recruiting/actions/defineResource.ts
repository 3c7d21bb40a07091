import type { INodeProperties } from 'n8n-workflow';
import { labelOf } from '../../shared/options';
import { updateDisplayOptions } from '../../shared/updateDisplayOptions';
import { byName } from './common.descriptions';
import { toolOutputProperties } from './toolMode';
import type { OperationMap, OperationOption, RecruitingOperation } from './types';

/** A resource as the node uses it: its selector entry, the router's dispatch, its editor fields. */
export interface RecruitingResource {
	name: string;
	value: string;
	/** Operation value → operation: what the router dispatches through. */
	operations: OperationMap;
	/** The Operation selector, each operation's fields (shown only while it is selected), an AI tool's Output. */
	description: INodeProperties[];
}

/** A resource's Operation selector; the first option is the default unless another is named. */
function operationSelector(
	resource: string,
	options: OperationOption[],
	defaultOperation = options[0].value,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		description: 'What to do with the chosen resource; each option says what it returns',
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
}

/** What n8n appends to a tool node's name and default description: the node's name. */
const IN_NODE = ' in Recruiting';

/**
 * The tool variant's Tool Description, one per operation (shown only there, `@tool`): its default
 * is what the model reads, naming the ID form the operation takes ("Get a candidate by ID (can_…)
 * in Recruiting") while the action, which names the node, stays a label for people ("Get a
 * candidate"). n8n adds its own Tool Description field (Set Automatically: the action + " in
 * Recruiting") only to a node that declares none, and hands a tool's model this field's value.
 */
function toolDescriptionField(resource: string, option: OperationOption): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 2 },
		default: `${option.toolDescription ?? option.action}${IN_NODE}`,
		description:
			'What the AI model is told this tool does; it names the form of the IDs the tool takes. Add when the model should use it (or not), especially for a tool that changes or deletes something.',
		displayOptions: { show: { resource: [resource], operation: [option.value], '@tool': [true] } },
	};
}

/** The option as the Operation selector lists it (the tool description lives in its own field). */
function selectorOption({ name, value, description, action }: OperationOption): OperationOption {
	return { name, value, description, action };
}

/**
 * A resource built from its operations, each declared once in its own file (its `option`): the
 * selector lists them by name, as n8n's lint wants options; their fields follow in the order given.
 * The name follows from the value: `applicationForm` → Application Form.
 */
export function defineResource(
	value: string,
	operations: RecruitingOperation[],
	defaultOperation?: RecruitingOperation,
): RecruitingResource {
	const listed = [...operations].sort((a, b) => byName(a.option, b.option));
	const withOutput = listed.filter((operation) => operation.output !== undefined).map(({ option }) => option.value);
	return {
		name: labelOf(value.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)),
		value,
		operations: Object.fromEntries(listed.map((operation) => [operation.option.value, operation])),
		description: [
			operationSelector(value, listed.map(({ option }) => selectorOption(option)), defaultOperation?.option.value),
			...listed.map(({ option }) => toolDescriptionField(value, option)),
			...operations.flatMap(({ option, properties }) =>
				updateDisplayOptions({ show: { resource: [value], operation: [option.value] } }, properties),
			),
			...(withOutput.length ? toolOutputProperties(value, withOutput) : []),
		],
	};
}
