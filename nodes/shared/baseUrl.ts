import { enteredText } from './text';

/**
 * The one rule for the credential's Base URL. The transport applies it before every request
 * (checkBaseUrl); n8n sends the credential test by itself, before any node code runs, so the
 * credential gets the same rule as an n8n expression generated from the same patterns
 * (baseUrlExpression). Patterns and plain string steps only: an expression has no URL parser.
 *
 *  1. Spaces around it and every trailing slash are dropped.
 *  2. It must be an absolute http:// or https:// URL with a host.
 *  3. Plain http:// must go to this machine (localhost, 127.x.x.x, [::1]) unless Allow Unencrypted
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
};

export type BaseUrlCheck = { baseUrl: string } | { refused: keyof typeof BASE_URL_REFUSALS; host?: string };

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

/** The rule applied to the credential's values: the Base URL to build requests on, or why it is refused. */
export function checkBaseUrl(baseUrl: unknown, allowInsecureHttp: unknown): BaseUrlCheck {
	const base = trimTrailingSlashes(enteredText(baseUrl));
	const web = BASE_URL_RULE.webUrl.exec(base);
	if (!web) return { refused: 'notWebUrl' };
	const host = web[1].slice(web[1].lastIndexOf('@') + 1).replace(BASE_URL_RULE.port, '');
	if (BASE_URL_RULE.plainHttp.test(base) && !isLoopbackHost(host) && allowInsecureHttp !== true) {
		return { refused: 'plainHttp', host };
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
	const base = trimmed.slice(0, end);
	const web = ${rule.webUrl}.exec(base);
	if (!web) throw new Error(${JSON.stringify(BASE_URL_REFUSALS.notWebUrl())});
	const host = web[1].slice(web[1].lastIndexOf('@') + 1).replace(${rule.port}, '');
	if (${rule.plainHttp}.test(base) && !${rule.loopbackHost}.test(host) && $credentials.allowInsecureHttp !== true) {
		throw new Error(${JSON.stringify(BASE_URL_REFUSALS.plainHttp())});
	}
	return base;
})()`;
}
