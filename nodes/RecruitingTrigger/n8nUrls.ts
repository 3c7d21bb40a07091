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

/** Scheme and host lower case, default port dropped: how two spellings of one URL compare. */
function normalise(url: string): string | undefined {
	try {
		return new URL(url).href;
	} catch {
		return undefined;
	}
}

/**
 * @param ownUrl what `getNodeWebhookUrl('default')` returned
 * @param nodeWebhookId the node's `webhookId` (the first segment of its webhook path)
 */
export function ownUrls(ownUrl: string, nodeWebhookId: string | undefined): OwnUrls {
	const own = normalise(ownUrl) ?? ownUrl;
	// Split off `/<webhookId>/…`; without a webhookId, at the first segment after the endpoint.
	let at = nodeWebhookId ? own.lastIndexOf(`/${nodeWebhookId}/`) : -1;
	if (at < 0) {
		const match = /\/webhook(?:-test)?\//.exec(own);
		at = match ? match.index + match[0].length - 1 : -1;
	}
	if (at < 0) {
		return { production: own, test: own, isTest: false, kind: (e) => (normalise(e) === own ? 'own-production' : 'external') };
	}
	const base = own.slice(0, at);
	const rest = own.slice(at);
	const slash = base.lastIndexOf('/');
	const root = base.slice(0, slash + 1);
	const segment = base.slice(slash + 1);
	const isTest = segment.endsWith(TEST_SUFFIX) && segment.length > TEST_SUFFIX.length;
	const productionBase = root + (isTest ? segment.slice(0, -TEST_SUFFIX.length) : segment);
	const testBase = isTest ? base : base + TEST_SUFFIX;
	const production = productionBase + rest;
	const test = testBase + rest;
	return {
		production,
		test,
		isTest,
		kind(endpoint: string): EndpointKind {
			const url = normalise(endpoint);
			if (url === undefined) return 'external';
			if (url === production) return 'own-production';
			if (url === test) return 'own-test';
			if (url.startsWith(productionBase + '/') || url.startsWith(testBase + '/')) return 'other-n8n';
			return 'external';
		},
	};
}
