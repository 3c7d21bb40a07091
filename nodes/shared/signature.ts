import { createHmac, timingSafeEqual } from 'crypto';

/**
 * Standard Webhooks signature verification (https://www.standardwebhooks.com), vendor-neutral
 * and free of n8n imports: pure functions over the raw body bytes and three headers.
 *
 * - `webhook-id`: the message id, identical on every retry of one delivery.
 * - `webhook-timestamp`: unix seconds; rejected when more than the tolerance away from now.
 * - `webhook-signature`: space-separated `v1,<base64 HMAC-SHA256>` entries (several while a
 *   secret rotates); entries of other versions are ignored.
 *
 * The signed content is `${id}.${timestamp}.` followed by the raw body bytes, keyed with the
 * base64-decoded secret (an optional `whsec_` prefix is dropped). Nothing here throws, logs, or
 * puts the secret into a result.
 */

export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const SECRET_PREFIX = 'whsec_';

/*
 * Every pattern below is linear on any input: anchored, one character class each, and the base64
 * body's class never matches the `=` padding after it. The header values are length-checked before
 * any pattern sees them.
 */

/** Standard base64 with optional padding; the Standard Webhooks secret format. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A webhook-id as sent by senders: printable ASCII without spaces, bounded. */
const MAX_MESSAGE_ID_LENGTH = 256;
const MESSAGE_ID = /^[\x21-\x7e]+$/;

/** Unix seconds as decimal digits; no sign, fraction or exponent. */
const MAX_UNIX_SECONDS_LENGTH = 12;
const UNIX_SECONDS = /^\d+$/;

/** A header longer than this is not a signature list anyone sends; refuse to parse it. */
const MAX_SIGNATURE_HEADER_LENGTH = 8 * 1024;

export interface SignatureHeaders {
	id?: string;
	timestamp?: string;
	signature?: string;
}

export type SignatureFailure =
	| 'missing-body'
	| 'missing-id'
	| 'invalid-id'
	| 'missing-timestamp'
	| 'invalid-timestamp'
	| 'timestamp-too-old'
	| 'timestamp-too-new'
	| 'missing-signature'
	| 'invalid-signature-header'
	| 'no-v1-signature'
	| 'invalid-secret'
	| 'no-matching-signature';

/** Headers that passed `checkSignatureHeaders`: what the keyed half of the check needs. */
export interface CheckedSignatureHeaders {
	valid: true;
	id: string;
	/** Unix seconds. */
	timestamp: number;
	/** The header text as sent: it, not a reformatted number, is part of the signed content. */
	timestampText: string;
	v1Signatures: string[];
}

export type SignatureCheck = CheckedSignatureHeaders | { valid: false; reason: SignatureFailure };

export type SignatureResult =
	| { valid: true; id: string; timestamp: number }
	| { valid: false; reason: SignatureFailure };

const REASON_TEXT: Record<SignatureFailure, string> = {
	'missing-body': 'the request body is not available',
	'missing-id': 'the webhook-id header is missing',
	'invalid-id': 'the webhook-id header is malformed',
	'missing-timestamp': 'the webhook-timestamp header is missing',
	'invalid-timestamp': 'the webhook-timestamp header is not unix seconds',
	'timestamp-too-old': 'the webhook-timestamp is too old',
	'timestamp-too-new': 'the webhook-timestamp is too far in the future',
	'missing-signature': 'the webhook-signature header is missing',
	'invalid-signature-header': 'the webhook-signature header is malformed',
	'no-v1-signature': 'the webhook-signature header has no v1 signature',
	'invalid-secret': 'the signing secret is not valid base64',
	'no-matching-signature': 'no signature matches',
};

/** A short English explanation of a failure, safe for logs and responses (it holds no secret). */
export function describeSignatureFailure(reason: SignatureFailure): string {
	return REASON_TEXT[reason];
}

/** Reads the three headers from a Node/Express header object (names are lower case there). */
export function readSignatureHeaders(
	headers: Record<string, string | string[] | undefined>,
): SignatureHeaders {
	const read = (name: string): string | undefined => {
		const value = headers[name];
		// A repeated header arrives as an array only for a few names; treat it as absent.
		return typeof value === 'string' ? value : undefined;
	};
	return {
		id: read('webhook-id'),
		timestamp: read('webhook-timestamp'),
		signature: read('webhook-signature'),
	};
}

/** The key bytes of a secret given as `whsec_<base64>` or bare base64; undefined when unusable. */
export function decodeSigningSecret(secret: string): Buffer | undefined {
	if (typeof secret !== 'string') return undefined;
	const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
	if (!BASE64.test(encoded) || encoded.length % 4 === 1) return undefined;
	const key = Buffer.from(encoded, 'base64');
	return key.length > 0 ? key : undefined;
}

