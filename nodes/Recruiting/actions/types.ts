import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** One API operation: its editor fields, and what it does for one input item. */
export interface RecruitingOperation {
	description: INodeProperties[];
	/** Returns one output item per object; the router pairs them with the input item. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

export type OperationMap = Record<string, RecruitingOperation>;

/** What delete, cancel and add-tag output: the service answers them without a body. A fresh object each time, since output items are mutable. */
export function success(): IDataObject {
	return { success: true };
}
