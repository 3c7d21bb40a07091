import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { inRun, RateLimitWaitError, READ_WINDOW, RunCancelledError, runOf, walkInOrder } from '../../shared/transport';
import { runOptionsOf } from './requestPolicy';
import { resources } from './resources';
import { isToolMode, readToolOutput, shapeForTool, toolErrorText, toolListPageOf } from './toolMode';
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

	const options = runOptionsOf(this);
	const unset = READ_OPERATIONS.has(operationName) ? READ_WINDOW : 1;
	const concurrency = items.length > 1 ? Math.min(options.concurrency(unset), items.length) : 1;
	let itemsDone = 0;
	const asTool = isToolMode.call(this);
	const perItem: INodeExecutionData[][] = new Array(items.length);
	const runItem = async (itemIndex: number): Promise<void> => {
		try {
			const shaper = asTool ? readToolOutput.call(this, itemIndex, operation.output) : undefined;
			const result = await operation.execute.call(this, itemIndex);
			perItem[itemIndex] = outputItems(asTool ? shapeForTool(result, shaper, toolListPageOf(this, itemIndex)) : result, itemIndex);
			itemsDone++;
		} catch (error) {
			// Not sent because another item failed the run first: that failure is the run's.
			if (error instanceof RunCancelledError) return;
			// A run that ran out of time to wait for rate limits says how far it got, so the user knows what to run again.
			if (error instanceof RateLimitWaitError) error.noteItemsDone(itemsDone, items.length);
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
			// The run fails: requests of its other items still waiting to be sent (behind a 429's pause) are not sent.
			runOf(this).waitBudget.cancel();
			throw itemError.call(this, error, itemIndex);
		}
	};

	// Every request of this run follows its Request Options; the list walks of the items in flight
	// share one read window; what the run may wait for rate limits is one budget (state.ts).
	// Stopped by the user: the requests still waiting to be sent are dropped at once (the run listens
	// to the execution's signal until it ends).
	const settings = {
		items: options.items,
		itemsInFlight: concurrency,
		maxRateLimitWaitMs: options.maxRateLimitWaitMs,
		cancelSignal: typeof this.getExecutionCancelSignal === 'function' ? this.getExecutionCancelSignal() : undefined,
	};
	await inRun(this, settings, async () => await runConcurrently(items.length, concurrency, runItem));
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
 * How many of them are really sent at once is the credential's send rate's to decide.
 */
export async function runConcurrently(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<void>,
): Promise<void> {
	await walkInOrder({ first: 0, last: count - 1, window: concurrency, start: task, accept: () => false });
}
