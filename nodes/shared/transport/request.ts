import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { CREDENTIAL_TYPE, connectionOf } from './connection';
import { asNodeError, header, isIdempotent, isTransportFailure, networkError, parseBody, problemError, redirectError } from './errors';
import { DEFAULT_POLICY, itemPolicyOf } from './policy';
import type { FullResponse, RecruitingContext, RecruitingRequest } from './types';
import { noteRateLimited } from './walker';
import { passGate } from './rateLimitGate';

/**
 * One request to the service, shared by both nodes: retries, rate limits and the attempt's time
 * bound. The credential and URL are in connection.ts, error texts in errors.ts, the numbers in
 * policy.ts; walking a list page by page is in paging.ts.
 */

/** Retry-After as seconds or an HTTP date; unreadable values wait one second. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number {
	if (value === undefined || value.trim() === '') return 1;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds);
	const date = Date.parse(value);
	return Number.isNaN(date) ? 1 : Math.max(0, (date - now) / 1000);
}

/**
 * One call to the service. Returns the parsed body (undefined for an empty answer).
 * 429 is waited out for every method (the service did not act on it); 5xx and network
 * failures are retried only for idempotent methods, so a POST is never sent twice blindly.
 */
export async function recruitingRequest<T = IDataObject>(
	this: RecruitingContext,
	request: RecruitingRequest,
): Promise<T | undefined> {
	const node = this.getNode();
	// The item's own timeout, where the calling node set a policy for its items.
	const timeoutMs =
		request.itemIndex === undefined ? undefined : itemPolicyOf(this)?.timeoutMs?.(request.itemIndex);
	const policy = { ...DEFAULT_POLICY, ...(timeoutMs !== undefined && { timeoutMs }), ...request.policy };
	const connection = await connectionOf.call(this);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: connection.base + request.path,
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: policy.timeoutMs,
		// n8n's helper would follow a redirect and, by default, send the Authorization header to
		// any host it points at. The API never redirects, so a 3xx is refused below instead.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	const retryable = isIdempotent(request.method);
	let retries = 0;
	const gate = passGate(this, policy.maxRateLimitWaits);
	let refused: FullResponse | undefined;

	for (;;) {
		let response: FullResponse;
		// Other requests of this context used up this one's waits while it queued: its last 429 stands.
		if (!(await gate.beforeAttempt(refused !== undefined)) && refused) throw problemError(node, request, refused, retries + 1);
		try {
			// `timeout` only bounds a silent socket: an answer trickling in could hold a call for
			// much longer. The signal bounds the whole attempt (in a workflow execution n8n puts its
			// own cancel signal in its place; hooks, deliveries and pickers keep this one).
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...options, abortSignal: AbortSignal.timeout(policy.timeoutMs) },
				{ credentialsDecrypted: connection.credentials },
			)) as FullResponse;
		} catch (error) {
			gate.answered(false);
			if (!isTransportFailure(error)) throw asNodeError(node, request, error);
			if (retryable && retries < policy.maxRetries) {
				await sleep(policy.retryDelayMs * 2 ** retries++);
				continue;
			}
			throw networkError(node, request, error, retries + 1);
		}

		const status = response.statusCode;
		if (status === 429) {
			noteRateLimited(this);
			const wait = Math.min(retryAfterSeconds(header(response, 'retry-after')), policy.maxRetryAfterSeconds);
			// The wait itself happens in the gate, before the next attempt of any request of this context.
			refused = response;
			if (gate.rateLimited(wait)) continue;
		} else {
			gate.answered(status < 500);
		}
		if (status >= 500 && retryable && retries < policy.maxRetries) {
			await sleep(policy.retryDelayMs * 2 ** retries++);
			continue;
		}
		// A DELETE whose first answer was lost may find the resource already gone: that is success.
		if (status === 404 && request.method === 'DELETE' && retries > 0) return undefined;
		if (status === 404 && request.allowNotFound) return undefined;
		if (status >= 300 && status < 400) throw redirectError(node, request, response);
		if (status >= 400) throw problemError(node, request, response, retries + 1);
		return parseBody<T>(node, request, response);
	}
}

/** `{ data: resource }` → resource. */
export async function recruitingRequestData(
	this: RecruitingContext,
	request: RecruitingRequest,
): Promise<IDataObject> {
	return dataOf((await recruitingRequest.call(this, request)) as IDataObject | undefined) ?? {};
}

/** The resource of a `{ data: resource }` answer (an answer without the wrapper as it is). */
export function dataOf(body: IDataObject | undefined): IDataObject | undefined {
	if (body && typeof body.data === 'object' && body.data !== null) return body.data as IDataObject;
	return body;
}
