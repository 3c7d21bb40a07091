/**
 * package.json's description, which npm and n8n's community-node listing show (issue 43): the
 * action node's operation count as the node has it, the specification's 18 endpoints with the full
 * API's beyond them (the README's ¹ rows), and all three nodes, the polling trigger included.
 */
import { readFileSync } from 'fs';
import path from 'path';

import { resources } from '../../nodes/Recruiting/actions/resources';

const ROOT = path.join(__dirname, '..', '..');
const { description } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { description: string };

test('the operation count is the node\'s, split as the README splits it', () => {
	const operations = Object.values(resources).reduce((n, map) => n + Object.keys(map).length, 0);
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const fullApi = [...readme.matchAll(/^\| [^|]+ \| (.+) \|$/gm)].reduce((n, m) => n + (m[1].match(/¹/g)?.length ?? 0), 0);
	expect(description).toContain(`${operations} operations`);
	expect(description).toContain(`the API specification's 18 endpoints and ${fullApi} of the service's full API`);
});

test('names the three nodes, the polling trigger included', () => {
	for (const node of ['Recruiting action node', 'Recruiting Trigger', 'Recruiting Polling Trigger']) expect(description).toContain(node);
	expect(description).not.toMatch(/all 18/);
});
