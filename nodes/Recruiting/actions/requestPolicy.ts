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

/**
 * The Request Options of a node run, item by item. Reading a parameter builds an expression
 * context, and this runs for every page and item, so options without an expression are read once.
 */
function requestOptionsReader(context: IExecuteFunctions): (itemIndex: number) => IDataObject {
	let constant: IDataObject | undefined;
	return (itemIndex) => {
		if (constant) return constant;
		const read = context.getNodeParameter(REQUEST_OPTIONS, itemIndex, {}) as unknown;
		const options = typeof read === 'object' && read !== null ? (read as IDataObject) : {};
		const raw = context.getNode().parameters?.[REQUEST_OPTIONS];
		const perItem =
			isExpression(raw) ||
			(typeof raw === 'object' && raw !== null && Object.values(raw).some((value) => isExpression(value)));
		if (!perItem) constant = options;
		return options;
	};
}

type OptionsOf = (itemIndex: number) => IDataObject;

/** A number Request Option: any number of `unit` of at least `min`, or with `max` a whole number from `min` to `max`. */
type NumberOption = { name: string; label: string; min: number } & ({ unit: string } | { max: number });

const TIMEOUT = { name: 'timeout', label: 'Timeout', unit: 'milliseconds', min: 1 };
const MAX_RATE_LIMIT_WAIT = { name: 'maxRateLimitWait', label: 'Max Wait for Rate Limits', unit: 'seconds', min: 0 };
const CONCURRENCY = { name: 'concurrency', label: 'Concurrency', min: 1, max: MAX_CONCURRENCY };
const PAGES_IN_FLIGHT = { name: 'pagesInFlight', label: 'Pages in Flight', min: 1, max: MAX_CONCURRENCY };

/** A Request Option's number; undefined where it is unset. */
function numberOption(this: IExecuteFunctions, optionsOf: OptionsOf, itemIndex: number, option: NumberOption): number | undefined {
	const value = optionsOf(itemIndex)[option.name];
	if (value === undefined || value === null || value === '') return undefined;
	const n = typeof value === 'string' ? Number(value) : value;
	const whole = 'max' in option;
	if (typeof n !== 'number' || !(whole ? Number.isInteger(n) && n <= option.max : Number.isFinite(n)) || n < option.min) {
		const must = whole ? `a whole number from ${option.min} to ${option.max}` : `a number of ${option.unit} of at least ${option.min}`;
		throw new NodeOperationError(this.getNode(), `Invalid "${option.label}": must be ${must}`, { itemIndex });
	}
	return n;
}

const secondsToMs = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000);

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
		concurrency: (unset) => numberOption.call(context, optionsOf, 0, CONCURRENCY) ?? unset,
		maxRateLimitWaitMs: secondsToMs(numberOption.call(context, optionsOf, 0, MAX_RATE_LIMIT_WAIT)),
		items: {
			timeoutMs: (itemIndex) => numberOption.call(context, optionsOf, itemIndex, TIMEOUT),
			pagesInFlight: (itemIndex) => numberOption.call(context, optionsOf, itemIndex, PAGES_IN_FLIGHT),
		},
	};
}
