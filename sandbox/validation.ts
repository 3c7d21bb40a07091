/**
 * A tiny schema kit for request bodies: every schema checks a value, collects field errors under
 * snake_case paths (`event.type`, `event.attendees[0].type`) and returns the cleaned value (unknown
 * properties dropped, or reported when the object is strict).
 */
import { FieldErrors, throwIfErrors, validationProblem } from './problems';

export interface Schema<T = unknown> {
	/** Returns the cleaned value; reports problems into `errors` (the return value is then meaningless). */
	parse(value: unknown, path: string, errors: FieldErrors): T;
}

export type Json = Record<string, unknown>;

export function addError(errors: FieldErrors, path: string, message: string): void {
	const key = path || 'body';
	(errors[key] ??= []).push(message);
}

const label = (path: string): string => `'${path || 'body'}'`;

export const isPlainObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A leaf schema from a predicate and the message it reports. */
function leaf<T>(test: (value: unknown) => boolean, expected: string): Schema<T> {
	return {
		parse(value, path, errors) {
			if (!test(value)) addError(errors, path, `${label(path)} must be ${expected}.`);
			return value as T;
		},
	};
}

export function str(opts: { min?: number; max?: number } = {}): Schema<string> {
	const { min = 0, max = Infinity } = opts;
	const expected =
		max !== Infinity
			? `a string of ${min > 0 ? `${min} to ` : 'at most '}${max} characters`
			: min > 1
				? `a string of at least ${min} characters`
				: min === 1
					? 'a non-empty string'
					: 'a string';
	return leaf((v) => typeof v === 'string' && v.length >= min && v.length <= max, expected);
}

export function int(opts: { min?: number; max?: number } = {}): Schema<number> {
	const { min = -Infinity, max = Infinity } = opts;
	const range =
		min === -Infinity ? '' : max === Infinity ? ` of at least ${min}` : ` from ${min} to ${max}`;
	return leaf((v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max, `an integer${range}`);
}

/** A finite number of at least `min`. */
export function num(opts: { min?: number } = {}): Schema<number> {
	const { min = -Infinity } = opts;
	return leaf((v) => typeof v === 'number' && Number.isFinite(v) && v >= min, `a number${min === -Infinity ? '' : ` of at least ${min}`}`);
}

export const jsonObject = (): Schema<Json> => leaf(isPlainObject, 'an object');

export const bool = (): Schema<boolean> => leaf((v) => typeof v === 'boolean', 'a boolean');

export function oneOf<T extends string>(values: readonly T[]): Schema<T> {
	return leaf((v) => values.includes(v as T), `one of: ${values.join(', ')}`);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?$/i;

/** ISO 8601 date and time (offset optional: then it is in the event's time zone), on a real calendar day. */
export function isDateTime(v: unknown): v is string {
	const m = typeof v === 'string' ? DATE_TIME.exec(v) : null;
	if (!m) return false;
	const [year, month, day, hour, minute, second = '0', , , offsetHours = '0', offsetMinutes = '0'] = m.slice(1);
	const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
	return (
		Number(month) >= 1 &&
		Number(month) <= 12 &&
		Number(day) >= 1 &&
		Number(day) <= daysInMonth &&
		Number(hour) <= 23 &&
		Number(minute) <= 59 &&
		Number(second) <= 59 &&
		Number(offsetHours) <= 23 &&
		Number(offsetMinutes) <= 59
	);
}

export const dateTime = (): Schema<string> => leaf(isDateTime, 'an ISO 8601 date-time');

/** An IANA time zone name, as the platform's Intl knows them. */
export const timeZone = (): Schema<string> =>
	leaf((v) => {
		if (typeof v !== 'string' || !/^[A-Za-z]/.test(v)) return false;
		try {
			new Intl.DateTimeFormat('en-US', { timeZone: v });
			return true;
		} catch {
			return false;
		}
	}, 'a valid IANA time zone such as Europe/Dublin');

export const httpUrl = (): Schema<string> =>
	leaf((v) => {
		if (typeof v !== 'string') return false;
		try {
			const url = new URL(v);
			return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
		} catch {
			return false;
		}
	}, 'an absolute http or https URL');

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
	return { parse: (value, path, errors) => (value === null ? null : inner.parse(value, path, errors)) };
}

export function arr<T>(item: Schema<T>): Schema<T[]> {
	return {
		parse(value, path, errors) {
			if (!Array.isArray(value)) {
				addError(errors, path, `${label(path)} must be an array.`);
				return [];
			}
			return value.map((v, i) => item.parse(v, `${path}[${i}]`, errors));
		},
	};
}

export interface ObjectOptions {
	required?: readonly string[];
	/** Report unknown properties instead of dropping them. */
	strict?: boolean;
	/** Cross-field checks, run once the fields themselves are valid. */
	refine?: (value: Json, path: string, errors: FieldErrors) => void;
}

export function obj(fields: Record<string, Schema>, opts: ObjectOptions = {}): Schema<Json> {
	const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);
	return {
		parse(value, path, errors) {
			if (!isPlainObject(value)) {
				addError(errors, path, `${label(path)} must be an object.`);
				return {};
			}
			const before = Object.keys(errors).length;
			const out: Json = {};
			for (const key of opts.required ?? []) {
				if (value[key] === undefined) addError(errors, join(path, key), `${label(join(path, key))} is required.`);
			}
			for (const [key, v] of Object.entries(value)) {
				const schema = Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
				if (schema) {
					if (v !== undefined) out[key] = schema.parse(v, join(path, key), errors);
				} else if (opts.strict) {
					addError(errors, join(path, key), `${label(join(path, key))} is not a known property.`);
				}
			}
			if (opts.refine && Object.keys(errors).length === before) opts.refine(out, path, errors);
			return out;
		},
	};
}

/** Validates a whole request body; throws a 400 validation problem, or returns the cleaned value. */
export function validate<T = Json>(schema: Schema, value: unknown): T {
	if (!isPlainObject(value)) throw validationProblem({ body: ['The request body must be a JSON object.'] });
	const errors: FieldErrors = {};
	const out = schema.parse(value, '', errors);
	throwIfErrors(errors);
	return out as T;
}
