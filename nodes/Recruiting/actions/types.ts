import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ToolShape } from './simplify';

/** One API operation: its editor fields, and what it does for one input item. */
export interface RecruitingOperation {
	description: INodeProperties[];
	/** Returns one output item per object; the router pairs them with the input item. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
	/**
	 * The kind of record the operation outputs (one, or a list of them), for the Output option an
	 * AI agent's tool shows; operations that output only `{ success }` / `{ deleted }` have none.
	 */
	output?: ToolShape;
}

export type OperationMap = Record<string, RecruitingOperation>;
