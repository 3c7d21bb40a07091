import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { isEventName } from './events';
import { enteredText } from './text';
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
	const error = new NodeOperationError(node, `Invalid "${field}": ${problem}`, { itemIndex });
	valueRefusals.add(error);
	return error;
}

/**
 * The errors invalidField built: a parameter's value refused before anything was sent. A model
 * that gave the value can correct it; every other NodeOperationError (the credential, its Base
 * URL or Company ID, Request Options, a request n8n failed to send) it cannot.
 */
const valueRefusals = new WeakSet<object>();

export function isValueRefusal(error: unknown): boolean {
	return typeof error === 'object' && error !== null && valueRefusals.has(error);
}

/** How much of a refused value an error message quotes: enough to recognise it, never megabytes. */
export const MAX_QUOTED_LENGTH = 100;

/** A value as an error message quotes it: `"…"`, cut to MAX_QUOTED_LENGTH characters with its length. */
export function quoted(text: string): string {
	if (text.length <= MAX_QUOTED_LENGTH) return `"${text}"`;
	return `"${text.slice(0, MAX_QUOTED_LENGTH)}…" (${text.length} characters)`;
}

/**
 * Reads an id from a plain string or a resource locator parameter. Spaces around it (a copy from
 * the dashboard, a mapped value) are dropped: they are never part of an ID. Any other character is
 * allowed (the transport percent-encodes it into its own path segment) except an empty value, the
 * dot segments `.` and `..`, which HTTP clients resolve instead of sending, and white space inside
 * (the service's IDs have none: such a value could only be answered 404).
 */
export function requireId(
	this: IExecuteFunctions,
	parameterName: string,
	itemIndex: number,
	field: string,
): string {
	const raw = this.getNodeParameter(parameterName, itemIndex, '', { extractValue: true });
	return checkId(this.getNode(), itemIndex, field, raw);
}

/** requireId's checks on a value already read (an ID inside a collection, e.g. one sent as a query parameter). */
export function checkId(node: INode, itemIndex: number, field: string, raw: unknown): string {
	const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	if (id === '') throw invalidField(node, itemIndex, field, 'a value is required');
	if (isDotSegment(id)) {
		throw invalidField(node, itemIndex, field, '"." and ".." are not valid IDs');
	}
	// Every character encodes to at least one: a longer id is refused before any scan of it.
	if (id.length > MAX_ENCODED_ID_LENGTH) {
		throw idTooLong(node, itemIndex, field, `it has ${id.length} characters before encoding`);
	}
	// `\s` is the set trim() drops: what is left inside after trimming.
	if (/\s/u.test(id)) {
		throw invalidField(
			node,
			itemIndex,
			field,
			`${quoted(id)} contains a space or line break, and IDs have none: check what was typed or mapped into this field`,
		);
	}
	// An unpaired surrogate cannot be percent-encoded (encodeURIComponent throws "URI malformed").
	if (/[\uD800-\uDFFF]/u.test(id)) {
		throw invalidField(node, itemIndex, field, 'it contains an invalid (unpaired surrogate) character');
	}
	// Servers refuse over-long request lines (Node answers 431, IIS 414) before the API sees them.
	const encodedLength = encodeURIComponent(id).length;
	if (encodedLength > MAX_ENCODED_ID_LENGTH) {
		throw idTooLong(node, itemIndex, field, `it is ${encodedLength}`);
	}
	return id;
}

/** Service ids are short (`job_k3h2…`); two such ids still fit a 4 KB request line. */
export const MAX_ENCODED_ID_LENGTH = 1024;

function idTooLong(node: INode, itemIndex: number, field: string, length: string): NodeOperationError {
	return invalidField(node, itemIndex, field, `too long: at most ${MAX_ENCODED_ID_LENGTH} characters once URL-encoded (${length})`);
}

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

/**
 * Linear: after the fixed-width parts only the fraction's `\d+` repeats, and what may follow it
 * (`Z`, a sign, the end) is never a digit. Values are capped at MAX_DATE_TIME_LENGTH first anyway.
 */
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** `2030-01-31T09:30:00.123456789+01:00` is 35 characters; nothing longer than this is a date-time. */
export const MAX_DATE_TIME_LENGTH = 64;

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
	const text = enteredText(value);
	if (text.length > MAX_DATE_TIME_LENGTH) {
		throw invalidField(
			node,
			itemIndex,
			field,
			`must be at most ${MAX_DATE_TIME_LENGTH} characters long to be a date and time (it is ${text.length})`,
		);
	}
	const parts = ISO_DATE_TIME.exec(text);
	if (!parts || !isRealDateTime(parts)) {
		throw invalidField(
			node,
			itemIndex,
			field,
			`${quoted(text)} is not a valid ISO 8601 date and time (for example 2030-01-31T09:30:00Z)`,
		);
	}
	// ISO 8601 (and the API) separates date and time with "T"; the space RFC 3339 allows is accepted here.
	return text.replace(' ', 'T');
}

