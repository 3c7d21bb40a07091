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

/**
 * A Request Option that is a number of `unit` of at least `min`; undefined where it is unset.
 * Timeout (milliseconds, at least 1) and Max Wait for Rate Limits (seconds, at least 0).
 */
function numberOption(
	this: IExecuteFunctions,
	optionsOf: OptionsOf,
	itemIndex: number,
	option: { name: string; label: string; unit: string; min: number },
): number | undefined {
	const value = optionsOf(itemIndex)[option.name];
	if (value === undefined || value === null || value === '') return undefined;
	const n = typeof value === 'string' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isFinite(n) || n < option.min) {
		throw new NodeOperationError(
			this.getNode(),
			`Invalid "${option.label}": must be a number of ${option.unit} of at least ${option.min}`,
			{ itemIndex },
		);
	}
	return n;
}

const secondsToMs = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000);

const TIMEOUT = { name: 'timeout', label: 'Timeout', unit: 'milliseconds', min: 1 };
const MAX_RATE_LIMIT_WAIT = { name: 'maxRateLimitWait', label: 'Max Wait for Rate Limits', unit: 'seconds', min: 0 };

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
		maxRateLimitWaitMs: secondsToMs(numberOption.call(context, optionsOf, 0, MAX_RATE_LIMIT_WAIT)),
		items: {
			timeoutMs: (itemIndex) => numberOption.call(context, optionsOf, itemIndex, TIMEOUT),
			pagesInFlight: (itemIndex) =>
				boundedOption.call(context, optionsOf, itemIndex, 'pagesInFlight', 'Pages in Flight'),
		},
	};
}
