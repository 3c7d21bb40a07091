/**
 * Stand-ins for the Express request and response n8n hands to `webhook()` through
 * `additionalData.httpRequest` / `httpResponse` (n8n runs webhooks inside Express; this package
 * does not depend on it). Only the members node code commonly uses are provided; the response
 * is buffered and flushed to the real socket once n8n's handling of the request is over, so
 * the harness can record it before the caller sees it.
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';

import { parseIncomingMessage } from '@n8n/backend-network';

/** `contentType`, `encoding`, `rawBody`, `readRawBody` come from n8n-workflow's augmentation of `IncomingMessage`. */
export interface WebhookRequestShim extends IncomingMessage {
	body?: unknown;
	query: Record<string, string | string[]>;
	params: Record<string, string>;
	path: string;
	originalUrl: string;
	get(name: string): string | undefined;
	header(name: string): string | undefined;
}

async function readAll(stream: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
	return Buffer.concat(chunks);
}

/** Adds what Express and n8n's `rawBodyReader` middleware add to the incoming message. */
export function shimRequest(req: IncomingMessage): WebhookRequestShim {
	const shim = req as WebhookRequestShim;
	const url = new URL(req.url ?? '/', 'http://harness.local');
	const query: Record<string, string | string[]> = {};
	for (const [key, value] of url.searchParams) {
		const existing = query[key];
		query[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
	}
	shim.query = query;
	shim.params = {};
	shim.path = url.pathname;
	shim.originalUrl = req.url ?? '/';
	shim.get = shim.header = (name: string) => {
		const value = req.headers[name.toLowerCase()];
		return Array.isArray(value) ? value.join(', ') : value;
	};
	// n8n's rawBodyReader: content type / charset parsing is n8n's own function.
	parseIncomingMessage(shim);
	shim.readRawBody = async () => {
		if ((shim.rawBody as Buffer | undefined) !== undefined) return;
		let stream: Readable = req;
		const encoding = req.headers['content-encoding'];
		if (encoding === 'gzip') stream = req.pipe(createGunzip());
		else if (encoding === 'deflate') stream = req.pipe(createInflate());
		shim.rawBody = await readAll(stream);
		shim._body = true;
	};
	return shim;
}

/** What was sent, as the caller received it. */
export interface SentResponse {
	status: number;
	headers: OutgoingHttpHeaders;
	/** The body as text. */
	body: string;
	/** The body parsed as JSON when it is JSON, else undefined. */
	json?: unknown;
}

/** A buffered Express-like response. */
export class ResponseShim {
	statusCode = 200;

	private readonly headerMap = new Map<string, { name: string; value: number | string | string[] }>();

	private readonly chunks: Buffer[] = [];

	private ended = false;

	locals: Record<string, unknown> = {};

	constructor(
		private readonly real: ServerResponse,
		readonly req: WebhookRequestShim,
	) {}

	get headersSent(): boolean {
		return this.ended;
	}

	get writableEnded(): boolean {
		return this.ended;
	}

	get finished(): boolean {
		return this.ended;
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: number | string | string[]): this {
		this.headerMap.set(name.toLowerCase(), { name, value });
		return this;
	}

	getHeader(name: string) {
		return this.headerMap.get(name.toLowerCase())?.value;
	}

	getHeaders(): OutgoingHttpHeaders {
		return Object.fromEntries([...this.headerMap.entries()].map(([k, { value }]) => [k, value]));
	}

	hasHeader(name: string): boolean {
		return this.headerMap.has(name.toLowerCase());
	}

	removeHeader(name: string): void {
		this.headerMap.delete(name.toLowerCase());
	}

	set(field: string | Record<string, string>, value?: string | string[]): this {
		if (typeof field === 'string') this.setHeader(field, value ?? '');
		else for (const [k, v] of Object.entries(field)) this.setHeader(k, v);
		return this;
	}

	header(field: string | Record<string, string>, value?: string | string[]): this {
		return this.set(field, value);
	}

	get(name: string) {
		return this.getHeader(name);
	}

	type(contentType: string): this {
		const full = contentType.includes('/') ? contentType : contentType === 'json' ? 'application/json' : `text/${contentType}`;
		return this.setHeader('Content-Type', full);
	}

	writeHead(code: number, headers?: OutgoingHttpHeaders): this {
		this.statusCode = code;
		for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) this.setHeader(k, v);
		return this;
	}

	write(chunk: string | Buffer): boolean {
		this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
		return true;
	}

	end(chunk?: string | Buffer): this {
		if (this.ended) return this;
		if (chunk !== undefined) this.write(chunk);
		this.ended = true;
		return this;
	}

	/** Express `res.json`. */
	json(body: unknown): this {
		if (!this.hasHeader('content-type')) this.setHeader('Content-Type', 'application/json; charset=utf-8');
		const text = JSON.stringify(body);
		return this.end(text === undefined ? '' : text);
	}

	/** Express `res.send`. */
	send(body?: unknown): this {
		if (body === undefined || body === null) return this.end();
		if (typeof body === 'string') {
			if (!this.hasHeader('content-type')) this.setHeader('Content-Type', 'text/html; charset=utf-8');
			return this.end(body);
		}
		if (Buffer.isBuffer(body)) {
			if (!this.hasHeader('content-type')) this.setHeader('Content-Type', 'application/octet-stream');
			return this.end(body);
		}
		return this.json(body);
	}

	sendStatus(code: number): this {
		this.statusCode = code;
		if (!this.hasHeader('content-type')) this.setHeader('Content-Type', 'text/plain; charset=utf-8');
		return this.end(STATUS_CODES[code] ?? String(code));
	}

	on(): this {
		return this;
	}

	once(): this {
		return this;
	}

	/** What the caller gets; `undefined` while nothing has ended the response. */
	snapshot(): SentResponse | undefined {
		if (!this.ended) return undefined;
		const body = Buffer.concat(this.chunks).toString('utf8');
		let json: unknown;
		const type = String(this.getHeader('content-type') ?? '');
		if (type.includes('json') && body !== '') {
			try {
				json = JSON.parse(body);
			} catch {
				json = undefined;
			}
		}
		return { status: this.statusCode, headers: this.getHeaders(), body, json };
	}

	/** Writes the buffered response to the socket. */
	flush(): void {
		if (!this.ended) this.end();
		const headers: Record<string, number | string | string[]> = {};
		for (const { name, value } of this.headerMap.values()) headers[name] = value;
		this.real.writeHead(this.statusCode, headers);
		this.real.end(Buffer.concat(this.chunks));
	}
}

export type { IncomingHttpHeaders };
