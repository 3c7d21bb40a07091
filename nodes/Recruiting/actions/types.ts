import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** One API operation: its editor fields, and what it does for one input item. */
export interface RecruitingOperation {
	description: INodeProperties[];
	/** Returns one output item per object; the router pairs them with the input item. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

export type OperationMap = Record<string, RecruitingOperation>;
