'use strict';
/**
 * What the documentation tells a user to run, read from the page itself, so that the e2e suite runs
 * it as written: the tarball install into `~/.n8n/nodes` (README.md) and the MCP client snippet
 * (docs/agents-and-mcp.md). Each block is the fenced code block right after an HTML comment
 * `<!-- e2e: <name> (…) -->` in that page.
 */
const fs = require('fs');
const path = require('path');
const { runOk } = require('../n8n/cache');
const { ROOT } = require('./lib');

const README = path.join(ROOT, 'README.md');

/** The MCP client snippet's page. */
const AGENTS_PAGE = path.join(ROOT, 'docs', 'agents-and-mcp.md');

/** The code of the fenced block right after `<!-- e2e: name … -->` in `file` (README.md by default). */
function readmeBlock(name, file = README) {
	const text = fs.readFileSync(file, 'utf8');
	const page = path.relative(ROOT, file);
	const marker = `<!-- e2e: ${name}`;
	const at = text.indexOf(marker);
	if (at < 0) throw new Error(`${page} has no ${marker} … -->`);
	const block = /-->\n```[a-z]*\n([\s\S]*?)\n```/.exec(text.slice(at + marker.length));
	if (!block) throw new Error(`${page} has no code block after ${marker}`);
	return block[1];
}

/**
 * The README's tarball install, run as written by bash with HOME = `userFolder` (so `~/.n8n` is the
 * n8n user folder's data folder, where N8N_USER_FOLDER=userFolder makes n8n look), the tarball
 * copied to `~` under the name the README gives it, and none of npm's own `npm_*` variables (a
 * user's shell has none of `npm test`'s). Returns the command run.
 */
async function installAsReadme({ userFolder, tarball }) {
	const command = readmeBlock('tarball install');
	const name = path.basename(tarball);
	if (!command.includes(`~/${name}`)) {
		throw new Error(`README.md's tarball install does not name ~/${name} (what npm pack wrote): update the README\n${command}`);
	}
	fs.copyFileSync(tarball, path.join(userFolder, name));
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
	await runOk('bash', ['-euo', 'pipefail', '-c', command], { cwd: userFolder, env: { ...env, HOME: userFolder }, timeoutMs: 300000 });
	return command;
}

module.exports = { AGENTS_PAGE, readmeBlock, installAsReadme };
