/**
 * The Standard Webhooks check against deliveries signed by the reference implementation
 * (`standardwebhooks` on npm), with real crypto.
 */
import { randomBytes } from 'crypto';
import { Webhook } from 'standardwebhooks';
import type { SignatureHeaders } from '../../nodes/shared/signature';
import {
	checkSignatureHeaders,
	computeSignature,
	decodeSigningSecret,
	describeSignatureFailure,
	matchSignature,
	readSignatureHeaders,
	verifyWebhookSignature,
} from '../../nodes/shared/signature';

const bareSecret = randomBytes(24).toString('base64');
const secret = `whsec_${bareSecret}`;
const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;

interface Signed {
	body: Buffer;
	headers: SignatureHeaders;
}

/** A delivery as the service sends it: the reference signer over the body text, sent as UTF-8 bytes. */
function sign(payload: string, opts: { key?: string; at?: Date; msgId?: string } = {}): Signed {
	const at = opts.at ?? new Date();
	const msgId = opts.msgId ?? `msg_${randomBytes(8).toString('hex')}`;
	return {
		body: Buffer.from(payload, 'utf8'),
		headers: {
			id: msgId,
			timestamp: String(Math.floor(at.getTime() / 1000)),
			signature: new Webhook(opts.key ?? secret).sign(msgId, at, payload),
		},
	};
}

const payload = JSON.stringify({
	id: 'evt_1',
	type: 'candidate.updated',
	timestamp: '2025-01-01T00:00:00Z',
	data: { object: { id: 'can_1', first_name: 'Ada' } },
});

