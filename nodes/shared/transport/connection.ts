import { createHash } from 'crypto';
import type { ICredentialsDecrypted } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { baseUrlRefusal, checkBaseUrl } from '../baseUrl';
import { runOf } from './state';
import type { RecruitingContext } from './types';

/** The credential and the URL every request is built on, read once per execution context (state.ts). */

export { isLoopbackHost } from '../baseUrl';

export const CREDENTIAL_TYPE = 'recruitingApi';

const API_VERSION_PATH = '/v1.0';

/** A path segment an HTTP client would resolve instead of sending (`.` and `..`, even percent-encoded). */
export function isDotSegment(value: string): boolean {
	return value === '.' || value === '..';
}

/** Joins raw path segments, each percent-encoded, so an id such as `a/../b?x#y` can never reach another path. */
export function resourcePath(...segments: string[]): string {
	const invalid = segments.find((segment) => segment === '' || isDotSegment(segment));
	if (invalid !== undefined) throw new Error(`Invalid path segment "${invalid}"`);
	return segments.map((segment) => '/' + encodeURIComponent(segment)).join('');
}

/** What every request of one node run needs from the credential, read and checked once. */
interface Connection {
	/** `{baseUrl}/v1.0/{company}` */
	base: string;
	/** Handed to n8n's helper, so it does not decrypt the credential again for every request. */
	credentials: ICredentialsDecrypted;
	/** Names the credential's send rate (state.ts) without holding its token: a hash of URL, company and token. */
	sendRateKey: string;
	/** Names the account (URL and company, not the token): what a polling trigger's cursor belongs to. */
	accountKey: string;
}

export async function accountKeyOf(this: RecruitingContext): Promise<string> {
	return (await connectionOf.call(this)).accountKey;
}

/** Read once per run: the credential cannot change within one, and decrypting it is costly. */
export function connectionOf(this: RecruitingContext): Promise<Connection> {
	return runOf(this).once('connection', async () => await readConnection.call(this));
}

async function readConnection(this: RecruitingContext): Promise<Connection> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const companyId = String(credentials.companyId ?? '');
	const checked = checkBaseUrl(credentials.baseUrl, credentials.allowInsecureHttp, credentials.companyId);
	// The token travels in every request: in clear text only to this machine, or when asked for.
	if ('refused' in checked && checked.refused === 'plainHttp') {
		throw new NodeOperationError(this.getNode(), baseUrlRefusal(checked), {
			description:
				'Use https://, or switch on "Allow Unencrypted HTTP" in the credential if the service really is only reachable over plain HTTP on a network you trust.',
		});
	}
	if ('refused' in checked) throw new NodeOperationError(this.getNode(), baseUrlRefusal(checked));
	if (companyId === '' || isDotSegment(companyId)) {
		throw new NodeOperationError(this.getNode(), "The credential's Company ID is empty or invalid");
	}
	const base = `${checked.baseUrl}${API_VERSION_PATH}${resourcePath(companyId)}`;
	return {
		base,
		credentials: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data: credentials },
		sendRateKey: createHash('sha256').update(`${base}\n${String(credentials.accessToken ?? '')}`).digest('hex'),
		accountKey: createHash('sha256').update(base).digest('hex').slice(0, 16),
	};
}
