/**
 * bench/ has no import circle (issue 33): what the scripts share lives in bench/setup.js, and no
 * file imports the entry script run.js. Reads every require('./…') of bench/*.js, lazy ones too.
 */
import { readdirSync, readFileSync } from 'fs';
import path from 'path';

const BENCH = path.join(__dirname, '..', '..', 'bench');
const files = readdirSync(BENCH).filter((f) => f.endsWith('.js'));
const imports = new Map(
	files.map((file) => [
		file,
		[...readFileSync(path.join(BENCH, file), 'utf8').matchAll(/require\('\.\/([\w.-]+)'\)/g)].map((m) => (m[1].endsWith('.js') ? m[1] : `${m[1]}.js`)),
	]),
);

test('no bench file imports run.js, the entry script', () => {
	expect(files).toContain('run.js');
	expect([...imports].filter(([, targets]) => targets.includes('run.js')).map(([file]) => file)).toEqual([]);
});

test('no import circle among bench/*.js', () => {
	const circles: string[] = [];
	const walk = (file: string, trail: string[]) => {
		if (trail.includes(file)) {
			circles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
			return;
		}
		for (const next of imports.get(file) ?? []) walk(next, [...trail, file]);
	};
	for (const file of files) walk(file, []);
	expect(circles).toEqual([]);
});
