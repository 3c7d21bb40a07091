/**
 * Waiting on processes and ports, for the tests that stop what a command started
 * (test/demo/lifecycle.test.ts, test/sandbox/cli.test.ts).
 */
import { readFileSync } from 'fs';
import net from 'net';

/** Running: exists and is not a zombie (a container's init may be slow to reap orphans). */
export const alive = (pid: number): boolean => {
	try {
		process.kill(pid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
};

export const listening = (port: number): Promise<boolean> =>
	new Promise((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T> {
	const t0 = Date.now();
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await sleep(50);
	}
}
