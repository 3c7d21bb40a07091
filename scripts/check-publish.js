#!/usr/bin/env node
'use strict';
/**
 * prepublishOnly: refuses to publish while package.json lacks what names its publisher. n8n's
 * scanner requires an author e-mail (and warns without a homepage), and n8n verifies only packages
 * published with npm provenance from a public repository, which `repository` must name. These
 * cannot be invented in this repository: the publisher adds them before the first release.
 */
const path = require('path');

const pkg = require(path.join(__dirname, '..', 'package.json'));
const problems = [];
const author = typeof pkg.author === 'object' && pkg.author !== null ? pkg.author : {};
if (typeof pkg.author === 'string' ? !/<[^<>@\s]+@[^<>@\s]+>/.test(pkg.author) : !author.email) {
	problems.push('"author" needs an e-mail address (n8n\'s scanner rule valid-author)');
}
if (!pkg.homepage) problems.push('"homepage" is missing (n8n\'s scanner rule require-homepage)');
const repoUrl = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository && pkg.repository.url;
if (!repoUrl || !/github\.com[/:]/.test(repoUrl)) {
	problems.push('"repository" must name the public GitHub repository the package is published from (npm provenance)');
}
if (pkg.main) problems.push('"main" must not be set: n8n loads the files listed under "n8n"');
if (problems.length > 0) {
	console.error(`Not publishing ${pkg.name}@${pkg.version}:\n  - ${problems.join('\n  - ')}`);
	console.error('See "Publishing" in README.md.');
	process.exit(1);
}
console.log(`${pkg.name}@${pkg.version}: publisher fields present`);
