#!/usr/bin/env node
/**
 * `npm run scan`: n8n's own community-package scanner (@n8n/scan-community-package, pinned in
 * package.json) on this package, exactly as n8n runs it before verifying a package, minus the
 * two steps that need a published package (provenance, download):
 *
 *   1. the source, with the scanner's file patterns (package.json, nodes/, credentials/);
 *   2. the tarball `npm pack` builds, unpacked, with the scanner's tarball patterns (every .js,
 *      package.json).
 *
 * Both use the scanner's exported `analyzePackage` (its ESLint config, inline disables ignored).
 * It also refuses published JavaScript that no source file produces (left over in dist/).
 * Any error or warning fails the run, and so does an `eslint-disable` comment left in published
 * code. Needs `npm run build` first (the tarball holds dist/).
 *
 * Publisher fields: author e-mail, homepage and repository name a real publisher and cannot be
 * invented, so package.json leaves them out and `prepublishOnly` (scripts/check-publish.js)
 * refuses to publish without them. For the scan only, this script fills them in on the temporary
 * copies it analyses (PUBLISHER_PLACEHOLDERS below); nothing it writes reaches the repository or
 * the registry.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import glob from 'fast-glob';
import { analyzePackage, buildScanConfig, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

/** For the scan only: see the header. */
const PUBLISHER_PLACEHOLDERS = {
	author: { name: 'n8n-nodes-recruiting contributors', email: 'scan-placeholder@example.invalid' },
	homepage: 'https://example.invalid/n8n-nodes-recruiting',
	repository: { type: 'git', url: 'git+https://example.invalid/n8n-nodes-recruiting.git' },
};

function withPublisherFields(packageJsonPath) {
	const pkg = JSON.parse(fs.readFileSync(packageJsonPath, 'utf8'));
	const missing = [];
	if (typeof pkg.author !== 'object' || !pkg.author?.email) missing.push('author');
	if (!pkg.homepage) missing.push('homepage');
	if (!pkg.repository) missing.push('repository');
	for (const field of missing) pkg[field] = PUBLISHER_PLACEHOLDERS[field];
	fs.writeFileSync(packageJsonPath, JSON.stringify(pkg, null, 2) + '\n');
	return missing;
}

function copyTree(from, to) {
	fs.cpSync(from, to, { recursive: true });
}

function inlineDisables(dir, patterns) {
	const found = [];
	const walk = (current) => {
		for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
			const full = path.join(current, entry.name);
			if (entry.isDirectory()) {
				if (entry.name !== 'node_modules') walk(full);
			} else if (patterns.test(entry.name)) {
				const text = fs.readFileSync(full, 'utf8');
				if (/eslint-disable|@ts-ignore|@ts-nocheck|@ts-expect-error/.test(text)) found.push(path.relative(dir, full));
			}
		}
	};
	walk(dir);
	return found;
}

/**
 * The scanner's own verdict (`analyzePackage`: errors fail it), then the same ESLint run with the
 * scanner's config once more for warnings, which `analyzePackage` neither fails on nor reports.
 */
async function scan(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	const eslint = new ESLint({ cwd: dir, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await buildScanConfig() });
	const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	const results = files.length ? await eslint.lintFiles(files) : [];
	const warnings = results.reduce((sum, r) => sum + r.warningCount, 0);
	const ok = result.passed && !result.error && warnings === 0;
	console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}: ${files.length} files${result.message ? `, ${result.message}` : ''}${warnings ? `, ${warnings} warning(s)` : ''}`);
	if (!ok) console.log((await (await eslint.loadFormatter('stylish')).format(results)).trim());
	return ok;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'recruiting-scan-'));
let failures = 0;
try {
	if (!fs.existsSync(path.join(root, 'dist', 'nodes'))) {
		throw new Error('dist/ is missing: run `npm run build` first');
	}

	// 1. Source: the files n8n-node lint covers, in a copy so package.json can get the placeholders.
	const source = path.join(work, 'source');
	fs.mkdirSync(source);
	for (const entry of ['package.json', 'nodes', 'credentials', 'tsconfig.json']) {
		copyTree(path.join(root, entry), path.join(source, entry));
	}
	// The scanner resolves its plugins from its own install; the TS rules need n8n-workflow's types.
	fs.symlinkSync(path.join(root, 'node_modules'), path.join(source, 'node_modules'), 'dir');
	const filledSource = withPublisherFields(path.join(source, 'package.json'));
	if (!(await scan(`source (${SOURCE_FILE_PATTERNS.join(', ')})`, source, SOURCE_FILE_PATTERNS))) failures++;

	// 2. The tarball, as `npm pack` builds it for publishing.
	const packed = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
		cwd: root,
		encoding: 'utf8',
	});
	const tarball = path.join(work, JSON.parse(packed)[0].filename);
	const unpacked = path.join(work, 'tarball');
	fs.mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	const filledTarball = withPublisherFields(path.join(unpacked, 'package.json'));
	if (!(await scan(`tarball ${path.basename(tarball)} (${TARBALL_FILE_PATTERNS.join(', ')})`, unpacked, TARBALL_FILE_PATTERNS))) {
		failures++;
	}

	// 3. No inline disables in what is published (the scanner ignores them; so must we).
	const disabled = [
		...inlineDisables(path.join(root, 'nodes'), /\.ts$/).map((f) => `nodes/${f}`),
		...inlineDisables(path.join(root, 'credentials'), /\.ts$/).map((f) => `credentials/${f}`),
		...inlineDisables(unpacked, /\.js$/).map((f) => `tarball/${f}`),
	];
	if (disabled.length > 0) {
		failures++;
		console.log(`FAIL inline lint/type disables in published code:\n  ${disabled.join('\n  ')}`);
	} else {
		console.log('ok   no inline eslint-disable / @ts-ignore / @ts-expect-error / @ts-nocheck in published code');
	}

	// 4. Nothing stale: every published .js comes from a source .ts of today's tree. A file left in
	// dist/ by an earlier layout (dist/nodes/shared/transport.js beside transport/index.js) is
	// packed too and, for `require('../shared/transport')`, wins over the directory.
	const stale = glob
		.sync('dist/**/*.js', { cwd: unpacked })
		.filter((file) => !fs.existsSync(path.join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'))));
	if (stale.length > 0) {
		failures++;
		console.log(`FAIL published JavaScript without a source file (stale build output; \`npm run build\` cleans dist/):\n  ${stale.join('\n  ')}`);
	} else {
		console.log('ok   every published .js has its .ts source');
	}

	const filled = [...new Set([...filledSource, ...filledTarball])];
	if (filled.length > 0) {
		console.log(`note: for the scan only, placeholders stood in for package.json's ${filled.join(', ')} (see scripts/scan.mjs)`);
	}
} catch (error) {
	failures++;
	console.error(`FAIL scan could not run: ${error.message}`);
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
console.log(failures === 0 ? 'scan: 0 findings' : `scan: ${failures} check(s) with findings`);
process.exit(failures === 0 ? 0 : 1);
