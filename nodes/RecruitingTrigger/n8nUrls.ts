/**
 * Recognising this n8n instance's webhook URLs from inside a hook, without its settings: the
 * node's own URL is `<instance>/<endpoint>/<node webhook id>/webhook`, where `<endpoint>` is the
 * production (`webhook`) or test (`webhook-test`) path. n8n names the test path after the
 * production one with `-test`, so either gives the other; any URL under one of the two belongs to
 * a workflow of this instance. (With custom endpoint names that do not follow that pattern only
 * the node's own kind of URL is recognised.)
 */

export type EndpointKind =
	/** Not a webhook URL of this n8n: the dashboard's own endpoint. */
	| 'external'
	/** This node's production URL. */
	| 'own-production'
	/** This node's "Listen for test event" URL. */
	| 'own-test'
	/** Another webhook URL of this n8n: another workflow (or node) holds the webhook. */
	| 'other-n8n';

export interface OwnUrls {
	production: string;
	test: string;
	/** Whether the URL n8n gave this call is the test one. */
	isTest: boolean;
	kind(endpoint: string): EndpointKind;
}

const TEST_SUFFIX = '-test';

/** An n8n webhook id: the path segment n8n gives each webhook node. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface ParsedUrl {
	/** Scheme and host, lower case, default port dropped. */
	origin: string;
	/** Path segments, lower case (n8n matches webhook paths without regard to case), no empty ones. */
	segments: string[];
}

/** How two spellings of one webhook URL compare: no query, no trailing slash, case ignored. */
function parse(url: string): ParsedUrl | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return undefined;
	}
	const segments = parsed.pathname
		.toLowerCase()
		.split('/')
		.filter((segment) => segment !== '');
	return { origin: parsed.origin.toLowerCase(), segments };
}

/** Whether two URLs are the same webhook URL (what the service stored may be spelled differently). */
export function sameEndpoint(a: string | undefined, b: string | undefined): boolean {
	if (a === undefined || b === undefined) return false;
	const left = parse(a);
	const right = parse(b);
	return (
		left !== undefined &&
		right !== undefined &&
		left.origin === right.origin &&
		left.segments.join('/') === right.segments.join('/')
	);
}

/**
 * @param ownUrl what `getNodeWebhookUrl('default')` returned
 * @param nodeWebhookId the node's `webhookId` (the first segment of its webhook path)
 */
export function ownUrls(ownUrl: string, nodeWebhookId: string | undefined): OwnUrls {
	const own = new URL(ownUrl).href;
	// Split off `/<webhookId>/…`; without a webhookId, at the first segment after the endpoint.
	let at = nodeWebhookId ? own.lastIndexOf(`/${nodeWebhookId}/`) : -1;
	if (at < 0) {
		const match = /\/webhook(?:-test)?\//.exec(own);
		at = match ? match.index + match[0].length - 1 : -1;
	}
	if (at < 0) {
		return { production: own, test: own, isTest: false, kind: (e) => (sameEndpoint(e, own) ? 'own-production' : 'external') };
	}
	const base = own.slice(0, at);
	const rest = own.slice(at);
	const slash = base.lastIndexOf('/');
	const root = base.slice(0, slash + 1);
	const segment = base.slice(slash + 1);
	const isTest = segment.endsWith(TEST_SUFFIX) && segment.length > TEST_SUFFIX.length;
	const productionSegment = (isTest ? segment.slice(0, -TEST_SUFFIX.length) : segment).toLowerCase();
	const testSegment = productionSegment + TEST_SUFFIX;
	const production = root + productionSegment + rest;
	const test = root + testSegment + rest;
	const ownId = nodeWebhookId?.toLowerCase();
	const rootParsed = parse(root);

	return {
		production,
		test,
		isTest,
		kind(endpoint: string): EndpointKind {
			const url = parse(endpoint);
			if (url === undefined) return 'external';
			const { segments } = url;
			const last = segments.length - 1;
			const isEndpoint = (s: string | undefined) => s === productionSegment || s === testSegment;
			// This node's URLs on any host: n8n can give production and test URLs different hosts
			// (WEBHOOK_URL and the editor's URL), and a proxy may add another; the webhook id is the node's.
			if (ownId !== undefined && last >= 2 && segments[last] === 'webhook' && segments[last - 1] === ownId) {
				if (segments[last - 2] === productionSegment) return 'own-production';
				if (segments[last - 2] === testSegment) return 'own-test';
			}
			// Another node's URL, on any host: `<endpoint>/<webhook id>/webhook`.
			if (last >= 2 && segments[last] === 'webhook' && UUID.test(segments[last - 1]) && isEndpoint(segments[last - 2])) {
				return 'other-n8n';
			}
			// Any other path under this instance's endpoints (a Webhook node's own path).
			if (rootParsed && url.origin === rootParsed.origin) {
				const prefix = rootParsed.segments;
				const under = prefix.every((s, i) => segments[i] === s);
				if (under && segments.length > prefix.length + 1 && isEndpoint(segments[prefix.length])) return 'other-n8n';
			}
			return 'external';
		},
	};
}
