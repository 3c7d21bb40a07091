#!/usr/bin/env node
'use strict';
/**
 * Screenshots of the n8n editor with our nodes open (not part of CI):
 *   docs/editor-recruiting-node.png   the Recruiting node (Candidate → Add Tag) of the "hired" example
 *   docs/editor-recruiting-trigger.png the Recruiting Trigger of the same workflow
 *   docs/editor-picker.png            Candidate → Get with the candidate picker open and searched
 *   docs/assistant-chat.png           the "Recruiting assistant" example's chat, answered by the demo's
 *                                      scripted model (assistantModel.js) through the Recruiting tools
 *   build/screenshots/                 for checking, not for the README: a new Recruiting Trigger
 *                                      (Webhook ID still empty), Job Create's Tags rows, the node panel
 *
 *   node scripts/e2e/screenshot.js [--version 2.41.1] [--no-build] [--assistant-only]
 *
 * Starts its own sandbox + n8n (fresh user folder, the packed tarball installed community-style),
 * imports the example, logs in through the sign-in page and opens each node by its URL.
 * Needs Debian's chromium (`apt-get install -y chromium`) and the playwright-core devDependency.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');
const { startN8n } = require('../n8n/instance');
const { parseCliArgs } = require('../cliArgs');
const lib = require('./lib');
const ex = require('./examples');
const { manualTrigger, recruitingNode, chain, triggerWorkflow } = require('../n8n/workflow');
const { startAssistantModel } = require('./assistantModel');
const { createModelCredential } = require('./agentWorkflow');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const SHOTS = [
	{ node: 'Tag as hired', file: 'editor-recruiting-node.png', expect: ['Resource', 'Operation', 'Candidate', 'Tag'] },
	{ node: 'Stage changed', file: 'editor-recruiting-trigger.png', expect: ['Webhook ID', 'Events', 'Get a test event from the recruiting service'] },
];

async function main() {
	const o = parseCliArgs(__filename, {
		version: { type: 'string', default: '2.41.1' },
		'no-build': { type: 'boolean', default: false },
		'assistant-only': { type: 'boolean', default: false },
	});
	if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
	if (!o['no-build']) await lib.buildAll();
	const { tarball, dir } = await lib.packPackage();
	const sb = await lib.startSandbox({ seed: { applications: 300 } });
	await ex.seedExampleRecords(sb.control);
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-shot-'));
	const n8n = await startN8n({ version: o.version, userFolder, communityTarballs: [tarball] });
	let browser;
	let model;
	try {
		const credential = await lib.createCredential(n8n, sb.sandbox);
		const wf = await n8n.api('POST', '/workflows', ex.fillExample('hired', { credential }));
		browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
		await page.goto(`${n8n.url}/signin`, { waitUntil: 'networkidle' });
		await page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(n8n.owner.email);
		await page.locator('input[type="password"]').first().fill(n8n.owner.password);
		await page.locator('button:has-text("Sign in")').first().click();
		await page.waitForURL((u) => !String(u).includes('/signin'), { timeout: 30000 });
		fs.mkdirSync(path.join(lib.ROOT, 'docs'), { recursive: true });
		model = await startAssistantModel();
		await assistantChatShot(page, n8n, sb, credential, model);
		if (o['assistant-only']) return;
		for (const shot of SHOTS) {
			const node = wf.nodes.find((n) => n.name === shot.node);
			await page.goto(`${n8n.url}/workflow/${wf.id}/${node.id}`, { waitUntil: 'networkidle' });
			// The node details view: wait until its parameters are on screen.
			for (const label of shot.expect) {
				await page.getByText(label, { exact: true }).first().waitFor({ state: 'visible', timeout: 30000 });
			}
			await page.waitForTimeout(1000); // icons and the resource locator settle
			const file = path.join(lib.ROOT, 'docs', shot.file);
			await page.screenshot({ path: file });
			lib.log(`saved ${path.relative(lib.ROOT, file)}`);
		}
		// A new trigger as a newcomer adds it, Webhook ID still empty: the panel must already say
		// what to do (build/, not docs/: for checking, not for the README).
		const fresh = triggerWorkflow(credential, { webhookId: '', events: [], name: 'New trigger' }).workflow;
		const freshWf = await n8n.api('POST', '/workflows', fresh);
		const freshNode = freshWf.nodes.find((n) => n.name === 'Recruiting Trigger');
		await page.goto(`${n8n.url}/workflow/${freshWf.id}/${freshNode.id}`, { waitUntil: 'networkidle' });
		await page.getByText('Get a test event from the recruiting service', { exact: true }).first().waitFor({ state: 'visible', timeout: 30000 });
		await page.waitForTimeout(1000);
		const freshFile = path.join(lib.ROOT, 'build', 'screenshots', 'new-trigger.png');
		fs.mkdirSync(path.dirname(freshFile), { recursive: true });
		await page.screenshot({ path: freshFile });
		lib.log(`saved ${path.relative(lib.ROOT, freshFile)}`);

		// Job Create's Tags: one row by name (no tag picked in the dropdown), one picked (for checking).
		const tagsWf = await n8n.api(
			'POST',
			'/workflows',
			chain('Tags', [
				manualTrigger(),
				recruitingNode(
					'Create job',
					{ resource: 'job', operation: 'create', title: 'Data Engineer', additionalFields: { tags: { tag: [{ id: '', name: 'Senior' }, { id: ex.HIRED_TAG.id, name: '' }] } } },
					credential,
					{ typeVersion: 1.1 },
				),
			]),
		);
		const tagsNode = tagsWf.nodes.find((n) => n.name === 'Create job');
		await page.goto(`${n8n.url}/workflow/${tagsWf.id}/${tagsNode.id}`, { waitUntil: 'networkidle' });
		await page.getByText('Or Tag Name', { exact: true }).first().waitFor({ state: 'visible', timeout: 30000 });
		await page.waitForTimeout(2500); // the dropdown's options load from the sandbox
		await page.screenshot({ path: path.join(lib.ROOT, 'build', 'screenshots', 'tags-rows.png'), fullPage: true });
		lib.log('saved build/screenshots/tags-rows.png');
		// The node panel: searching "recruiting" shows the merged entry with the trigger's description.
		await page.goto(`${n8n.url}/workflow/${tagsWf.id}`, { waitUntil: 'networkidle' });
		await page.locator('[data-test-id="node-creator-plus-button"]').first().click({ timeout: 30000 });
		await page.locator('[data-test-id="node-creator-search-bar"] input, input[placeholder*="Search"]').first().fill('recruiting');
		await page.waitForTimeout(2000);
		await page.screenshot({ path: path.join(lib.ROOT, 'build', 'screenshots', 'node-panel.png') });
		lib.log('saved build/screenshots/node-panel.png');

		// The picker: Candidate → Get (node version 1.1), the list opened and searched as a user would.
		const pickerWf = await n8n.api(
			'POST',
			'/workflows',
			chain('Picker', [
				manualTrigger(),
				recruitingNode('Get candidate', { resource: 'candidate', operation: 'get', candidateId: { __rl: true, mode: 'list', value: '' } }, credential, { typeVersion: 1.1 }),
			]),
		);
		const pickerNode = pickerWf.nodes.find((n) => n.name === 'Get candidate');
		await page.goto(`${n8n.url}/workflow/${pickerWf.id}/${pickerNode.id}`, { waitUntil: 'networkidle' });
		await page.getByText('Candidate', { exact: true }).first().waitFor({ state: 'visible', timeout: 30000 });
		await page.getByPlaceholder('Select a candidate...').first().click();
		const searchBox = page.getByPlaceholder(/Search/i).last();
		await searchBox.waitFor({ state: 'visible', timeout: 30000 });
		await searchBox.fill('an');
		await page.waitForTimeout(2500); // the search runs against the sandbox
		const pickerFile = path.join(lib.ROOT, 'docs', 'editor-picker.png');
		await page.screenshot({ path: pickerFile });
		lib.log(`saved ${path.relative(lib.ROOT, pickerFile)}`);
	} finally {
		if (browser) await browser.close();
		if (model) await model.close();
		await n8n.stop();
		await sb.sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * The assistant example as the demo imports it, its chat opened from the canvas ("Open chat") and
 * two messages typed, each answered through the Recruiting tools.
 */
