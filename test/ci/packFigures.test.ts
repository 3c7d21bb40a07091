/**
 * The README's tarball figures are produced, not typed (issue 33): its one sentence "The tarball
 * is N kB (N files, N kB unpacked; `npm pack --dry-run`)." must be what scripts/pack-figures.js
 * computes from `npm pack --dry-run --json` on the built tree now. A node added (the counts grow),
 * a file grown or the README itself changed makes this fail until `node scripts/pack-figures.js
 * --write` is run. Builds dist/ first when it is missing (a fresh clone).
 */
import { execFileSync } from 'child_process';
import { existsSync, readdirSync, readFileSync } from 'fs';
import path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const { packFigures, sentence, SENTENCE } = require(path.join(ROOT, 'scripts', 'pack-figures.js')) as {
	packFigures: () => { files: number; size: number; unpackedSize: number };
	sentence: (figures: { files: number; size: number; unpackedSize: number }) => string;
	SENTENCE: RegExp;
};

beforeAll(() => {
	if (!existsSync(path.join(ROOT, 'dist'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}, 300000);

test('README.md states the figures npm pack --dry-run gives for the tree as it is', () => {
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const stated = SENTENCE.exec(readme)?.[0];
	expect(stated).toBeDefined();
	const figures = packFigures();
	expect(figures.files).toBeGreaterThan(0);
	expect(stated).toBe(sentence(figures));
}, 120000);

test('no page states other tarball figures by hand', () => {
	const pages = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
	const byHand = pages.flatMap((page) => {
		const text = readFileSync(path.join(ROOT, page), 'utf8').replace(SENTENCE, '');
		return [...text.matchAll(/[\d.]+ ?[kK]B tarball|tarball[^.\n]{0,40}\(\d+ files/g)].map((m) => `${page}: ${m[0]}`);
	});
	expect(byHand).toEqual([]);
});