describe('verifyWebhookSignature', () => {
	it('accepts a delivery signed by the reference implementation', () => {
		const delivery = sign(payload);
		const result = verifyWebhookSignature({ ...delivery, secret });
		expect(result).toEqual({
			valid: true,
			id: delivery.headers.id,
			timestamp: Number(delivery.headers.timestamp),
		});
	});

	it('accepts the secret with and without the whsec_ prefix', () => {
		const delivery = sign(payload);
		expect(verifyWebhookSignature({ ...delivery, secret }).valid).toBe(true);
		expect(verifyWebhookSignature({ ...delivery, secret: bareSecret }).valid).toBe(true);
		const signedWithBare = sign(payload, { key: bareSecret });
		expect(verifyWebhookSignature({ ...signedWithBare, secret }).valid).toBe(true);
	});

	it('accepts a rotation header with an old and a new signature, whichever key it holds', () => {
		const at = new Date();
		const msgId = 'msg_rotation';
		const oldSig = new Webhook(otherSecret).sign(msgId, at, payload);
		const newSig = new Webhook(secret).sign(msgId, at, payload);
		const headers = { id: msgId, timestamp: String(Math.floor(at.getTime() / 1000)) };
		const body = Buffer.from(payload);
		for (const signature of [`${oldSig} ${newSig}`, `${newSig} ${oldSig}`]) {
			expect(verifyWebhookSignature({ body, headers: { ...headers, signature }, secret }).valid).toBe(true);
			expect(
				verifyWebhookSignature({ body, headers: { ...headers, signature }, secret: otherSecret }).valid,
			).toBe(true);
		}
		// Other versions are skipped, not an error, as long as one v1 entry matches.
		const mixed = `v2,${newSig.slice(3)} ${newSig} v1a,xyz`;
		expect(verifyWebhookSignature({ body, headers: { ...headers, signature: mixed }, secret }).valid).toBe(true);
	});

	it('rejects a tampered body', () => {
		const delivery = sign(payload);
		const tampered = Buffer.from(payload.replace('Ada', 'Eve'));
		expect(verifyWebhookSignature({ ...delivery, body: tampered, secret })).toEqual({
			valid: false,
			reason: 'no-matching-signature',
		});
		const extraByte = Buffer.concat([delivery.body, Buffer.from(' ')]);
		expect(verifyWebhookSignature({ ...delivery, body: extraByte, secret }).valid).toBe(false);
	});

	it('rejects a tampered id or timestamp (both are signed)', () => {
		const delivery = sign(payload);
		const headers = { ...delivery.headers, id: `${delivery.headers.id}x` };
		expect(verifyWebhookSignature({ ...delivery, headers, secret }).valid).toBe(false);
		const ts = String(Number(delivery.headers.timestamp) - 1);
		expect(
			verifyWebhookSignature({ ...delivery, headers: { ...delivery.headers, timestamp: ts }, secret }),
		).toEqual({ valid: false, reason: 'no-matching-signature' });
	});

	it('rejects a delivery signed with another key', () => {
		const delivery = sign(payload, { key: otherSecret });
		expect(verifyWebhookSignature({ ...delivery, secret })).toEqual({
			valid: false,
			reason: 'no-matching-signature',
		});
	});

	it('rejects a timestamp 10 minutes old or 10 minutes ahead, accepts one 4 minutes away', () => {
		const now = Date.now();
		const old = sign(payload, { at: new Date(now - 10 * 60_000) });
		const ahead = sign(payload, { at: new Date(now + 10 * 60_000) });
		expect(verifyWebhookSignature({ ...old, secret, nowMs: now })).toEqual({
			valid: false,
			reason: 'timestamp-too-old',
		});
		expect(verifyWebhookSignature({ ...ahead, secret, nowMs: now })).toEqual({
			valid: false,
			reason: 'timestamp-too-new',
		});
		for (const offset of [-4 * 60_000, 4 * 60_000]) {
			const near = sign(payload, { at: new Date(now + offset) });
			expect(verifyWebhookSignature({ ...near, secret, nowMs: now }).valid).toBe(true);
		}
	});

	it('rejects missing or malformed headers, each with its reason', () => {
		const good = sign(payload);
		const cases: Array<[Partial<SignatureHeaders>, string]> = [
			[{ id: undefined }, 'missing-id'],
			[{ id: '' }, 'missing-id'],
			[{ id: 'has space' }, 'invalid-id'],
			[{ timestamp: undefined }, 'missing-timestamp'],
			[{ timestamp: '' }, 'missing-timestamp'],
			[{ timestamp: 'yesterday' }, 'invalid-timestamp'],
			[{ timestamp: '-1' }, 'invalid-timestamp'],
			[{ timestamp: '1.5e9' }, 'invalid-timestamp'],
			[{ signature: undefined }, 'missing-signature'],
			[{ signature: '' }, 'missing-signature'],
			[{ signature: '   ' }, 'missing-signature'],
			[{ signature: `v2,${good.headers.signature!.slice(3)}` }, 'no-v1-signature'],
			[{ signature: 'nocomma' }, 'invalid-signature-header'],
			[{ signature: ',abc' }, 'invalid-signature-header'],
			[{ signature: 'v1,!!!not-base64!!!' }, 'no-matching-signature'],
			[{ signature: 'v1,' }, 'no-matching-signature'],
			[{ signature: `v1,${'A'.repeat(44)}` }, 'no-matching-signature'],
			[{ signature: `${good.headers.signature}=` }, 'no-matching-signature'],
			[{ signature: `v1,${'x'.repeat(9000)}` }, 'invalid-signature-header'],
		];
		for (const [override, reason] of cases) {
			const headers = { ...good.headers, ...override };
			const result = verifyWebhookSignature({ body: good.body, headers, secret });
			expect({ override, result }).toEqual({ override, result: { valid: false, reason } });
		}
	});

	it('fails closed without a body and with an unusable secret', () => {
		const good = sign(payload);
		expect(verifyWebhookSignature({ ...good, body: undefined, secret })).toEqual({
			valid: false,
			reason: 'missing-body',
		});
		for (const bad of ['', 'whsec_', 'whsec_%%%%', 'not base64!']) {
			expect(verifyWebhookSignature({ ...good, secret: bad })).toEqual({
				valid: false,
				reason: 'invalid-secret',
			});
		}
	});

	it('verifies a 1 MB payload', () => {
		const big = JSON.stringify({ type: 'job.updated', data: { object: { description: 'x'.repeat(1024 * 1024) } } });
		const delivery = sign(big);
		expect(delivery.body.length).toBeGreaterThan(1024 * 1024);
		expect(verifyWebhookSignature({ ...delivery, secret }).valid).toBe(true);
	});

	it('hashes non-ASCII body bytes as received', () => {
		const text = JSON.stringify({ type: 'candidate.updated', data: { object: { name: 'Zoë Ångström 山田 🎉' } } });
		const delivery = sign(text);
		expect(delivery.body.length).toBeGreaterThan(text.length);
		expect(verifyWebhookSignature({ ...delivery, secret }).valid).toBe(true);
		// The same characters in another encoding are other bytes: not what was signed.
		const latin1 = Buffer.from(text, 'latin1');
		expect(verifyWebhookSignature({ ...delivery, body: latin1, secret }).valid).toBe(false);
	});

	it('never puts the secret into a result or a reason text', () => {
		const good = sign(payload);
		const results = [
			verifyWebhookSignature({ ...good, secret }),
			verifyWebhookSignature({ ...good, secret: otherSecret }),
			verifyWebhookSignature({ ...good, headers: { ...good.headers, signature: 'v2,x' }, secret }),
		];
		const text = JSON.stringify(results) + results.map((r) => (r.valid ? '' : describeSignatureFailure(r.reason))).join();
		expect(text).not.toContain(bareSecret);
		expect(text).not.toContain(otherSecret.slice(6));
	});
});

