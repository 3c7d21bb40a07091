#!/usr/bin/env node
'use strict';
/**
 * prepublishOnly: refuses to publish while package.json lacks what names its publisher. n8n's
 * scanner requires an author e-mail (and warns without a homepage), and n8n verifies only packages
 * published with npm provenance from a public repository, which `repository` must name; `bugs` is
 * where users report problems. None is invented in this repository: the publish workflow writes
 * `repository`, `homepage` and `bugs` from the repository it runs in (scripts/set-repository.js);
 * the author's e-mail is the publisher's to add.
 */
const path = require('path');

/** What keeps `pkg` from being published; empty when nothing does. */
function publishProblems(pkg) {
	const problems = [];
	const author = typeof pkg.author === 'object' && pkg.author !== null ? pkg.author : {};
	if (typeof pkg.author === 'string' ? !/<[^<>@\s]+@[^<>@\s]+>/.test(pkg.author) : !author.email) {
		problems.push('"author" needs an e-mail address (n8n\'s scanner rule valid-author)');
	}
	if (!pkg.homepage) problems.push('"homepage" is missing (n8n\'s scanner rule require-homepage; the publish workflow sets it)');
	const repoUrl = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository && pkg.repository.url;
	if (!repoUrl || !/github\.com[/:]/.test(repoUrl)) {
		problems.push('"repository" must name the public GitHub repository the package is published from (npm provenance; the publish workflow sets it)');
	}
	const bugsUrl = typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs && pkg.bugs.url;
	if (!bugsUrl) problems.push('"bugs" is missing (where users report problems; the publish workflow sets it)');
	if (pkg.main) problems.push('"main" must not be set: n8n loads the files listed under "n8n"');
	return problems;
}

if (require.main === module) {
	const pkg = require(path.join(__dirname, '..', 'package.json'));
	const problems = publishProblems(pkg);
	if (problems.length > 0) {
		console.error(`Not publishing ${pkg.name}@${pkg.version}:\n  - ${problems.join('\n  - ')}`);
		console.error('See docs/development.md, "Publishing".');
		process.exit(1);
	}
	console.log(`${pkg.name}@${pkg.version}: publisher fields present`);
}

module.exports = { publishProblems };
