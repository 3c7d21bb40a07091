import { enteredText } from './text';

/**
 * The one rule for the credential's Base URL. The transport applies it before every request
 * (checkBaseUrl); n8n sends the credential test by itself, before any node code runs, so the
 * credential gets the same rule as an n8n expression generated from the same patterns
 * (baseUrlExpression). Patterns and plain string steps only: an expression has no URL parser.
 *
 *  1. Spaces around it and every trailing slash are dropped.
 *  2. It must be an absolute http:// or https:// URL with a host.
 *  3. A Base URL pasted with the API's path is cut back to the service's root: `…/v1.0` and
 *     `…/v1.0/<company>` when that company is the Company ID's; another company, or a path past
 *     it, is refused with the values to enter instead.
 *  4. Plain http:// must go to this machine (localhost, 127.x.x.x, [::1]) unless Allow Unencrypted
 *     HTTP is on: the access token travels in every request.
 *
 * The host is what follows the last `@` of the authority, without a port, as a URL parser reads it.
 */
export const BASE_URL_RULE = {
	/** An absolute http:// or https:// URL; its first group is the authority (user info, host, port). */
	webUrl: /^https?:\/\/([^/?#\s]+)(?:[/?#]|$)/i,
	/** A URL whose requests travel unencrypted. */
	plainHttp: /^http:/i,
	/** The port at the end of an authority. */
	port: /:\d{1,5}$/,
	/** A loopback host: not `*.localhost`, which Node resolves through the system resolver (DNS), which may answer anything. */
	loopbackHost: /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i,
} as const;

/** Why the rule refuses a Base URL, as the transport's error and the credential test's say it. */
export const BASE_URL_REFUSALS = {
	notWebUrl: () => "The credential's Base URL must be an absolute URL starting with https:// (or http:// for a local service)",
	plainHttp: (host = 'another machine') =>
		`The credential's Base URL uses plain http:// to ${host}, which would send the access token unencrypted`,
	otherCompany: (root: string, inUrl: string, companyId: string) =>
		`The credential's Base URL ends in /v1.0/${inUrl}, but its Company ID is ${companyId || '(empty)'}: set Base URL to ${root} and Company ID to the company you mean (${inUrl}, the one in the URL, or ${companyId || 'yours'})`,
	apiPath: (root: string) =>
		`The credential's Base URL goes past the service's root into the API's paths: set Base URL to ${root} (the nodes add /v1.0/<company>/… themselves)`,
};

export type BaseUrlCheck =
	| { baseUrl: string }
	| { refused: 'notWebUrl' }
	| { refused: 'plainHttp'; host: string }
	| { refused: 'otherCompany'; root: string; inUrl: string; companyId: string }
	| { refused: 'apiPath'; root: string };

/** Why the rule refused, as one sentence (the transport's error, the credential test's message). */
export function baseUrlRefusal(checked: Exclude<BaseUrlCheck, { baseUrl: string }>): string {
	switch (checked.refused) {
		case 'notWebUrl':
			return BASE_URL_REFUSALS.notWebUrl();
		case 'plainHttp':
			return BASE_URL_REFUSALS.plainHttp(checked.host);
		case 'otherCompany':
			return BASE_URL_REFUSALS.otherCompany(checked.root, checked.inUrl, checked.companyId);
		case 'apiPath':
			return BASE_URL_REFUSALS.apiPath(checked.root);
	}
}

const API_SEGMENT = '/v1.0';

/**
 * Where the API's own path starts in a URL's path: the first `/v1.0` segment (followed by `/` or
 * the end), or -1. indexOf steps, no pattern: linear on any input.
 */
function apiSegmentAt(path: string): number {
	const lower = path.toLowerCase();
	for (let at = lower.indexOf(API_SEGMENT); at >= 0; at = lower.indexOf(API_SEGMENT, at + 1)) {
		const after = at + API_SEGMENT.length;
		if (after === lower.length || lower.charCodeAt(after) === 47) return at;
	}
	return -1;
}

function decodedSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** Loopback hosts, where plain http:// never leaves the machine (the local sandbox, a tunnel). */
export function isLoopbackHost(hostname: string): boolean {
	return BASE_URL_RULE.loopbackHost.test(hostname);
}

/** The Base URL without trailing slashes (a loop, not a regular expression: linear on any input). */
export function trimTrailingSlashes(value: string): string {
	let end = value.length;
	while (end > 0 && value.charCodeAt(end - 1) === 47) end--;
	return value.slice(0, end);
}

/**
 * The rule applied to the credential's values: the Base URL to build requests on, or why it is
 * refused. `companyId` is the credential's Company ID, compared with a company pasted in the URL.
 */
export function checkBaseUrl(baseUrl: unknown, allowInsecureHttp: unknown, companyId?: unknown): BaseUrlCheck {
	let base = trimTrailingSlashes(enteredText(baseUrl));
	const web = BASE_URL_RULE.webUrl.exec(base);
	if (!web) return { refused: 'notWebUrl' };
	const host = web[1].slice(web[1].lastIndexOf('@') + 1).replace(BASE_URL_RULE.port, '');
	if (BASE_URL_RULE.plainHttp.test(base) && !isLoopbackHost(host) && allowInsecureHttp !== true) {
		return { refused: 'plainHttp', host };
	}
	const pathStart = base.indexOf('//') + 2 + web[1].length;
	const path = base.slice(pathStart);
	const at = /[?#]/.test(path) ? -1 : apiSegmentAt(path);
	if (at >= 0) {
		const root = base.slice(0, pathStart + at);
		const rest = path.slice(at + API_SEGMENT.length + 1);
		if (rest.includes('/')) return { refused: 'apiPath', root };
		const company = enteredText(companyId);
		if (rest !== '' && decodedSegment(rest) !== company) {
			return { refused: 'otherCompany', root, inUrl: decodedSegment(rest), companyId: company };
		}
		base = root;
	}
	return { baseUrl: base };
}

/**
 * checkBaseUrl as the JavaScript of an n8n expression over `$credentials`: the Base URL, or an
 * error when the rule refuses it. n8n evaluates a failing expression part to nothing, so the
 * test request's URL is left without a host and nothing is sent.
 */
export function baseUrlExpression(): string {
	const rule = BASE_URL_RULE;
	return `(() => {
	const trimmed = String($credentials.baseUrl ?? '').trim();
	let end = trimmed.length;
	while (end > 0 && trimmed.charAt(end - 1) === '/') end--;
	let base = trimmed.slice(0, end);
	const web = ${rule.webUrl}.exec(base);
	if (!web) throw new Error(${JSON.stringify(BASE_URL_REFUSALS.notWebUrl())});
	const host = web[1].slice(web[1].lastIndexOf('@') + 1).replace(${rule.port}, '');
	if (${rule.plainHttp}.test(base) && !${rule.loopbackHost}.test(host) && $credentials.allowInsecureHttp !== true) {
		throw new Error(${JSON.stringify(BASE_URL_REFUSALS.plainHttp())});
	}
	const pathStart = base.indexOf('//') + 2 + web[1].length;
	const path = base.slice(pathStart);
	const lower = path.toLowerCase();
	let at = /[?#]/.test(path) ? -1 : lower.indexOf('${API_SEGMENT}');
	while (at >= 0 && !(at + ${API_SEGMENT.length} === lower.length || lower.charAt(at + ${API_SEGMENT.length}) === '/')) at = lower.indexOf('${API_SEGMENT}', at + 1);
	if (at >= 0) {
		const rest = path.slice(at + ${API_SEGMENT.length + 1});
		let company = rest;
		try { company = decodeURIComponent(rest); } catch (error) { company = rest; }
		if (rest.includes('/') || (rest !== '' && company !== String($credentials.companyId ?? '').trim())) {
			throw new Error('The Base URL holds an API path or another company');
		}
		base = base.slice(0, pathStart + at);
	}
	return base;
})()`;
}

/** Where the Base URL should point: the service's root (one source for the credential test and the nodes' errors). */
export const ROOT_HINT =
	"The Base URL must be the service's root, without /v1.0/…: https://api.hirehive.com for the hosted service, or the root of your own.";

/**
 * "This Base URL is not the service", for every node's errors (the credential test's rules say the
 * same): a success that is an HTML page (n8n's own editor, another web server's), or a 404 that is
 * no problem document (n8n's task broker, a web server). Undefined where the answer may be the
 * service's: an HTML 403 or 502 is a proxy's or a firewall's in front of it.
 */
export function notTheService(status: number, html: boolean, problem: boolean): string | undefined {
	if (html && status < 300) {
		return `The credential's Base URL answered with an HTML page (n8n's own editor, or another web server's), so it is not the recruiting service. ${ROOT_HINT}`;
	}
	if (status === 404 && !problem) {
		return `The answer (HTTP 404) is not the service's: the credential's Base URL may not be the recruiting service (n8n's task broker on 127.0.0.1:5679, or the port N8N_RUNNERS_BROKER_PORT sets; a web server or a proxy). ${ROOT_HINT}`;
	}
	return undefined;
}
