/**
 * The Docs links (issue 33): the credential's documentationUrl and each node's codex documentation
 * open this package's README at the section about them. The README's address once published is
 * its npm page, which the package's name decides (no repository URL is known in advance): every
 * link is https://www.npmjs.com/package/<name>#<anchor>, and <anchor> is a heading of README.md
 * (GitHub-style slug, as npm renders it).
 */
import { readFileSync } from 'fs';
import path from 'path';
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';

const ROOT = path.join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string };
const PAGE = `https://www.npmjs.com/package/${pkg.name}#`;

/** The anchors of README.md's headings, as GitHub and npm make them. */
function anchors(): Set<string> {
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/```[\s\S]*?```/g, '');
	return new Set(
		[...readme.matchAll(/^#{1,6} +(.+)$/gm)].map((m) =>
			m[1]
				.trim()
				.toLowerCase()
				.replace(/[^\p{L}\p{N}\s_-]/gu, '')
				.replace(/\s/g, '-'),
		),
	);
}

const codex = (file: string) =>
	JSON.parse(readFileSync(path.join(ROOT, 'nodes', file), 'utf8')) as {
		resources: { primaryDocumentation: Array<{ url: string }>; credentialDocumentation: Array<{ url: string }> };
	};

test.each([
	['the credential', new RecruitingApi().documentationUrl, 'credential'],
	['Recruiting (codex primaryDocumentation)', codex('Recruiting/Recruiting.node.json').resources.primaryDocumentation[0].url, 'operations'],
	['Recruiting (codex credentialDocumentation)', codex('Recruiting/Recruiting.node.json').resources.credentialDocumentation[0].url, 'credential'],
	['Recruiting Trigger (codex primaryDocumentation)', codex('RecruitingTrigger/RecruitingTrigger.node.json').resources.primaryDocumentation[0].url, 'trigger'],
	['Recruiting Trigger (codex credentialDocumentation)', codex('RecruitingTrigger/RecruitingTrigger.node.json').resources.credentialDocumentation[0].url, 'credential'],
	['Recruiting Polling Trigger (codex primaryDocumentation)', codex('RecruitingPollingTrigger/RecruitingPollingTrigger.node.json').resources.primaryDocumentation[0].url, 'trigger'],
	['Recruiting Polling Trigger (codex credentialDocumentation)', codex('RecruitingPollingTrigger/RecruitingPollingTrigger.node.json').resources.credentialDocumentation[0].url, 'credential'],
])('%s links to its section of this package\'s README', (_what, url, anchor) => {
	expect(url).toBe(`${PAGE}${anchor}`);
	expect([...anchors()]).toContain(anchor);
});
