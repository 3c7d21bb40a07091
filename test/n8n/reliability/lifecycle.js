#!/usr/bin/env node
'use strict';
/**
 * Reliability, part 5: the Recruiting Trigger's lifecycle in a real n8n, installed the way users
 * get it (npm pack → community package), against the sandbox.
 *
 * 20 cycles of activate / deactivate through n8n's public API; every 4th cycle restarts n8n while
 * the workflow is active (a restart calls neither create nor delete: the webhook must stay on
 * n8n, a signed delivery must still start an execution), then deactivates. After every
 * deactivation, and at the end, the sandbox's `wh_demo` must be exactly as it started (endpoint,
 * events, name, description). Then n8n killed, and restarted, during a "Listen for test event":
 * both an activation and a new test listen afterwards must bring the dashboard's endpoint back.
 *
 *   node test/n8n/reliability/lifecycle.js [--version 2.41.1] [--cycles 20] [--restart-every 4] [--no-build]
 *
 * Prints progress; the last line is `N passed, N failed`. Writes build/reliability/lifecycle.json.
 */
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseCliArgs } = require('../../../scripts/cliArgs');
const lib = require('../../../scripts/e2e/lib');
const { triggerWorkflow } = require('../../../scripts/n8n/workflow');
const { startN8n } = require('../../../scripts/n8n/instance');

const REPORT_DIR = path.join(lib.ROOT, 'build', 'reliability');
const EVENTS = ['candidate.updated', 'job.created', 'application.created'];

function parseArgs(argv) {
	const values = parseCliArgs(
		__filename,
		{
			version: { type: 'string', default: '2.41.1' },
			cycles: { type: 'string', default: '20' },
			'restart-every': { type: 'string', default: '4' },
			'no-build': { type: 'boolean', default: false },
		},
		argv,
	);
	return { version: values.version, cycles: Number(values.cycles), restartEvery: Number(values['restart-every']), build: !values['no-build'] };
}

/** The part of a webhook deactivation must put back. */
const dashboard = (w) => ({
	endpoint: w.endpoint,
	subscribed_events: w.subscribed_events,
	name: w.name,
	description: w.description,
});

