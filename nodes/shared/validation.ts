import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { isDotSegment } from './transport';

/**
 * Checks that run before any request is sent. Each error names the field as the editor shows it
 * and carries the item index, so a user can find the bad value.
 */

export function invalidField(
	node: INode,
	itemIndex: number,
	field: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(node, `Invalid "${field}": ${problem}`, { itemIndex });
}

/**
 * Reads an id from a plain string or a resource locator parameter. Any character is allowed
 * (the transport percent-encodes it into its own path segment) except an empty value and the
 * dot segments `.` and `..`, which HTTP clients resolve instead of sending.
 */
export function requireId(
	this: IExecuteFunctions,
	parameterName: string,
	itemIndex: number,
	field: string,
): string {
	const raw = this.getNodeParameter(parameterName, itemIndex, '', { extractValue: true });
	const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
	if (id.trim() === '') throw invalidField(this.getNode(), itemIndex, field, 'a value is required');
	if (isDotSegment(id)) {
		throw invalidField(this.getNode(), itemIndex, field, '"." and ".." are not valid IDs');
	}
	// An unpaired surrogate cannot be percent-encoded (encodeURIComponent throws "URI malformed").
	if (/[\uD800-\uDFFF]/u.test(id)) {
		throw invalidField(this.getNode(), itemIndex, field, 'it contains an invalid (unpaired surrogate) character');
	}
	// Servers refuse over-long request lines (Node answers 431, IIS 414) before the API sees them.
	const encodedLength = encodeURIComponent(id).length;
	if (encodedLength > MAX_ENCODED_ID_LENGTH) {
		throw invalidField(
			this.getNode(),
			itemIndex,
			field,
			`too long: at most ${MAX_ENCODED_ID_LENGTH} characters once URL-encoded (it is ${encodedLength})`,
		);
	}
	return id;
}

/** Service ids are short (`job_k3h2…`); two such ids still fit a 4 KB request line. */
export const MAX_ENCODED_ID_LENGTH = 1024;

export function checkLength(
	node: INode,
	itemIndex: number,
	field: string,
	raw: unknown,
	min: number,
	max: number,
): string {
	// An expression may give a number; anything else that is not text (an object, null) is refused,
	// not sent: `{}.length` is undefined and would slip through the range check below.
	const value = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
	if (typeof value !== 'string') throw invalidField(node, itemIndex, field, 'must be text');
	if (value.length < min || value.length > max) {
		const range = min === 0 ? `at most ${max}` : `${min} to ${max}`;
		throw invalidField(node, itemIndex, field, `must be ${range} characters long (it is ${value.length})`);
	}
	return value;
}

export function checkIntegerInRange(
	node: INode,
	itemIndex: number,
	field: string,
	value: unknown,
	min: number,
	max: number,
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
		throw invalidField(node, itemIndex, field, `must be a whole number from ${min} to ${max}`);
	}
	return number;
}

export function checkOneOf<T extends string>(
	node: INode,
	itemIndex: number,
	field: string,
	value: unknown,
	allowed: readonly T[],
): T {
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		throw invalidField(node, itemIndex, field, `must be one of ${allowed.join(', ')}`);
	}
	return value as T;
}

const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** True when the calendar parts exist: JavaScript would quietly roll 2030-02-30 over to 2 March. */
function isRealDateTime(parts: RegExpExecArray): boolean {
	const [year, month, day, hour, minute, second] = parts.slice(1, 7).map((part) => Number(part ?? 0));
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return (
		month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59
	);
}

/**
 * Date-time fields arrive as ISO strings (or Luxon/Date objects from expressions) and need a time.
 * A string is sent as written, because a zone-less value is meant in the interview's own time
 * zone; objects are sent in ISO 8601.
 */
export function toIsoDateTime(node: INode, itemIndex: number, field: string, value: unknown): string {
	if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
	if (typeof value === 'object' && value !== null && 'toISO' in value) {
		const iso = (value as { toISO: () => string | null }).toISO();
		if (iso) return iso;
	}
	const text = typeof value === 'string' ? value.trim() : String(value ?? '');
	const parts = ISO_DATE_TIME.exec(text);
	if (!parts || !isRealDateTime(parts)) {
		throw invalidField(
			node,
			itemIndex,
			field,
			`"${text}" is not a valid ISO 8601 date and time (for example 2030-01-31T09:30:00Z)`,
		);
	}
	// ISO 8601 (and the API) separates date and time with "T"; the space RFC 3339 allows is accepted here.
	return text.replace(' ', 'T');
}

/** A simple shape check (`name@domain.tld`, no spaces); the service has the final word. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(node: INode, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!EMAIL.test(text)) {
		throw invalidField(node, itemIndex, field, `"${String(value ?? '')}" is not a valid email address`);
	}
	return text;
}

/** An absolute http:// or https:// URL with a host. */
export function checkHttpUrl(node: INode, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	let valid = false;
	try {
		const url = new URL(text);
		valid = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		valid = false;
	}
	if (!valid) {
		throw invalidField(node, itemIndex, field, `"${text}" is not an absolute http:// or https:// URL`);
	}
	return text;
}

/** An update must change something: a body with no field at all is refused before it is sent. */
export function checkSomeFields(
	node: INode,
	itemIndex: number,
	body: IDataObject,
	field = 'Update Fields',
): IDataObject {
	if (Object.keys(body).length === 0) throw invalidField(node, itemIndex, field, 'add at least one field to update');
	return body;
}