async function assistantChatShot(page, n8n, sb, credential, model) {
	const modelCredential = await createModelCredential(n8n, model.url, { name: 'OpenAI (demo: scripted model)', apiKey: 'sk-demo-screenshot' });
	const wf = await n8n.api('POST', '/workflows', ex.fillExample('assistant', { credential, modelCredential }));
	const apps = sb.seeded.values('applications');
	const screening = apps.filter((a) => a.stage.parent_stage === 'screening');
	const jobId = screening[0].job.id;
	const app = screening.find((a) => a.job.id === jobId);
	await page.goto(`${n8n.url}/workflow/${wf.id}`, { waitUntil: 'networkidle' });
	const fail = path.join(lib.ROOT, 'build', 'screenshots', 'assistant-chat-failed.png');
	fs.mkdirSync(path.dirname(fail), { recursive: true });
	try {
		// The canvas's "Open chat" button under the chat trigger (the canvas pane overlaps its edge).
		const chatButton = page.locator('[data-test-id="workflow-chat-button"]');
		if (await chatButton.count()) await chatButton.first().click({ timeout: 30000 });
		else await page.getByRole('button', { name: /open chat/i }).first().click({ timeout: 30000, force: true });
		const input = page.getByPlaceholder(/Type message/i).first();
		// The answer is the model's text; the stand-in begins each with what it did. The list last,
		// so the chat shows it.
		const exchanges = [
			[`tag ${app.candidate.id} as Hired`, `Tagged ${app.candidate.id}`],
			[`find applications for job ${jobId} at screening`, 'Applications to'],
		];
		for (const [message, answer] of exchanges) {
			await input.waitFor({ state: 'visible', timeout: 30000 });
			await input.fill(message);
			await input.press('Enter');
			await page.getByText(answer).first().waitFor({ state: 'visible', timeout: 60000 });
		}
		// n8n's "Workflow executed successfully" toasts cover the canvas: closed.
		for (const close of await page.locator('.el-notification__closeBtn').all()) await close.click().catch(() => {});
		// The chat scrolled to the start of the list answer (it ends scrolled to the bottom).
		for (const start of await page.getByText(/^Applications to/).all()) await start.scrollIntoViewIfNeeded().catch(() => {});
	} catch (e) {
		await page.screenshot({ path: fail });
		throw new Error(`${e.message}\n(the page then: ${path.relative(lib.ROOT, fail)})`);
	}
	await page.waitForTimeout(1500);
	const file = path.join(lib.ROOT, 'docs', 'assistant-chat.png');
	await page.screenshot({ path: file });
	lib.log(`saved ${path.relative(lib.ROOT, file)}`);
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