/** base64(HMAC-SHA256(key, `${id}.${timestamp}.` + body)), hashing the body bytes as they came. */
export function computeSignature(
	key: Buffer,
	id: string,
	timestamp: number | string,
	body: Buffer,
): string {
	return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest('base64');
}

/**
 * Everything that can be checked without the secret: headers present and well formed, timestamp
 * within the tolerance, at least one v1 entry. Lets a receiver reject junk before it looks up a key.
 */
export function checkSignatureHeaders(
	headers: SignatureHeaders,
	nowMs: number = Date.now(),
	toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
	const { id, timestamp, signature } = headers;
	if (id === undefined || id === '') return { valid: false, reason: 'missing-id' };
	if (id.length > MAX_MESSAGE_ID_LENGTH || !MESSAGE_ID.test(id)) return { valid: false, reason: 'invalid-id' };
	if (timestamp === undefined || timestamp === '') return { valid: false, reason: 'missing-timestamp' };
	if (timestamp.length > MAX_UNIX_SECONDS_LENGTH || !UNIX_SECONDS.test(timestamp)) {
		return { valid: false, reason: 'invalid-timestamp' };
	}
	if (signature === undefined || signature.trim() === '') {
		return { valid: false, reason: 'missing-signature' };
	}
	if (signature.length > MAX_SIGNATURE_HEADER_LENGTH) {
		return { valid: false, reason: 'invalid-signature-header' };
	}

	const seconds = Number(timestamp);
	const nowSeconds = Math.floor(nowMs / 1000);
	if (nowSeconds - seconds > toleranceSeconds) return { valid: false, reason: 'timestamp-too-old' };
	if (seconds - nowSeconds > toleranceSeconds) return { valid: false, reason: 'timestamp-too-new' };

	const v1Signatures: string[] = [];
	for (const entry of signature.split(' ')) {
		if (entry === '') continue;
		const comma = entry.indexOf(',');
		if (comma <= 0) return { valid: false, reason: 'invalid-signature-header' };
		if (entry.slice(0, comma) === 'v1') v1Signatures.push(entry.slice(comma + 1));
	}
	if (v1Signatures.length === 0) return { valid: false, reason: 'no-v1-signature' };
	return { valid: true, id, timestamp: seconds, timestampText: timestamp, v1Signatures };
}

/** Constant-time comparison of two base64 texts; the length check only reveals a fixed length. */
function signaturesEqual(expected: Buffer, candidate: string): boolean {
	const actual = Buffer.from(candidate, 'latin1');
	return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export interface VerifyInput {
	/** The raw request body, exactly as received. */
	body: Buffer | undefined;
	headers: SignatureHeaders;
	/** `whsec_<base64>` or bare base64. */
	secret: string;
	nowMs?: number;
	toleranceSeconds?: number;
}

/**
 * Verifies one delivery: the one entry point for tests and the benchmark. A receiver that ran
 * `checkSignatureHeaders` first (to refuse junk before it looks up a key) continues with
 * `matchSignature` instead of checking the headers again. Never throws; the result names the
 * reason of a failure.
 */
export function verifyWebhookSignature(input: VerifyInput): SignatureResult {
	try {
		if (!Buffer.isBuffer(input.body)) return { valid: false, reason: 'missing-body' };
		const check = checkSignatureHeaders(input.headers, input.nowMs, input.toleranceSeconds);
		if (!check.valid) return check;
		return matchSignature(check, input.body, input.secret);
	} catch {
		return { valid: false, reason: 'no-matching-signature' };
	}
}

/**
 * The keyed half of `verifyWebhookSignature`: whether one of the checked headers' v1 signatures
 * is the body's under `secret`. Run it once per key to try (a rotated key is tried the same way).
 * Never throws.
 */
export function matchSignature(headers: CheckedSignatureHeaders, body: Buffer, secret: string): SignatureResult {
	try {
		const key = decodeSigningSecret(secret);
		if (!key) return { valid: false, reason: 'invalid-secret' };
		const expected = Buffer.from(computeSignature(key, headers.id, headers.timestampText, body), 'latin1');
		let matched = false;
		// Compare with every entry (no early exit) so the time taken does not depend on which one matched.
		for (const candidate of headers.v1Signatures) {
			if (signaturesEqual(expected, candidate)) matched = true;
		}
		return matched
			? { valid: true, id: headers.id, timestamp: headers.timestamp }
			: { valid: false, reason: 'no-matching-signature' };
	} catch {
		return { valid: false, reason: 'no-matching-signature' };
	}
}
