/**
 * Operations on endpoints of the service's full API: its public reference documents them beyond
 * the 18 endpoints of the specification (users, one application, its source, note creation, the
 * feedback list and completion). A service that implements only the specification answers them
 * 404, like an ID that does not exist: the two are told apart by asking whether the IDs the
 * request names exist (through endpoints of the specification, or the list of the same endpoint),
 * one request, and only after a 404.
 */
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { dataOf, recruitingRequest, resourcePath, type RecruitingRequest } from '../../shared/transport';

/** Part of the message of a missing endpoint: tool mode recognises it (toolMode.ts). */
export const FULL_API_MISSING = "an endpoint of the service's full API";

function missingEndpoint(this: IExecuteFunctions, itemIndex: number, endpoint: string): NodeApiError {
	return new NodeApiError(this.getNode(), { endpoint, httpCode: '404' } as JsonObject, {
		message: `This operation uses ${endpoint}, ${FULL_API_MISSING}, which the service at the credential's Base URL does not offer (it answered 404)`,
		description: `${endpoint} is documented in the service's public API reference beyond the 18-endpoint specification; a service that implements only the specification answers it 404. Use a service with the full API (such as the hosted one), or do without this operation.`,
		httpCode: '404',
		itemIndex,
	});
}

/**
 * Sends a request of the full API. A 404 means the endpoint is missing, unless `idMissing` (asked
 * only then) finds that an ID the request names does not exist: then the 404 is about that ID and
 * its own error, which names it, is thrown.
 */
export async function viaFullApi<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	endpoint: string,
	send: () => Promise<T>,
	idMissing?: () => Promise<boolean>,
): Promise<T> {
	try {
		return await send();
	} catch (error) {
		throw await explained404(error, async () => {
			const aboutAnId = idMissing !== undefined && (await idMissing());
			return aboutAnId ? undefined : missingEndpoint.call(context, itemIndex, endpoint);
		});
	}
}

/** What to throw for a failed request: a 404 as `explain` says (undefined: as it is), anything else as it is. */
async function explained404(error: unknown, explain: () => Promise<NodeApiError | undefined>): Promise<unknown> {
	if (!(error instanceof NodeApiError) || error.httpCode !== '404') return error;
	return (await explain()) ?? error;
}

/** A read that may find nothing: the body, or undefined for a 404. */
async function probe(this: IExecuteFunctions, itemIndex: number, path: string, qs?: IDataObject): Promise<IDataObject | undefined> {
	return await recruitingRequest.call<IExecuteFunctions, [RecruitingRequest], Promise<IDataObject | undefined>>(this, {
		method: 'GET',
		path,
		qs,
		itemIndex,
		allowNotFound: true,
	});
}

/**
 * Whether a candidate (an endpoint of the specification) is missing, or does not list the
 * application: then a 404 of a request under `/candidates/{id}` is about an ID.
 */
export async function candidateLacks(
	this: IExecuteFunctions,
	itemIndex: number,
	candidateId: string,
	applicationId?: string,
): Promise<boolean> {
	const candidate = dataOf(await probe.call(this, itemIndex, resourcePath('candidates', candidateId)));
	if (candidate === undefined) return true;
	const applications: unknown = candidate.application_ids;
	// Without the list (the reference says it is always there) the candidate cannot vouch for the
	// application: the 404 is left as the service's own, naming the IDs, not blamed on the endpoint.
	return applicationId !== undefined && (!Array.isArray(applications) || !applications.includes(applicationId));
}

/** Whether the list of the same path answers: then a 404 of a request on it is about an ID it names. */
export async function listAnswers(this: IExecuteFunctions, itemIndex: number, ...segments: string[]): Promise<boolean> {
	return (await probe.call(this, itemIndex, resourcePath(...segments), { page: 1, page_size: 1 })) !== undefined;
}