describe('helpers', () => {
	it('computeSignature matches the reference signer', () => {
		const at = new Date();
		const ts = Math.floor(at.getTime() / 1000);
		const key = decodeSigningSecret(secret)!;
		expect(`v1,${computeSignature(key, 'msg_1', ts, Buffer.from(payload))}`).toBe(
			new Webhook(secret).sign('msg_1', at, payload),
		);
	});

	it('decodeSigningSecret: prefix optional, garbage refused', () => {
		expect(decodeSigningSecret(secret)).toEqual(Buffer.from(bareSecret, 'base64'));
		expect(decodeSigningSecret(bareSecret)).toEqual(Buffer.from(bareSecret, 'base64'));
		expect(decodeSigningSecret('whsec_')).toBeUndefined();
		expect(decodeSigningSecret('a')).toBeUndefined();
	});

	it('readSignatureHeaders reads lower-case Node headers and ignores repeated ones', () => {
		expect(
			readSignatureHeaders({
				'webhook-id': 'msg_1',
				'webhook-timestamp': '1700000000',
				'webhook-signature': ['v1,a', 'v1,b'],
			}),
		).toEqual({ id: 'msg_1', timestamp: '1700000000', signature: undefined });
	});

	it('checkSignatureHeaders needs no key and keeps the timestamp text that was signed', () => {
		const now = Date.now();
		const ts = String(Math.floor(now / 1000));
		const result = checkSignatureHeaders({ id: 'msg_1', timestamp: `0${ts}`, signature: 'v1,a v2,b v1,c' }, now);
		expect(result).toEqual({
			valid: true,
			id: 'msg_1',
			timestamp: Number(ts),
			timestampText: `0${ts}`,
			v1Signatures: ['a', 'c'],
		});
	});

	it('matchSignature, after checkSignatureHeaders: what verifyWebhookSignature answers, for each key tried', () => {
		const delivery = sign(payload);
		const now = Date.now();
		const check = checkSignatureHeaders(delivery.headers, now);
		if (!check.valid) throw new Error(`headers refused: ${check.reason}`);
		for (const key of [secret, bareSecret, otherSecret, 'not base64!']) {
			const verified = verifyWebhookSignature({ ...delivery, secret: key, nowMs: now });
			expect(matchSignature(check, delivery.body, key)).toEqual(verified);
		}
		expect(matchSignature(check, delivery.body, secret).valid).toBe(true);
		expect(matchSignature(check, delivery.body, otherSecret)).toEqual({ valid: false, reason: 'no-matching-signature' });
		expect(matchSignature(check, delivery.body, 'not base64!')).toEqual({ valid: false, reason: 'invalid-secret' });
		// The keyed half only: headers checked once are not checked against the clock again.
		const late = verifyWebhookSignature({ ...delivery, secret, nowMs: now + 10 * 60_000 });
		expect(late).toEqual({ valid: false, reason: 'timestamp-too-old' });
		expect(matchSignature(check, delivery.body, secret).valid).toBe(true);
	});
});
