import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { isExpression, NodeOperationError } from 'n8n-workflow';
import { READ_WINDOW, type ItemPolicySource } from '../../shared/transport';

/**
 * The action node's "Request Options", read here and handed to the shared transport as an item
 * policy (which knows no parameter names). Its Timeout is in milliseconds.
 */
export const REQUEST_OPTIONS = 'requestOptions';

/** Upper bound of Request Options → Concurrency and → Pages in Flight: what the node does when they are unset. */
export const MAX_CONCURRENCY = READ_WINDOW;

/** The Request Options of one item, as the editor holds them. */
function readRequestOptions(this: IExecuteFunctions, itemIndex: number): { options: IDataObject; perItem: boolean } {
	const read = this.getNodeParameter(REQUEST_OPTIONS, itemIndex, {}) as unknown;
	const options = typeof read === 'object' && read !== null ? (read as IDataObject) : {};
	const raw = this.getNode().parameters?.[REQUEST_OPTIONS];
	const perItem =
		isExpression(raw) ||
		(typeof raw === 'object' && raw !== null && Object.values(raw).some((value) => isExpression(value)));
	return { options, perItem };
}

/**
 * The Request Options of a node run, item by item. Reading a parameter builds an expression
 * context, and this runs for every page and item, so options without an expression are read once.
 */
function requestOptionsReader(context: IExecuteFunctions): (itemIndex: number) => IDataObject {
	let constant: IDataObject | undefined;
	return (itemIndex) => {
		if (constant) return constant;
		const { options, perItem } = readRequestOptions.call(context, itemIndex);
		if (!perItem) constant = options;
		return options;
	};
}

type OptionsOf = (itemIndex: number) => IDataObject;

function timeoutOption(this: IExecuteFunctions, optionsOf: OptionsOf, itemIndex: number): number | undefined {
	const value = optionsOf(itemIndex).timeout;
	if (value === undefined || value === null || value === '') return undefined;
	const ms = typeof value === 'string' ? Number(value) : value;
	if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 1) {
		throw new NodeOperationError(this.getNode(), 'Invalid "Timeout": must be a number of milliseconds of at least 1', {
			itemIndex,
		});
	}
	return ms;
}

/** A whole-number Request Option from 1 to MAX_CONCURRENCY; undefined where it is unset. */
function boundedOption(
	this: IExecuteFunctions,
	optionsOf: OptionsOf,
	itemIndex: number,
	name: string,
	label: string,
): number | undefined {
	const value = optionsOf(itemIndex)[name];
	if (value === undefined || value === null || value === '') return undefined;
	const n = typeof value === 'string' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
		throw new NodeOperationError(
			this.getNode(),
			`Invalid "${label}": must be a whole number from 1 to ${MAX_CONCURRENCY}`,
			{ itemIndex },
		);
	}
	return n;
}

/** Request Options → Max Wait for Rate Limits, in milliseconds; undefined where it is unset. */
function maxRateLimitWaitOption(this: IExecuteFunctions, optionsOf: OptionsOf, itemIndex: number): number | undefined {
	const value = optionsOf(itemIndex).maxRateLimitWait;
	if (value === undefined || value === null || value === '') return undefined;
	const seconds = typeof value === 'string' ? Number(value) : value;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
		throw new NodeOperationError(this.getNode(), 'Invalid "Max Wait for Rate Limits": must be a number of seconds of at least 0', {
			itemIndex,
		});
	}
	return seconds * 1000;
}

/** What the router reads of a node run's Request Options before its first request. */
export interface RunOptions {
	/** Input items at once; `unset` where the option is not set (read only when several items run). */
	concurrency(unset: number): number;
	/** Undefined: the transport's default. */
	maxRateLimitWaitMs: number | undefined;
	/** What the transport asks for each item: Timeout and Pages in Flight, each read (and refused if invalid) only when needed. */
	items: ItemPolicySource;
}

/**
 * The node run's Request Options. Concurrency and Max Wait for Rate Limits hold for the whole
 * run (item 0's); Timeout and Pages in Flight are read per item when a request needs them.
 * Unset Concurrency: `unset` (the router gives reads the read window and writes 1, so writes go
 * strictly one after another).
 */
export function runOptionsOf(context: IExecuteFunctions): RunOptions {
	const optionsOf = requestOptionsReader(context);
	return {
		concurrency: (unset) => boundedOption.call(context, optionsOf, 0, 'concurrency', 'Concurrency') ?? unset,
		maxRateLimitWaitMs: maxRateLimitWaitOption.call(context, optionsOf, 0),
		items: {
			timeoutMs: (itemIndex) => timeoutOption.call(context, optionsOf, itemIndex),
			pagesInFlight: (itemIndex) =>
				boundedOption.call(context, optionsOf, itemIndex, 'pagesInFlight', 'Pages in Flight'),
		},
	};
}
