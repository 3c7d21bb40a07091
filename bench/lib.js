'use strict';
/** Small helpers for the benchmarks: statistics, /proc readings, a sandbox child process. */
const fs = require('fs');
const path = require('path');
const http = require('http');
const { spawn } = require('child_process');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function median(values) {
	const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
	if (!v.length) return NaN;
	const m = Math.floor(v.length / 2);
	return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

function percentile(values, p) {
	const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
	if (!v.length) return NaN;
	const i = Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1));
	return v[i];
}

function loadavg() {
	const [one, five, fifteen] = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').map(Number);
	return { one, five, fifteen };
}

function procStatusKb(pid, field) {
	try {
		const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
		return m ? Number(m[1]) : NaN;
	} catch {
		return NaN;
	}
}

/**
 * Peak RSS of a process during one run: VmHWM after resetting it (`5 > /proc/pid/clear_refs`),
 * and, as a cross-check, the largest VmRSS sampled every 10 ms.
 */
function rssProbe(pid) {
	let resetOk = true;
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
	} catch {
		resetOk = false;
	}
	const beforeKb = procStatusKb(pid, 'VmRSS');
	let sampledKb = beforeKb;
	const timer = setInterval(() => {
		const kb = procStatusKb(pid, 'VmRSS');
		if (kb > sampledKb) sampledKb = kb;
	}, 10);
	return {
		stop() {
			clearInterval(timer);
			const hwmKb = procStatusKb(pid, 'VmHWM');
			const nowKb = procStatusKb(pid, 'VmRSS');
			if (nowKb > sampledKb) sampledKb = nowKb;
			const peakKb = resetOk && Number.isFinite(hwmKb) ? Math.max(hwmKb, sampledKb) : sampledKb;
			return { beforeMb: beforeKb / 1024, peakMb: peakKb / 1024, hwmReset: resetOk };
		},
	};
}

/** The sandbox as its own process (so its event loop never competes with the bare fetch loop). */
async function startSandboxProcess({ root, port, seed }) {
	const args = [path.join(root, 'build/sandbox/sandbox/cli.js'), '--port', String(port)];
	for (const [k, v] of Object.entries(seed)) args.push(`--${k}`, String(v));
	const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	child.stdout.on('data', (d) => (out += d));
	child.stderr.on('data', (d) => (out += d));
	const url = `http://127.0.0.1:${port}`;
	const t0 = Date.now();
	for (;;) {
		if (child.exitCode !== null) throw new Error(`sandbox exited: ${out}`);
		if (Date.now() - t0 > 60000) throw new Error(`sandbox not ready: ${out}`);
		try {
			const res = await fetch(`${url}/__sandbox/info`);
			if (res.ok) {
				const info = await res.json();
				return {
					url,
					info,
					pid: child.pid,
					/** One new connection per call (agent: false), so the connection count stays exact. */
					control(method, p, body) {
						return new Promise((resolve, reject) => {
							const req = http.request(`${url}/__sandbox${p}`, { method, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
								let text = '';
								res.setEncoding('utf8');
								res.on('data', (d) => (text += d));
								res.on('end', () => {
									if (res.statusCode >= 400) reject(new Error(`sandbox ${method} ${p}: ${res.statusCode} ${text}`));
									else resolve(text ? JSON.parse(text) : undefined);
								});
							});
							req.on('error', reject);
							req.end(body === undefined ? undefined : JSON.stringify(body));
						});
					},
					async connections() {
						return (await this.control('GET', '/connections')).connections;
					},
					stop() {
						child.kill('SIGTERM');
					},
				};
			}
		} catch {
			/* not yet */
		}
		await sleep(100);
	}
}

const fmt = (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

module.exports = { sleep, median, percentile, loadavg, procStatusKb, rssProbe, startSandboxProcess, fmt };
