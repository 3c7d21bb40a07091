/**
 * The two ways a value becomes text in this package, one for each place a value comes from:
 * what a user entered in a parameter (an expression may give a number, or anything, where text
 * is asked for), and what the service's JSON holds (where only a string or a number is text).
 */

/** What a user entered, as text without the spaces around it; '' for nothing. Any value is written out. */
export function enteredText(value: unknown): string {
	return String(value ?? '').trim();
}

/**
 * A string as it is, or a number written out; undefined for anything else (missing, null, a
 * boolean, an object), so that no "null" or "[object Object]" is ever shown, compared or sent.
 */
export function scalarText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}
