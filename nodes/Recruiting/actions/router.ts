import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { resources } from './resources';
import type { RecruitingOperation } from './types';

function errorItem(error: Error, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const { description, httpCode } = error as { description?: string | null; httpCode?: string | null };
	if (description) json.description = description;
	if (httpCode) json.httpCode = httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Runs the selected operation once per input item. Pairing, continue-on-fail and error
 * context are handled here once, so each operation is just "item in, objects out".
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = (resources as Record<string, Record<string, RecruitingOperation>>)[resource]?.[
		operationName
	];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" is not supported for the resource "${resource}"`,
		);
	}

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await operation.execute.call(this, itemIndex);
			returnData.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(result), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (error) {
			if (this.continueOnFail()) {
				returnData.push(errorItem(error, itemIndex));
				continue;
			}
			if (error instanceof NodeApiError || error instanceof NodeOperationError) {
				error.context.itemIndex ??= itemIndex;
				throw error;
			}
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}
	return [returnData];
}
