'use strict';
/**
 * n8n 2.x takes the production webhook URL from WEBHOOK_URL and the test URL from the editor's
 * base URL (N8N_EDITOR_BASE_URL): behind a proxy the two often have different hosts. In an n8n
 * started that way, a production activation during a test listen of the same workflow must
 * recognise the test URL as its own (production takes over; the end of the listen leaves it),
 * and the dashboard's endpoint must come back at the end.
 */
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { startN8n } = require('../../../scripts/n8n/instance');
const { freePort } = require('../../../scripts/n8n/cache');
const { createCredential, sleep, waitFor } = require('../../../scripts/e2e/lib');
const { triggerWorkflow } = require('../../../scripts/n8n/workflow');

async function splitHostChecks(checks, sb, tarball, version) {
	const port = await freePort();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-split-'));
	const n8n = await startN8n({
		version,
		port,
		userFolder,
		communityTarballs: [tarball],
		webhookUrl: `http://127.0.0.1:${port}/`,
		env: { N8N_EDITOR_BASE_URL: `http://localhost:${port}/` },
	});
	const endpoint = async () => (await sb.control.record('webhooks', 'wh_demo')).endpoint;
	try {
		await checks.check('split hosts (WEBHOOK_URL ≠ editor URL): production takes the webhook from a test listen on the other host, the listen leaves it, the endpoint comes back', async () => {
			const original = await endpoint();
			const credential = await createCredential(n8n, sb.sandbox, 'Recruiting (split hosts)');
			const { workflow, nodeWebhookId } = triggerWorkflow(credential, { events: ['candidate.updated'], name: 'E2E: split hosts' });
			const wf = await n8n.api('POST', '/workflows', workflow);
			const full = await n8n.rest('GET', `/workflows/${wf.id}`);
			await n8n.rest('POST', `/workflows/${wf.id}/run`, { workflowData: full.data || full, triggerToStartFrom: { name: 'Recruiting Trigger' } });
			const testUrl = await waitFor('the test listen to take the webhook', async () => {
				const now = await endpoint();
				return now.includes(`/webhook-test/${nodeWebhookId}/`) ? now : undefined;
			});
			assert.ok(testUrl.startsWith(`http://localhost:${port}/`), `test URL on the editor host: ${testUrl}`);
			// Production activation while the test listen holds the webhook: production takes it over
			// (recognising the test URL on the other host as its own, with the original from the
			// listen's note), and the end of the listen leaves it there.
			await n8n.api('POST', `/workflows/${wf.id}/activate`, undefined, { raw: true });
			const productionUrl = await waitFor('production to take the webhook', async () => {
				const now = await endpoint();
				return now.includes(`/webhook/${nodeWebhookId}/`) ? now : undefined;
			});
			assert.ok(productionUrl.startsWith(`http://127.0.0.1:${port}/`), `production URL on the WEBHOOK_URL host: ${productionUrl}`);
			await n8n.rest('DELETE', `/test-webhook/${wf.id}`, undefined, { raw: true });
			await sleep(1000);
			assert.strictEqual(await endpoint(), productionUrl, 'the end of the test listen moved the webhook');
			await n8n.api('POST', `/workflows/${wf.id}/deactivate`, undefined, { raw: true });
			await waitFor('the original endpoint to come back', async () => (await endpoint()) === original, { timeoutMs: 30000 });
			assert.strictEqual(await endpoint(), original);
		});
	} finally {
		await n8n.stop().catch(() => {});
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

module.exports = { splitHostChecks };
