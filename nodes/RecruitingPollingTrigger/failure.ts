import type { Failure } from 'n8n-workflow';
import { NodeApiError, type NodeOperationError } from 'n8n-workflow';
import { describeSeconds, rateLimitWaitOf } from '../shared/transport';

/**
 * Why a poll failed, declared on the error (n8n-workflow's `failure`, read by n8n 2.37 and later):
 * n8n's durable polling then waits as the service asked, backs off while it is down, and stops
 * retrying soon where someone has to act. Older n8n versions ignore it.
 */
const statusOf = (error: NodeApiError | NodeOperationError) => (error instanceof NodeApiError ? Number(error.httpCode) : undefined);

function failureOf(error: NodeApiError | NodeOperationError): Failure {
	const wait = rateLimitWaitOf(error);
	const status = statusOf(error);
	// A 429 throttles; a 503 (waited out as overload) says the service is down or overloaded now.
	if (wait !== undefined) return { cause: status === 503 ? 'temporarily-unavailable' : 'rate-limited', retryAfterMs: wait * 1000 };
	if (status === undefined) return { cause: 'configuration-invalid' };
	if (status === 401 || status === 403) return { cause: 'credential-invalid' };
	if (status === 404 || status === 400 || status === 422) return { cause: 'configuration-invalid' };
	// A 5xx, a network failure, an inconsistent list: the service is down or degraded now.
	return { cause: 'temporarily-unavailable' };
}

/**
 * The error with its failure cause; a rate limit's description speaks of the poll (the action
 * node's Max Wait for Rate Limits is no setting of this trigger).
 */
export function withFailureCause<E extends NodeApiError | NodeOperationError>(error: E): E {
	const declared = error as { failure?: Failure };
	// Where the error was made knows best (a list that kept changing while it was read: try again later).
	declared.failure ??= failureOf(error);
	const wait = rateLimitWaitOf(error);
	if (wait !== undefined) {
		const asked = statusOf(error) === 503 ? 'was unavailable for' : 'asked to wait';
		error.description = `The service ${asked} ${describeSeconds(wait)}, longer than one poll may wait. Nothing was reported; the next poll after the wait goes on from where the trigger stood, and loses nothing.`;
	}
	return error;
}
