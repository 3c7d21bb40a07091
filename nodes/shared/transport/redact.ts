/** Secrets hidden from text the service sends back before it reaches an error message, execution data or a log. */

/** Names under which a secret travels: a webhook's `signing_key`, tokens, passwords and keys. */
const SECRET_NAME = String.raw`(?:signing[_ -]?key|[a-z_]*secret|[a-z_]*token|passw(?:or)?d|api[_-]?key)`;

/** `"name": "value` in JSON, the value possibly cut off: the quote is put back after the mark. */
const JSON_SECRET = new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*")[^"]*"?`, 'gi');
/** The same inside an escaped JSON string: `\\"name\\":\\"value\\"`. */
const ESCAPED_JSON_SECRET = new RegExp(String.raw`(\\"${SECRET_NAME}\\"\s*:\s*\\")[^"\\]*`, 'gi');
/** In prose or a query: `signing_key=…`, `signing key: …`, a long value right after the name. */
const TEXT_SECRET = new RegExp(String.raw`\b(${SECRET_NAME})(\s*[:=]\s*|\s+)([A-Za-z0-9+/=_.~-]{16,})`, 'gi');
/** The value of an Authorization header quoted back. */
const AUTHORIZATION_VALUE = /\b(Bearer|Basic)(\s+)[A-Za-z0-9+/=_.~-]+/gi;

/**
 * Hides secrets by their form or their name: `whsec_…` values, bearer and basic credentials, the
 * value under a secret's name. Paths, IDs and other long words stay: an error must say what it is about.
 */
export function redactSecrets(text: string): string {
	return text
		.replace(JSON_SECRET, '$1[redacted]"')
		.replace(ESCAPED_JSON_SECRET, '$1[redacted]')
		.replace(/whsec_[A-Za-z0-9+/=_-]*/g, 'whsec_[redacted]')
		.replace(TEXT_SECRET, '$1$2[redacted]')
		.replace(AUTHORIZATION_VALUE, '$1$2[redacted]');
}

/** A problem document with every string passed through redactSecrets and `signing_key` values hidden. */
export function redactDocument(value: unknown, depth = 0): unknown {
	if (typeof value === 'string') return redactSecrets(value);
	if (depth > 20 || typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) return value.map((entry) => redactDocument(entry, depth + 1));
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [
			key,
			key === 'signing_key' ? '[redacted]' : redactDocument(entry, depth + 1),
		]),
	);
}
