import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { isExpression, NodeOperationError } from 'n8n-workflow';
import type { ItemPolicySource } from '../../shared/transport';

/**
 * The action node's "Request Options", read here and handed to the shared transport as an item
 * policy (which knows no parameter names). Its Timeout is in milliseconds.
 */
export const REQUEST_OPTIONS = 'requestOptions';

/** Upper bound of Request Options → Concurrency and → Pages in Flight. */
export const MAX_CONCURRENCY = 10;

/** Request Options of a node run whose values hold no expression: the same for every item. */
const constantRequestOptions = new WeakMap<object, IDataObject>();

/**
 * The Request Options for one item. Reading a parameter builds an expression context, and this
 * runs for every page and item, so options without an expression are read once per node run.
 */
function requestOptionsOf(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const cached = constantRequestOptions.get(this);
	if (cached) return cached;
	const read = this.getNodeParameter(REQUEST_OPTIONS, itemIndex, {}) as unknown;
	const options = typeof read === 'object' && read !== null ? (read as IDataObject) : {};
	const raw = this.getNode().parameters?.[REQUEST_OPTIONS];
	const perItem =
		isExpression(raw) ||
		(typeof raw === 'object' && raw !== null && Object.values(raw).some((value) => isExpression(value)));
	if (!perItem) constantRequestOptions.set(this, options);
	return options;
}

function timeoutOption(this: IExecuteFunctions, itemIndex: number): number | undefined {
	const value = requestOptionsOf.call(this, itemIndex).timeout;
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
function boundedOption(this: IExecuteFunctions, itemIndex: number, name: string, label: string): number | undefined {
	const value = requestOptionsOf.call(this, itemIndex)[name];
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

/**
 * Request Options → Concurrency: how many input items run at once. Unset: `unset` (the router
 * gives reads the read window and writes 1, so writes go strictly one after another).
 */
export function concurrencyOption(this: IExecuteFunctions, itemIndex: number, unset: number): number {
	return boundedOption.call(this, itemIndex, 'concurrency', 'Concurrency') ?? unset;
}

/**
 * What the transport asks of a node run's items: Timeout and Pages in Flight, each read (and
 * refused if invalid) only when a request or a list walk of the item needs it.
 */
export function requestPolicyOf(context: IExecuteFunctions): ItemPolicySource {
	return {
		timeoutMs: (itemIndex) => timeoutOption.call(context, itemIndex),
		pagesInFlight: (itemIndex) => boundedOption.call(context, itemIndex, 'pagesInFlight', 'Pages in Flight'),
	};
}
