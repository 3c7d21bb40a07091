/**
 * `webhookServer`: a real local HTTP server that plays n8n's production webhook endpoint for
 * one trigger node, following n8n's `LiveWebhooks.executeWebhook` → `WebhookHelpers.executeWebhook`
 * → `WebhookService.runWebhook` path for a node whose webhook responds `onReceived`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import { getHtmlSandboxCSP, isWebhookHtmlSandboxingDisabled, WebhookContext } from 'n8n-core';
import { isNodeClassInstance, jsonParse } from 'n8n-workflow';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	IWebhookResponseData,
	WebhookResponseMode,
} from 'n8n-workflow';

import { ResponseShim, shimRequest, type SentResponse, type WebhookRequestShim } from './expressShim';
import { nodeKey, toStored, type StaticDataStore } from './staticData';
import { TriggerWorkflow, type NodeTypeSource, type TriggerOptions } from './triggerWorkflow';

export interface WebhookCall {
	request: {
		method: string;
		url: string;
		headers: http.IncomingHttpHeaders;
		/** Exactly the bytes received (after content-encoding), as `req.rawBody`. */
		rawBody?: Buffer;
		/** `req.body` as n8n parsed it (JSON, form, text); undefined when n8n would not parse. */
		body?: unknown;
	};
	/**
	 * What the caller received. Status 0 means nothing answered: the node returned
	 * `noWebhookResponse` without writing a response (n8n would leave the caller waiting; the
	 * harness then closes it with an empty 200).
	 */
	response: SentResponse;
	/** `node`: `webhook()` answered itself (`noWebhookResponse`); `n8n`: n8n's webhook handling did. */
	respondedBy: 'node' | 'n8n';
	/** What `webhook()` returned (undefined when it threw or was not reached). */
	result?: IWebhookResponseData;
	/** The items an execution would start with; undefined when none starts. */
	workflowData?: INodeExecutionData[][];
	/** What `webhook()` threw. n8n then answers 500 and records a failed execution. */
	error?: Error;
	/** The node's static data after the call, as stored. */
	staticData: IDataObject;
}

export interface WebhookServer {
	/** The node's production webhook URL, served here. */
	readonly url: string;
	/** Pass to `hookHarness({ webhookBaseUrl })` so `getNodeWebhookUrl` returns `url`. */
	readonly webhookBaseUrl: string;
	readonly calls: WebhookCall[];
	readonly staticData: IDataObject;
	readonly store: StaticDataStore;
	close(): Promise<void>;
}

/** Content types n8n parses for webhook nodes of version > 1 (`isParsableContentType`). */
function isParsableContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly hint?: string,
	) {
		super(message);
	}
}

/** n8n's `parseBody` (middlewares/body-parser), without XML. */
async function parseBody(req: WebhookRequestShim): Promise<void> {
	if (req.contentType?.startsWith('multipart/')) return;
	await req.readRawBody();
	const { rawBody, contentType } = req;
	const encoding = (req.encoding as BufferEncoding | undefined) ?? 'utf-8';
	if (!(rawBody as Buffer | undefined)?.length) return;
	try {
		if (contentType === 'application/json') {
			req.body = jsonParse(rawBody.toString(encoding));
		} else if (contentType === 'application/x-www-form-urlencoded') {
			req.body = parseQueryString(rawBody.toString(encoding), undefined, undefined, { maxKeys: 1000 });
		} else if (contentType === 'text/plain') {
			req.body = rawBody.toString(encoding);
		}
	} catch (error) {
		throw new HttpError(422, 'Failed to parse request body', (error as Error).message);
	}
}

/** n8n's `ResponseHelper.sendErrorResponse` body. */
function sendError(res: ResponseShim, status: number, message: string, hint?: string) {
	res.status(status).json({ code: status === 500 ? 0 : status, message, ...(hint && { hint }) });
}

/** n8n's `sendStaticResponse`: string bodies via `send`, the rest via `json`, plus the sandbox CSP. */
function sendStatic(res: ResponseShim, code: number, body: unknown) {
	res.status(code);
	if (!isWebhookHtmlSandboxingDisabled()) res.setHeader('Content-Security-Policy', getHtmlSandboxCSP());
	if (typeof body === 'string') res.send(body);
	else res.json(body);
}