async function main() {
	const o = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const checks = new lib.Checks();
	const counts = { cycles: 0, restarts: 0, deliveriesVerified: 0, webhookLeftChanged: 0 };
	let sb;
	let n8n;
	try {
		if (o.build) await lib.buildAll();
		const { tarball } = await lib.packPackage();
		sb = await lib.startSandbox({ seed: { applications: 5, jobs: 2, candidates: 5 } });
		const { control } = sb;
		const original = dashboard(await control.record('webhooks', 'wh_demo'));
		lib.log(`wh_demo starts as ${JSON.stringify(original)}`);

		const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-lifecycle-'));
		n8n = await startN8n({ version: o.version, userFolder, communityTarballs: [tarball] });
		const credential = await lib.createCredential(n8n, {
			url: sb.sandbox.url,
			companyId: sb.sandbox.companyId,
			token: sb.sandbox.token,
		});
		const { workflow, productionUrl } = triggerWorkflow(credential, { events: EVENTS, name: 'Reliability: lifecycle' });
		const wf = await n8n.api('POST', '/workflows', workflow);
		const url = productionUrl(n8n.webhookUrl);

		const onN8n = async () => {
			const now = await control.record('webhooks', 'wh_demo');
			return now.endpoint === url && [...now.subscribed_events].sort().join() === [...EVENTS].sort().join();
		};
		const restored = async () => {
			const now = dashboard(await control.record('webhooks', 'wh_demo'));
			try {
				assert.deepStrictEqual(now, original);
				return true;
			} catch {
				return false;
			}
		};

		/** A signed delivery from the sandbox, sent until n8n's production URL answers 200. */
		const acceptedDelivery = async (what) => {
			const delivery = await lib.waitFor(
				what,
				async () => {
					const d = await control.deliver({ webhookId: 'wh_demo', event: 'candidate.updated' });
					return d.status === 200 && d;
				},
				{ timeoutMs: 20000, intervalMs: 500 },
			);
			assert.strictEqual(delivery.endpoint, url);
			counts.deliveriesVerified++;
		};

		for (let cycle = 1; cycle <= o.cycles; cycle++) {
			const restart = o.restartEvery > 0 && cycle % o.restartEvery === 0;
			checks.prefix = `cycle ${String(cycle).padStart(2)}: `;
			await checks.check('activate → wh_demo points at n8n with the selected events', async () => {
				await n8n.api('POST', `/workflows/${wf.id}/activate`);
				await lib.waitFor('wh_demo to point at n8n', onN8n, { timeoutMs: 20000 });
			});
			if (restart) {
				await checks.check('restart n8n while active → still on n8n, a signed delivery is accepted', async () => {
					await n8n.restart();
					counts.restarts++;
					assert.ok(await onN8n(), 'a restart changed the webhook');
					// The new process has no signing key in memory: it fetches it on the first delivery.
					await acceptedDelivery('a delivery the restarted n8n accepts');
				});
			}
			await checks.check('deactivate → wh_demo exactly as it started', async () => {
				await n8n.api('POST', `/workflows/${wf.id}/deactivate`);
				await lib.waitFor('wh_demo to be restored', restored, { timeoutMs: 20000 });
			});
			counts.cycles++;
		}
		// n8n restarted during "Listen for test event": n8n keeps a listen only in memory and runs no
		// hook for it after a restart, so the webhook stays on the test URL. The listen's note in the
		// description must bring the dashboard's endpoint back, whichever way the user goes on.
		const testUrl = url.replace('/webhook/', '/webhook-test/');
		const listen = async () => {
			const full = await n8n.rest('GET', `/workflows/${wf.id}`);
			const run = await n8n.rest('POST', `/workflows/${wf.id}/run`, { workflowData: full, triggerToStartFrom: { name: 'Recruiting Trigger' } });
			assert.strictEqual(run.waitingForWebhook, true, JSON.stringify(run));
			const now = await lib.waitFor('wh_demo on the test URL', async () => {
				const w = await control.record('webhooks', 'wh_demo');
				return w.endpoint === testUrl && w;
			});
			assert.ok(now.description.startsWith(`${original.description}\n\n[n8n holds this webhook`), `no note in: ${now.description}`);
		};
		const cutShort = async (how) => {
			await listen();
			await n8n.stop({ force: how === 'killed' });
			await n8n.start();
			counts.restarts++;
			assert.strictEqual((await control.record('webhooks', 'wh_demo')).endpoint, testUrl, 'expected the webhook left on the test URL');
		};
		for (const how of ['killed', 'restarted']) {
			checks.prefix = `test listen, n8n ${how} during it: `;
			await checks.check('activate afterwards → production with the original events; deactivate → wh_demo exactly as it started', async () => {
				await cutShort(how);
				await n8n.api('POST', `/workflows/${wf.id}/activate`);
				await lib.waitFor('wh_demo to point at n8n', onN8n, { timeoutMs: 20000 });
				const taken = (await control.record('webhooks', 'wh_demo')).description;
				assert.ok(taken.startsWith(`${original.description}\n\n[n8n holds this webhook`) && taken.includes(`"holder":"${url}"`), `description: ${taken}`);
				await acceptedDelivery('a delivery n8n accepts');
				await n8n.api('POST', `/workflows/${wf.id}/deactivate`);
				await lib.waitFor('wh_demo to be restored', restored, { timeoutMs: 20000 });
			});
			await checks.check('a new test listen afterwards → its test event ends it → wh_demo exactly as it started', async () => {
				await cutShort(how);
				await listen();
				const delivery = await control.deliver({ webhookId: 'wh_demo', event: 'candidate.updated' });
				assert.strictEqual(delivery.status, 200, `the test event answered ${delivery.status}`);
				await lib.waitFor('wh_demo to be restored', restored, { timeoutMs: 20000 });
			});
		}
		checks.prefix = '';
		await checks.check('after all cycles: wh_demo endpoint, events, name and description as at the start', async () => {
			const now = dashboard(await control.record('webhooks', 'wh_demo'));
			if (!(await restored())) counts.webhookLeftChanged = 1;
			assert.deepStrictEqual(now, original);
		});
	} catch (error) {
		if (!(error instanceof lib.FatalCheck)) {
			checks.prefix = '';
			checks.fail('setup', error);
		}
	} finally {
		if (n8n) await n8n.stop().catch(() => {});
		if (sb) await sb.sandbox.close().catch(() => {});
	}
	const seconds = (Date.now() - started) / 1000;
	fs.mkdirSync(REPORT_DIR, { recursive: true });
	fs.writeFileSync(
		path.join(REPORT_DIR, 'lifecycle.json'),
		JSON.stringify(
			{
				part: 'lifecycle',
				finishedAt: new Date().toISOString(),
				durationMs: Math.round(seconds * 1000),
				n8nVersion: o.version,
				counts: { ...counts, checksPassed: checks.passed, checksFailed: checks.failed },
				notes: [`${o.cycles} cycles, a restart every ${o.restartEvery}`],
			},
			null,
			2,
		) + '\n',
	);
	process.stdout.write(`lifecycle on n8n ${o.version}: ${counts.cycles} cycles, ${counts.restarts} restarts in ${seconds.toFixed(0)}s\n`);
	process.stdout.write(`${checks.passed} passed, ${checks.failed} failed\n`);
	process.exit(checks.failed > 0 ? 1 : 0);
}

main();
