import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { CREDENTIAL_TYPE, connectionOf } from './connection';
import { isTransportFailure, RateLimitWaitExceeded, refusedByN8n } from './classify';
import { asNodeError, networkError, notSentError, parseBody, problemError, rateLimitWaitError, redirectError, runCancelledError } from './errors';
import { DEFAULT_POLICY, isIdempotent } from './policy';
import { runOf, sendRates, WaitBudget } from './state';
import { headerOf, type FullResponse, type RecruitingContext, type RecruitingRequest } from './types';

/**
 * One call to the service, shared by both nodes: the parsed body (undefined for an empty answer),
 * through the credential's send rate, with retries and a time bound per attempt. A 429 is a refusal
 * before processing, waited out for every method (a write too) within the run's wait budget, as is
 * a 503 a POST may resend; other 5xx and network failures are retried only for idempotent methods.
 */
export async function recruitingRequest<T = IDataObject>(
	this: RecruitingContext,
	request: RecruitingRequest,
): Promise<T | undefined> {
	const node = this.getNode();
	const run = runOf(this);
	// The item's own timeout, where the calling node set a policy for its items.
	const timeoutMs = request.itemIndex === undefined ? undefined : run.items?.timeoutMs?.(request.itemIndex);
	const policy = { ...DEFAULT_POLICY, ...(timeoutMs !== undefined && { timeoutMs }), ...request.policy };
	const connection = await connectionOf.call(this);
	const sendRate = sendRates.for(connection.sendRateKey);
	const budget =
		policy.maxRateLimitWaitMs === undefined ? run.waitBudget : new WaitBudget(policy.maxRateLimitWaitMs, run.waitBudget.urgent);
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
	/** Waits out this request's own back-off when it may try again. */
	const retry = async (): Promise<boolean> => {
		if (!retryable || retries >= policy.maxRetries) return false;
		// Full jitter: anywhere from 0 to the doubled ceiling, so retries of many requests spread out.
		await sleep(Math.random() * policy.retryDelayMs * 2 ** retries++);
		return true;
	};
	let refused: FullResponse | undefined;

	for (;;) {
		let ticket;
		try {
			ticket = await sendRate.acquire(budget);
		} catch (error) {
			if (error instanceof RateLimitWaitExceeded) throw rateLimitWaitError(node, request, error, refused);
			throw runCancelledError(node, request, error as Error);
		}
		let response: FullResponse;
		try {
			// `timeout` only bounds a silent socket; the signal bounds the whole attempt (in a workflow
			// execution n8n puts its own cancel signal in its place).
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				{ ...options, abortSignal: AbortSignal.timeout(policy.timeoutMs) },
				{ credentialsDecrypted: connection.credentials },
			)) as FullResponse;
		} catch (error) {
			// Stopped by the user: no sign of how the service is doing, and nothing to retry.
			const stopped = 'getExecutionCancelSignal' in this && this.getExecutionCancelSignal()?.aborted === true;
			// Refused by n8n itself (an SSRF block, an invalid URL): never sent, and not worth another try.
			const notSent = refusedByN8n(error);
			ticket.done(stopped || notSent ? 'cancelled' : 'failed');
			if (notSent && !stopped) throw notSentError(node, request, notSent);
			if (stopped || !isTransportFailure(error)) throw asNodeError(node, request, error);
			if (await retry()) continue;
			throw networkError(node, request, error, retries + 1);
		}

		const status = response.statusCode;
		ticket.done({ status, headers: response.headers });
		run.noteServiceDate(headerOf(response.headers, 'date'));
		// A gateway's 503 may come after the service acted on the request; one that says when to come
		// back (Retry-After) refused it whole. Without that, a POST is not sent again.
		const overload = status === 503 && (retryable || headerOf(response.headers, 'retry-after') !== undefined);
		if (status === 429 || overload) {
			// The send rate pauses the credential; the next acquire waits it out or, past the budget, fails.
			refused = response;
			if (budget.maxMs === 0) throw rateLimitWaitError(node, request, sendRate.exceeded(budget), refused);
			continue;
		}
		// An answer that was no refusal: only a service that keeps refusing ends the run, not one that refuses now and then.
		if (status < 500) budget.waited = 0;
		if (status >= 500 && (await retry())) continue;
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
