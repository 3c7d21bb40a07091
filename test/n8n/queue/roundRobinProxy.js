'use strict';
/**
 * A small round-robin HTTP proxy on 127.0.0.1: one public webhook URL in front of several
 * `n8n webhook` processes (n8n binds its port without SO_REUSEPORT, so two processes cannot
 * share one port).
 *
 *   const proxy = await startRoundRobinProxy({ port, backends: ['http://127.0.0.1:5681', ...] });
 *   proxy.url;            // http://127.0.0.1:<port>
 *   proxy.served;         // requests forwarded per backend, in backend order
 *   await proxy.close();
 *
 * Every answer carries `x-served-by: <backend index>`, so a caller can send a retry to the other
 * process. A request is forwarded once and never retried (retrying a POST could run it twice); a
 * backend that cannot be reached gets 502. One connection per request to the backend (as nginx
 * does by default): a kept-alive connection can be closed by n8n at the moment it is reused, and
 * under load that gave a 502 (ECONNRESET) about once in 2,000 requests.
 */
const http = require('http');

const SERVED_BY = 'x-served-by';
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'];

function withoutHopByHop(headers) {
	const out = { ...headers };
	for (const h of HOP_BY_HOP) delete out[h];
	return out;
}

async function startRoundRobinProxy({ port = 0, backends }) {
	if (!backends || !backends.length) throw new Error('startRoundRobinProxy: no backends');
	const targets = backends.map((b) => new URL(b));
	const agent = new http.Agent({ keepAlive: false });
	const served = targets.map(() => 0);
	let next = 0;

	const server = http.createServer((req, res) => {
		const index = next;
		next = (next + 1) % targets.length;
		served[index]++;
		const target = targets[index];
		const upstream = http.request(
			{
				host: target.hostname,
				port: target.port,
				method: req.method,
				path: req.url,
				headers: withoutHopByHop(req.headers),
				agent,
			},
			(answer) => {
				res.writeHead(answer.statusCode, { ...withoutHopByHop(answer.headers), [SERVED_BY]: String(index) });
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			if (res.headersSent) return res.destroy(error);
			res.writeHead(502, { 'content-type': 'application/json', [SERVED_BY]: String(index) });
			res.end(JSON.stringify({ message: `backend ${index} unreachable: ${error.message}` }));
		});
		req.pipe(upstream);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const url = `http://127.0.0.1:${server.address().port}`;
	return {
		url,
		port: server.address().port,
		backends: targets.map((t) => t.origin),
		served,
		close: () =>
			new Promise((resolve) => {
				agent.destroy();
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

module.exports = { startRoundRobinProxy, SERVED_BY };