/** One formatter per zone (there are a few hundred): building one is the slow part. */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds (DST included). */
function zoneOffsetAt(instant: number, timeZone: string): number {
	let format = zoneFormats.get(timeZone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		zoneFormats.set(timeZone, format);
	}
	const part: Record<string, number> = {};
	for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value);
	const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
	return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The instant (ms since the epoch) of a date-time toIsoDateTime accepted: as its offset says, or,
 * without one, as the wall-clock time in `timeZone` (an IANA name checkTimeZone accepted), DST
 * included; never in n8n's own zone. A wall-clock time a DST change skips is read with the offset
 * after the change. Intl, not Luxon: the package has no runtime dependency to import it from.
 */
export function instantIn(isoDateTime: string, timeZone: string): number {
	const parts = ISO_DATE_TIME.exec(isoDateTime);
	if (!parts) return Number.NaN;
	const [year, month, day, hour, minute, second] = parts.slice(1, 7).map((part) => Number(part ?? 0));
	const milliseconds = Number(`0.${parts[7] ?? '0'}`) * 1000;
	const wall = Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(milliseconds);
	const offset = parts[8];
	if (offset !== undefined) {
		if (offset.toUpperCase() === 'Z') return wall;
		const digits = offset.replace(':', '');
		const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
		return wall - (digits[0] === '-' ? -1 : 1) * minutes * 60_000;
	}
	// The zone's offset at the wall time read as UTC, then at the instant that gives: the second
	// read is right unless the two straddle a DST change, which the second read settles.
	const guess = wall - zoneOffsetAt(wall, timeZone);
	return wall - zoneOffsetAt(guess, timeZone);
}

/** RFC 5321 limits a path to 256 octets, brackets included: an address is at most 254 characters. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * One `@` with something on each side and no space. Linear: neither side can match an `@`, so
 * there is only one way to split the text. (The former `^[^\s@]+@[^\s@]+\.[^\s@]+$` let its two
 * domain quantifiers share every dot: quadratic, 3.4 s on 40,000 characters.)
 */
const EMAIL_PARTS = /^[^\s@]+@[^\s@]+$/;

/** `domain.tld`: a dot with at least one character on each side (a scan, not a regular expression). */
function hasInnerDot(domain: string): boolean {
	return domain.lastIndexOf('.', domain.length - 2) >= 1;
}

/** A simple shape check (`name@domain.tld`, no spaces); the service has the final word. */
export function checkEmail(node: INode, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (text.length > MAX_EMAIL_LENGTH) {
		throw invalidField(
			node,
			itemIndex,
			field,
			`must be at most ${MAX_EMAIL_LENGTH} characters long to be an email address (it is ${text.length})`,
		);
	}
	if (!EMAIL_PARTS.test(text) || !hasInnerDot(text.slice(text.indexOf('@') + 1))) {
		throw invalidField(node, itemIndex, field, `${quoted(String(value ?? ''))} is not a valid email address`);
	}
	return text;
}

/** Whether the text is an absolute http:// or https:// URL with a host. */
export function isHttpUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

/** An absolute http:// or https:// URL with a host. */
export function checkHttpUrl(node: INode, itemIndex: number, field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!isHttpUrl(text)) {
		throw invalidField(node, itemIndex, field, `${quoted(text)} is not an absolute http:// or https:// URL`);
	}
	return text;
}

/** An IANA time zone the runtime knows (`Europe/Dublin`, `UTC`). */
export function checkTimeZone(node: INode, itemIndex: number, field: string, value: unknown): string {
	const zone = enteredText(value);
	try {
		if (zone !== '') {
			new Intl.DateTimeFormat('en-US', { timeZone: zone });
			return zone;
		}
	} catch {
		// reported below
	}
	throw invalidField(node, itemIndex, field, `${quoted(zone)} is not a known IANA time zone`);
}

/**
 * Webhook event names, as a list or comma-separated text: at least one, each shaped like
 * `resource.action`. Names not among the documented events pass (new events appear over time).
 */
export function checkEventNames(node: INode, itemIndex: number, field: string, value: unknown): string[] {
	const events = (Array.isArray(value) ? value : String(value ?? '').split(','))
		.map((event) => String(event).trim())
		.filter((event) => event !== '');
	if (events.length === 0) throw invalidField(node, itemIndex, field, 'select at least one event');
	const malformed = events.find((event) => !isEventName(event));
	if (malformed !== undefined) {
		throw invalidField(node, itemIndex, field, `${quoted(malformed)} is not an event name (such as candidate.updated)`);
	}
	return events;
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