export async function webhookServer(
	nodeType: NodeTypeSource,
	parameters: INodeParameters,
	options: Omit<TriggerOptions, 'webhookBaseUrl'> = {},
): Promise<WebhookServer> {
	const trigger = new TriggerWorkflow(nodeType, parameters, options);
	const calls: WebhookCall[] = [];
	const pending = new Set<Promise<void>>();

	const handle = async (rawReq: http.IncomingMessage, rawRes: http.ServerResponse) => {
		const req = shimRequest(rawReq);
		const res = new ResponseShim(rawRes, req);
		const workflow = trigger.loadWorkflow();
		const additionalData = trigger.additionalData();
		const webhookData = trigger.webhookData(workflow, additionalData);
		const node = workflow.getNode(webhookData.node)!;
		const call: Omit<WebhookCall, 'response' | 'respondedBy' | 'staticData'> = {
			request: { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers },
		};
		let respondedBy: WebhookCall['respondedBy'] = 'n8n';
		let webhookThrew = false;
		try {
			const basePath = new URL(trigger.webhookBaseUrl!).pathname.replace(/\/$/, '');
			const path = req.path.startsWith(`${basePath}/`) ? req.path.slice(basePath.length + 1) : undefined;
			if (path?.replace(/\/$/, '') !== webhookData.path) {
				throw new HttpError(404, `The requested webhook "${req.method} ${path ?? req.path}" is not registered.`);
			}
			if (req.method !== webhookData.httpMethod) {
				throw new HttpError(
					404,
					`This webhook is not registered for ${req.method} requests. Did you mean to make a ${webhookData.httpMethod} request?`,
				);
			}

			const expr = workflow.expression;
			const description = webhookData.webhookDescription;
			const responseMode = expr.getSimpleParameterValue(node, description.responseMode, 'webhook', {}, undefined, 'onReceived') as WebhookResponseMode;
			const responseCode = expr.getSimpleParameterValue(node, description.responseCode as string | undefined, 'webhook', {}, undefined, 200) as number;
			const responseData = expr.getSimpleParameterValue(node, description.responseData, 'webhook', {}, undefined, undefined) as string | undefined;

			if (node.typeVersion === 1 || isParsableContentType(req.contentType)) await parseBody(req);
			call.request.rawBody = req.rawBody as Buffer | undefined;
			call.request.body = req.body;

			additionalData.httpRequest = req as never;
			additionalData.httpResponse = res as never;
			const context = new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null);
			const type = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			let result: IWebhookResponseData;
			try {
				if (type.webhook === undefined) throw new Error('Node does not have any webhooks defined');
				result = isNodeClassInstance(type)
					? await type.webhook(context)
					: ((await type.webhook.call(context)) as IWebhookResponseData);
				call.result = result;
			} catch (error) {
				// invokeWebhook: the caller gets a generic 500; n8n still records a failed execution.
				webhookThrew = true;
				call.error = error as Error;
				if (!res.headersSent) {
					sendError(res, 500, 'Workflow Webhook Error: Workflow could not be started!');
				} else {
					respondedBy = 'node';
				}
				return;
			}

			// handleImmediateWebhookResponse
			if (result.noWebhookResponse === true || res.headersSent) respondedBy = 'node';
			if (result.workflowData === undefined) {
				if (!res.headersSent) {
					sendStatic(
						res,
						responseCode,
						result.webhookResponse !== undefined ? result.webhookResponse : { message: 'Webhook call received' },
					);
				}
				return;
			}
			call.workflowData = result.workflowData;
			if (res.headersSent) return;
			if (responseMode !== 'onReceived') {
				sendError(res, 500, `Harness: responseMode "${responseMode}" is not supported (only onReceived)`);
				return;
			}
			// extractWebhookOnReceivedResponse
			let body: unknown;
			if (responseData === 'noData') body = undefined;
			else if (responseData) body = responseData;
			else if (result.webhookResponse !== undefined) body = result.webhookResponse;
			else body = { message: 'Workflow was started' };
			sendStatic(res, responseCode, body);
		} catch (error) {
			if (error instanceof HttpError) sendError(res, error.status, error.message, error.hint);
			else sendError(res, 500, 'There was a problem executing the workflow');
			call.error ??= error as Error;
		} finally {
			if (!webhookThrew) trigger.store.saveFrom(workflow);
			const live = workflow.staticData[nodeKey(trigger.node.name)] as IDataObject | undefined;
			calls.push({
				...call,
				response: res.snapshot() ?? { status: 0, headers: {}, body: '' },
				respondedBy,
				staticData: webhookThrew ? trigger.staticData : toStored(live ?? {}),
			});
			res.flush();
		}
	};

	const server = http.createServer((req, res) => {
		const done = handle(req, res).catch((error: unknown) => {
			res.statusCode = 500;
			res.end(String(error));
		});
		pending.add(done);
		void done.finally(() => pending.delete(done));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	trigger.webhookBaseUrl = `http://127.0.0.1:${port}/webhook`;
	const workflow = trigger.loadWorkflow();
	const additionalData = trigger.additionalData();
	const url = `${trigger.webhookBaseUrl}/${trigger.webhookData(workflow, additionalData).path}`;

	return {
		url,
		webhookBaseUrl: trigger.webhookBaseUrl,
		calls,
		get staticData() {
			return trigger.staticData;
		},
		store: trigger.store,
		async close() {
			await Promise.allSettled([...pending]);
			server.closeAllConnections();
			await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
		},
	};
}
