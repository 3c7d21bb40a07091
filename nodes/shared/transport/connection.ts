import type { ICredentialsDecrypted } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { BASE_URL_REFUSALS, checkBaseUrl } from '../baseUrl';
import type { RecruitingContext } from './types';

/** The credential and the URL every request is built on, read once per execution context. */

/** Part of the transport's surface since the Base URL rule moved out of it. */
export { isLoopbackHost } from '../baseUrl';

export const CREDENTIAL_TYPE = 'recruitingApi';

export const API_VERSION_PATH = '/v1.0';

/** A path segment an HTTP client would resolve instead of sending (`.` and `..`, even percent-encoded). */
export function isDotSegment(value: string): boolean {
	return value === '.' || value === '..';
}

/**
 * Joins raw path segments, each percent-encoded into its own segment, so an id such as
 * `a/../b?x#y` can never reach another path. Ids are validated before this (see validation.ts);
 * a dot segment here is a programming error.
 */
export function resourcePath(...segments: string[]): string {
	return segments
		.map((segment) => {
			if (segment === '' || isDotSegment(segment)) {
				throw new Error(`Invalid path segment "${segment}"`);
			}
			return '/' + encodeURIComponent(segment);
		})
		.join('');
}

/** What every request of one node run needs from the credential, read and checked once. */
interface Connection {
	/** `{baseUrl}/v1.0/{company}` */
	base: string;
	/** Handed to n8n's helper, so it does not decrypt the credential again for every request. */
	credentials: ICredentialsDecrypted;
}

/**
 * One per execution context (a node run, a webhook call, a hook): the credential cannot change
 * within one, and decrypting it for every page or item was a measurable part of each request.
 * A WeakMap, so nothing outlives its context; a failed read is not kept.
 */
const connections = new WeakMap<object, Promise<Connection>>();

export function connectionOf(this: RecruitingContext): Promise<Connection> {
	let connection = connections.get(this);
	if (!connection) {
		connection = readConnection.call(this);
		connections.set(this, connection);
		connection.catch(() => connections.delete(this));
	}
	return connection;
}

async function readConnection(this: RecruitingContext): Promise<Connection> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const companyId = String(credentials.companyId ?? '');
	const checked = checkBaseUrl(credentials.baseUrl, credentials.allowInsecureHttp);
	if ('refused' in checked && checked.refused === 'notWebUrl') {
		throw new NodeOperationError(this.getNode(), BASE_URL_REFUSALS.notWebUrl());
	}
	// The token travels in every request: in clear text only to this machine, or when asked for.
	if ('refused' in checked) {
		throw new NodeOperationError(this.getNode(), BASE_URL_REFUSALS.plainHttp(checked.host), {
			description:
				'Use https://, or switch on "Allow Unencrypted HTTP" in the credential if the service really is only reachable over plain HTTP on a network you trust.',
		});
	}
	if (companyId === '' || isDotSegment(companyId)) {
		throw new NodeOperationError(this.getNode(), "The credential's Company ID is empty or invalid");
	}
	return {
		base: `${checked.baseUrl}${API_VERSION_PATH}${resourcePath(companyId)}`,
		credentials: { id: '', name: CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data: credentials },
	};
}
