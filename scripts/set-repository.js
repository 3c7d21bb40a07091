#!/usr/bin/env node
'use strict';
/**
 * The publish workflow's step before `npm publish --provenance`: package.json's `repository`,
 * `homepage` and `bugs` name the repository the package is built from. They are not written in the
 * repository itself (its public address is not known in advance, and none is invented): on GitHub
 * Actions this script takes it from the run, `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY`, and writes
 * the three fields with `npm pkg set`, so npm's provenance check (which compares `repository` with
 * the repository that built the package) passes. A field already set to another repository is an
 * error, not overwritten. scripts/check-publish.js then refuses to publish without them.
 *
 *   node scripts/set-repository.js            reads GITHUB_SERVER_URL and GITHUB_REPOSITORY
 */
const path = require('path');
const { execFileSync } = require('child_process');

/** The three fields for a repository at `serverUrl/repository` (e.g. https://github.com + owner/name). */
function repositoryFields(serverUrl, repository) {
	if (!/^https:\/\/[^/\s]+$/.test(String(serverUrl ?? '')) || !/^[\w.-]+\/[\w.-]+$/.test(String(repository ?? ''))) {
		throw new Error(
			`GITHUB_SERVER_URL and GITHUB_REPOSITORY must name the repository this runs in (got "${serverUrl ?? ''}" and "${repository ?? ''}"); ` +
				'run this in GitHub Actions, or set repository, homepage and bugs in package.json by hand.',
		);
	}
	const web = `${serverUrl}/${repository}`;
	return { 'repository.type': 'git', 'repository.url': `git+${web}.git`, homepage: `${web}#readme`, 'bugs.url': `${web}/issues` };
}

/** The fields to write into `pkg` (none that are already right); throws when one names another repository. */
function fieldsToSet(pkg, fields) {
	const current = {
		'repository.type': typeof pkg.repository === 'object' && pkg.repository ? pkg.repository.type : undefined,
		'repository.url': typeof pkg.repository === 'string' ? pkg.repository : pkg.repository && pkg.repository.url,
		homepage: pkg.homepage,
		'bugs.url': typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs && pkg.bugs.url,
	};
	const toSet = {};
	for (const [key, value] of Object.entries(fields)) {
		if (current[key] === undefined || current[key] === '') toSet[key] = value;
		else if (current[key] !== value) {
			throw new Error(`package.json's ${key} is "${current[key]}", but this runs in ${fields.homepage.replace(/#readme$/, '')} ("${value}"): npm's provenance check would refuse it. Correct or remove it.`);
		}
	}
	return toSet;
}

if (require.main === module) {
	try {
		const root = path.join(__dirname, '..');
		const pkg = require(path.join(root, 'package.json'));
		const toSet = fieldsToSet(pkg, repositoryFields(process.env.GITHUB_SERVER_URL, process.env.GITHUB_REPOSITORY));
		const args = Object.entries(toSet).map(([key, value]) => `${key}=${value}`);
		if (args.length > 0) execFileSync('npm', ['pkg', 'set', ...args], { cwd: root, stdio: 'inherit' });
		console.log(args.length > 0 ? `package.json: ${args.join(', ')}` : 'package.json already names this repository');
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	}
}

module.exports = { repositoryFields, fieldsToSet };
