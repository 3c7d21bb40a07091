import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ToolShape } from './simplify';

/**
 * An operation's entry in its resource's Operation selector. Its value is the operation's one
 * name: the resource derives the selector, the dispatch key and the fields' display rule from it.
 */
export interface OperationOption {
	name: string;
	value: string;
	/** What the editor shows under the option; says what the operation returns. */
	description: string;
	/**
	 * A label for people (n8n style, at most 50 characters, verb first): n8n names a node added from
	 * the panel after it ("Get a candidate"; a tool node "Get a candidate in Recruiting"), so it
	 * is what `$('…')` expressions and the tool's name read.
	 */
	action: string;
	/**
	 * What an AI model reads as the tool's description, with " in Recruiting" (the default of the
	 * tool variant's Tool Description field): the action with the ID form the operation takes,
	 * e.g. "Get a candidate by ID (can_…)". The action itself when it names no ID.
	 */
	toolDescription?: string;
}

/** One API operation: its selector entry, its editor fields, and what it does for one input item. */
export interface RecruitingOperation {
	option: OperationOption;
	/** The operation's fields; its resource shows them only while this operation is selected. */
	properties: INodeProperties[];
	/** Returns one output item per object; the router pairs them with the input item. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
	/**
	 * The kind of record the operation outputs (one, or a list of them), for the Output option an
	 * AI agent's tool shows; operations that output only `{ success }` / `{ deleted }` have none.
	 */
	output?: ToolShape;
}

export type OperationMap = Record<string, RecruitingOperation>;
