#!/usr/bin/env node
'use strict';
/**
 * The package's figures as `npm pack --dry-run --json` gives them for the built tree (dist/): files,
 * tarball size and unpacked size. The README states them in one sentence, which this script writes
 * and test/ci/packFigures.test.ts compares with a fresh count, so a stated figure cannot go stale
 * (a node added, a file grown): run `npm run build && node scripts/pack-figures.js --write`.
 *
 *   node scripts/pack-figures.js            prints the sentence
 *   node scripts/pack-figures.js --write    rewrites it in README.md
 */
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.join(__dirname, '..');
const README = path.join(ROOT, 'README.md');
/** The sentence, as README.md holds it (one line). */
const SENTENCE = /The tarball is [\d.]+ kB \([\d,]+ files, [\d.]+ kB unpacked; `npm pack --dry-run`\)\./;

/** npm's own units: kB of 1,000 bytes, one decimal. */
const kB = (bytes) => (bytes / 1000).toFixed(1);

/** { files, size, unpackedSize } of what `npm pack` would put in the tarball now. */
function packFigures(root = ROOT) {
	if (!fs.existsSync(path.join(root, 'dist'))) throw new Error('dist/ is missing: run npm run build first');
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	const [pack] = JSON.parse(out);
	return { files: pack.entryCount ?? pack.files.length, size: pack.size, unpackedSize: pack.unpackedSize };
}

function sentence({ files, size, unpackedSize }) {
	return `The tarball is ${kB(size)} kB (${files.toLocaleString('en-US')} files, ${kB(unpackedSize)} kB unpacked; \`npm pack --dry-run\`).`;
}

if (require.main === module) {
	const text = sentence(packFigures());
	if (process.argv.includes('--write')) {
		const readme = fs.readFileSync(README, 'utf8');
		if (!SENTENCE.test(readme)) throw new Error('README.md holds no "The tarball is … kB (… files, …)." sentence');
		fs.writeFileSync(README, readme.replace(SENTENCE, text));
	}
	console.log(text);
}

module.exports = { packFigures, sentence, SENTENCE };
