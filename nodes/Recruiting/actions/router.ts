import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { readWindowOf, shareReadWindow, useItemPolicy, walkInOrder } from '../../shared/transport';
import { concurrencyOption, requestPolicyOf } from './requestPolicy';
import { resources } from './resources';
import { isToolMode, readToolOutput, shapeForTool, toolErrorText } from './toolMode';
import type { RecruitingOperation } from './types';

function errorItem(error: Error, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const { description, httpCode } = error as { description?: string | null; httpCode?: string | null };
	if (description) json.description = description;
	if (httpCode) json.httpCode = httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Operations that only read (every request a GET). Their items run in the read window unless the
 * user sets Concurrency; every other operation writes, and its items go one after another.
 */
const READ_OPERATIONS = new Set(['get', 'getMany']);

/**
 * Runs the selected operation once per input item. Pairing, continue-on-fail and error
 * context are handled here once, so each operation is just "item in, objects out".
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation: RecruitingOperation | undefined = resources[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" is not supported for the resource "${resource}"`,
		);
	}

	const unset = READ_OPERATIONS.has(operationName) ? readWindowOf(this) : 1;
	const concurrency = items.length > 1 ? Math.min(concurrencyOption.call(this, 0, unset), items.length) : 1;
	// The list walks of the items in flight share one read window.
	shareReadWindow(this, concurrency);
	// Every request of this run follows its item's Request Options (Timeout, Pages in Flight).
	useItemPolicy(this, requestPolicyOf(this));
	const asTool = isToolMode.call(this);
	const perItem: INodeExecutionData[][] = new Array(items.length);
	const runItem = async (itemIndex: number): Promise<void> => {
		try {
			const shaper = asTool ? readToolOutput.call(this, itemIndex, operation.output) : undefined;
			const result = await operation.execute.call(this, itemIndex);
			perItem[itemIndex] = outputItems(asTool ? shapeForTool(result, shaper) : result, itemIndex);
		} catch (error) {
			// A model can correct a refused value or ID, but not a failed run: it gets the text.
			const forModel = asTool ? toolErrorText(error) : undefined;
			if (forModel !== undefined) {
				perItem[itemIndex] = [{ json: { error: forModel }, pairedItem: { item: itemIndex } }];
				return;
			}
			if (this.continueOnFail()) {
				perItem[itemIndex] = [errorItem(error as Error, itemIndex)];
				return;
			}
			throw itemError.call(this, error, itemIndex);
		}
	};

	await runConcurrently(items.length, concurrency, runItem, this);
	return [perItem.length === 1 ? perItem[0] : perItem.flat()];
}

/**
 * One output item per result object, paired with its input item: what returnJsonArray and
 * constructExecutionMetaData would build, without their two intermediate copies of every item
 * (which a large Return All pays for).
 */
function outputItems(result: IDataObject | IDataObject[], itemIndex: number): INodeExecutionData[] {
	const list = Array.isArray(result) ? result : [result];
	const out: INodeExecutionData[] = new Array(list.length);
	for (let i = 0; i < list.length; i++) {
		// Always wrapped: a record of the service may have a field named `json` of its own
		// (returnJsonArray would take such a record for an item and lose its other fields).
		out[i] = { json: list[i], pairedItem: { item: itemIndex } };
	}
	return out;
}

function itemError(this: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex });
}

/**
 * Runs `task(0..count-1)` with at most `concurrency` at once, starting them in index order.
 * After the first failure nothing new starts; the running ones are awaited, then the failure of
 * the lowest index is thrown (the one a one-by-one run would have met first among those run).
 * The 429s of `context` narrow the window.
 */
export async function runConcurrently(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<void>,
	context?: object,
): Promise<void> {
	await walkInOrder({ first: 0, last: count - 1, window: concurrency, context, start: task, accept: () => false });
}
