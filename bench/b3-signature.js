'use strict';
/**
 * B3: µs per delivery for our `verifyWebhookSignature` (dist/nodes/shared/signature.js), in-process,
 * at 1 KB, 10 KB and 1 MB bodies. Median of `rounds` batches; each batch runs long enough
 * (≥ ~200 ms) for the timer not to matter. Signed with the `standardwebhooks` package (dev dependency).
 */
const path = require('path');
const crypto = require('crypto');
const { median } = require('./lib');

function signatureBench(root, { rounds = 7 } = {}) {
	const { verifyWebhookSignature } = require(path.join(root, 'dist/nodes/shared/signature.js'));
	const { Webhook } = require(path.join(root, 'node_modules/standardwebhooks'));
	const secret = 'whsec_' + crypto.randomBytes(24).toString('base64');
	const results = [];
	for (const [label, size] of [
		['1 KB', 1024],
		['10 KB', 10 * 1024],
		['1 MB', 1024 * 1024],
	]) {
		const text = JSON.stringify({ type: 'candidate.updated', data: { object: { blob: 'x'.repeat(size) } } }).slice(0, size);
		const body = Buffer.from(text.padEnd(size, ' '));
		const id = 'msg_' + crypto.randomBytes(8).toString('hex');
		const date = new Date();
		const signature = new Webhook(secret).sign(id, date, body.toString('utf8'));
		const input = {
			body,
			headers: { id, timestamp: String(Math.floor(date.getTime() / 1000)), signature },
			secret,
		};
		if (!verifyWebhookSignature(input).valid) throw new Error(`B3: signature of ${label} did not verify`);
		// Calibrate the batch size to ~200 ms.
		let n = 1;
		for (;;) {
			const t = process.hrtime.bigint();
			for (let i = 0; i < n; i++) verifyWebhookSignature(input);
			const ms = Number(process.hrtime.bigint() - t) / 1e6;
			if (ms > 50) {
				n = Math.max(1, Math.round((n * 200) / ms));
				break;
			}
			n *= 4;
		}
		const perCall = [];
		for (let r = 0; r < rounds; r++) {
			const t = process.hrtime.bigint();
			let ok = 0;
			for (let i = 0; i < n; i++) if (verifyWebhookSignature(input).valid) ok++;
			const ns = Number(process.hrtime.bigint() - t);
			if (ok !== n) throw new Error('B3: a verification failed');
			perCall.push(ns / n / 1000);
		}
		results.push({ label, bytes: size, iterations: n, rounds, usPerDelivery: median(perCall), raw: perCall });
	}
	return results;
}

module.exports = { signatureBench };

if (require.main === module) {
	console.log(JSON.stringify(signatureBench(path.resolve(__dirname, '..')), null, 2));
}
