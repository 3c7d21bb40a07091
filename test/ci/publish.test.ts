/**
 * Ready to publish (issue 33): package.json's repository, homepage and bugs are not invented here;
 * the publish workflow writes them from the repository it runs in before `npm publish
 * --provenance`, and scripts/check-publish.js (prepublishOnly) refuses to publish without them.
 */
import { readFileSync } from 'fs';
import path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const { publishProblems } = require(path.join(ROOT, 'scripts', 'check-publish.js')) as { publishProblems: (pkg: object) => string[] };
const { repositoryFields, fieldsToSet } = require(path.join(ROOT, 'scripts', 'set-repository.js')) as {
	repositoryFields: (server?: string, repo?: string) => Record<string, string>;
	fieldsToSet: (pkg: object, fields: Record<string, string>) => Record<string, string>;
};

const complete = {
	name: 'n8n-nodes-recruiting',
	version: '1.0.0',
	author: { name: 'A', email: 'a@example.com' },
	repository: { type: 'git', url: 'git+https://github.com/owner/name.git' },
	homepage: 'https://github.com/owner/name#readme',
	bugs: { url: 'https://github.com/owner/name/issues' },
};

test.each(['repository', 'homepage', 'bugs'] as const)('check-publish refuses a package.json without %s', (field) => {
	const { [field]: _left, ...pkg } = complete;
	expect(publishProblems(pkg).join('\n')).toMatch(new RegExp(`"${field}"`));
	expect(publishProblems(complete)).toEqual([]);
});

test('the repository comes from the run: $GITHUB_SERVER_URL/$GITHUB_REPOSITORY, nothing invented', () => {
	const fields = repositoryFields('https://github.com', 'owner/name');
	expect(fields).toEqual({
		'repository.type': 'git',
		'repository.url': 'git+https://github.com/owner/name.git',
		homepage: 'https://github.com/owner/name#readme',
		'bugs.url': 'https://github.com/owner/name/issues',
	});
	expect(() => repositoryFields(undefined, undefined)).toThrow(/GITHUB_SERVER_URL and GITHUB_REPOSITORY/);
	// What it writes passes the check; what is already right is left alone; another repository is refused.
	const { repository: _r, homepage: _h, bugs: _b, ...bare } = complete;
	const toSet = fieldsToSet(bare, fields);
	const written = { ...bare, repository: { type: toSet['repository.type'], url: toSet['repository.url'] }, homepage: toSet.homepage, bugs: { url: toSet['bugs.url'] } };
	expect(publishProblems(written)).toEqual([]);
	expect(fieldsToSet(complete, fields)).toEqual({});
	expect(() => fieldsToSet(complete, repositoryFields('https://github.com', 'other/fork'))).toThrow(/provenance/);
});

test('the publish workflow sets them before the check and npm publish --provenance; package.json invents none', () => {
	const workflow = readFileSync(path.join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
	const at = (text: string) => workflow.indexOf(text);
	expect(at('node scripts/set-repository.js')).toBeGreaterThan(0);
	expect(at('node scripts/set-repository.js')).toBeLessThan(at('node scripts/check-publish.js'));
	expect(at('node scripts/check-publish.js')).toBeLessThan(at('npm publish --provenance'));
	const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
	expect(pkg.scripts).toMatchObject({ prepublishOnly: expect.stringMatching(/^node scripts\/check-publish\.js/) });
	for (const field of ['repository', 'homepage', 'bugs']) expect(pkg[field]).toBeUndefined();
});
