/**
 * The sandbox HTTP server (Node's http module, no framework): the 18 endpoints of the spec and those
 * of the service's full API under /v1.0/{company_id} (only the 18 with `specOnly`), and the control
 * API under /__sandbox.
 *
 * One request: read the body, record it (API requests only), apply a request fault if one matches,
 * check the bearer token and the company, route on the decoded path segments, run the handler,
 * serialise the answer once.
 */
import { createServer, IncomingMessage, ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { API_ROUTES, Reply, sortedApplications } from './api';
import { CONTROL_ROUTES } from './control';
import { Deliveries, SERVICE_RETRY_DELAYS_MS } from './deliveries';
import { Faults } from './faults';
import { Problem } from './problems';
import { parseRateLimit, RateLimiter } from './rateLimit';
import { Router } from './router';
import { seed } from './seed';
import { Store } from './store';
import type { RecordedRequest, Sandbox, SandboxOptions, SeedSizes, Violation } from './types';

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const fullApiRouter = new Router(API_ROUTES);
const specOnlyRouter = new Router(API_ROUTES.filter((route) => !route.fullApi));
const controlRouter = new Router(CONTROL_ROUTES);

interface Outgoing {
	status: number;
	headers: Record<string, string>;
	text?: string;
}

function toOutgoing(reply: Reply): Outgoing {
	if (reply.body === undefined) return { status: reply.status, headers: {} };
	return { status: reply.status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(reply.body) };
}

function problemOutgoing(error: unknown, instance: string): Outgoing {
	const problem =
		error instanceof Problem ? error : new Problem(500, `The sandbox failed: ${(error as Error)?.message ?? error}`);
	return {
		status: problem.status,
		headers: { 'content-type': 'application/problem+json', ...problem.headers },
		text: JSON.stringify(problem.toDocument(instance)),
	};
}

function write(res: ServerResponse, out: Outgoing): void {
	res.writeHead(out.status, out.text === undefined ? out.headers : { ...out.headers, 'content-length': String(Buffer.byteLength(out.text)) });
	res.end(out.text);
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		req.on('end', () =>
			size > MAX_BODY_BYTES
				? reject(new Problem(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`))
				: resolve(Buffer.concat(chunks).toString('utf8')),
		);
		req.on('error', reject);
	});
}

/** Parsed JSON; the raw text when it is not JSON; undefined when empty. */
function parseBody(text: string): unknown {
	if (text === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

const flatHeaders = (req: IncomingMessage): Record<string, string> =>
	Object.fromEntries(
		Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
	);

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const companyId = options.companyId ?? 'cmp_demo';
	const firstToken = options.token ?? 'sandbox-token';
	let token = firstToken;
	let rotations = 0;
	const store = new Store();
	const reseed = (sizes: SeedSizes | undefined): void => {
		seed(store, companyId, sizes);
		sortedApplications(store);
	};
	reseed(options.seed);
	const faults = new Faults();
	const limiter = new RateLimiter();
	limiter.set(options.rateLimit);
	const deliveries = new Deliveries(store, options.deliveryRetryDelaysMs);
	const requests: RecordedRequest[] = [];
	const violations: Violation[] = [];
	const apiRouter = options.specOnly ? specOnlyRouter : fullApiRouter;

	/** Auth, company, routing and the handler; throws a Problem for every error answer. */
	function dispatch(rec: RecordedRequest, rawSubPath: string): Reply {
		if (rec.headers.authorization !== `Bearer ${token}`) {
			throw new Problem(401, 'The access token is missing or invalid.', undefined, { 'www-authenticate': 'Bearer' });
		}
		const [, company, ...rest] = rec.segments;
		if (company === undefined) throw new Problem(404, `No endpoint matches ${rec.method} ${rec.path}.`);
		if (company !== companyId) throw new Problem(401, `The access token is not valid for company '${company}'.`);
		const match = apiRouter.match(rec.method, rest);
		if (!match.route) throw routeProblem(rec, match.allowed);
		return match.route.handle({
			params: match.params,
			query: rec.query,
			body: rec.body,
			store,
			companyId,
			emit: (event, object) => deliveries.emit(event, object),
			violation: (problem) => violations.push({ method: rec.method, path: rec.path, problem }),
			list: {
				baseUrl: sandbox.url,
				path: rec.path,
				query: rec.query,
				pageFault: (page) => faults.takePageFault(rec.method, rawSubPath, page),
			},
		});
	}

	/** API requests being handled now, and the most at once since the last clearRequests. */
	let inFlight = 0;
	let maxInFlight = 0;

	async function handleApi(req: IncomingMessage, res: ServerResponse, rec: RecordedRequest): Promise<void> {
		inFlight++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		try {
			await handleApiRequest(req, res, rec);
		} finally {
			inFlight--;
		}
	}

	async function handleApiRequest(req: IncomingMessage, res: ServerResponse, rec: RecordedRequest): Promise<void> {
		const rawSubPath = `/${rec.path.split('/').slice(3).join('/')}`;
		const fault = faults.takeRequestFault(rec.method, rawSubPath);
		if (fault?.kind === 'drop') {
			req.socket.destroy();
			return;
		}
		if (fault?.kind === 'slow') await delay(fault.delayMs ?? 1000);
		let out: Outgoing;
		// The limiter answers before any handling, as a real gateway does; its headers go on every answer.
		const admission = limiter.admit(rec.headers.authorization ?? '');
		if (admission.html !== undefined) {
			out = { status: admission.status ?? 503, headers: { 'content-type': 'text/html' }, text: admission.html };
		} else if (!admission.allowed) {
			out = problemOutgoing(
				new Problem(admission.status ?? 429, `Too many requests for this access token; a request is allowed again in ${admission.waitSeconds?.toFixed(2)} seconds.`, undefined, admission.headers),
				rec.path,
			);
		} else if (fault?.kind === 'status') {
			out = problemOutgoing(new Problem(fault.status ?? 500, 'Injected fault: the sandbox was told to fail this request.'), rec.path);
		} else if (fault?.kind === 'redirect') {
			// A hostile or misconfigured server sending the client elsewhere; nothing is handled.
			out = { status: fault.status ?? 302, headers: { location: fault.location ?? '/' }, text: '' };
		} else if (fault?.kind === 'rate_limit') {
			const retryAfter = String(fault.retryAfter ?? 1);
			out = problemOutgoing(
				new Problem(429, `Too many requests; retry after ${retryAfter} seconds.`, undefined, { 'retry-after': retryAfter }),
				rec.path,
			);
		} else {
			try {
				out = toOutgoing(dispatch(rec, rawSubPath));
			} catch (error) {
				out = problemOutgoing(error, rec.path);
			}
		}
		if (fault?.kind === 'malformed_json' && admission.allowed) {
			// The real answer, cut in half: a proper prefix of a JSON document is never valid JSON.
			const text = out.text ?? '{"data":null}';
			out = { status: 200, headers: { 'content-type': 'application/json' }, text: text.slice(0, Math.floor(text.length / 2)) };
		}
		if (admission.allowed) out = { ...out, headers: { ...out.headers, ...admission.headers } };
		rec.status = out.status;
		if (fault?.kind === 'trickle') {
			// Headers at once, then a space every 200 ms for delayMs, then the real answer: a client's
			// socket timeout never fires, only a bound on the whole exchange does.
			res.writeHead(out.status, out.headers);
			const until = Date.now() + (fault.delayMs ?? 1000);
			while (Date.now() < until && !res.destroyed) {
				res.write(' ');
				await delay(200);
			}
			if (!res.destroyed) res.end(out.text);
			rec.answeredAt = Date.now();
			return;
		}
		write(res, out);
		rec.answeredAt = Date.now();
	}

	async function handleControl(res: ServerResponse, rec: RecordedRequest): Promise<void> {
		const match = controlRouter.match(rec.method, rec.segments);
		if (!match.route) throw routeProblem(rec, match.allowed);
		const reply = await match.route.handle({ sandbox, store, faults, deliveries, params: match.params, body: rec.body });
		write(res, toOutgoing(reply));
	}

	async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const at = Date.now();
		const target = req.url ?? '/';
		const q = target.indexOf('?');
		const path = q < 0 ? target : target.slice(0, q);
		try {
			const rec: RecordedRequest = {
				method: (req.method ?? 'GET').toUpperCase(),
				path,
				segments: path.split('/').slice(1).map(decodeSegment),
				query: Object.fromEntries(new URLSearchParams(q < 0 ? '' : target.slice(q + 1))),
				headers: flatHeaders(req),
				body: parseBody(await readBody(req)),
				status: 0,
				at,
			};
			if (rec.segments[0] === '__sandbox') return await handleControl(res, rec);
			if (rec.segments[0] !== 'v1.0') throw new Problem(404, `No endpoint matches ${rec.method} ${path}; the API is under /v1.0/{company_id}.`);
			requests.push(rec);
			await handleApi(req, res, rec);
		} catch (error) {
			if (!res.headersSent) write(res, problemOutgoing(error, path));
		}
	}

	const server = createServer((req, res) => {
		// The service's clock as this process's Date says it (a test that moves the clock moves it too).
		res.setHeader('date', new Date().toUTCString());
		void onRequest(req, res);
	});
	let connections = 0;
	// Node's default of 5 s races with a client reusing an idle connection: on a loaded machine the
	// client's own idle timer fires late and its request meets a closed socket (ECONNRESET, seen in
	// the tests' direct reads). close() ends every connection anyway.
	server.keepAliveTimeout = 30_000;
	server.on('connection', () => connections++);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
	});
	const address = server.address() as AddressInfo;
	const host = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.address;
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

	const sandbox: Sandbox = {
		url,
		companyId,
		get token() {
			return token;
		},
		rotateToken() {
			token = `${firstToken}-${++rotations}`;
			return token;
		},
		requests,
		violations,
		clearRequests: () => {
			requests.length = 0;
			maxInFlight = inFlight;
		},
		inFlight: () => ({ now: inFlight, max: maxInFlight }),
		setFaults: (rules) => faults.set(rules),
		faultHits: () => faults.hitCounts(),
		connectionCount: () => connections,
		setRateLimit: (config) => limiter.set(config === undefined ? undefined : parseRateLimit(config)),
		rateLimit: () => ({ settings: limiter.settings, ...limiter.stats() }),
		rateLimitRefusals: () => limiter.refusals(),
		reset(sizes) {
			reseed(sizes);
			requests.length = 0;
			violations.length = 0;
			faults.set([]);
			limiter.reset();
			deliveries.reset();
			deliveries.retrySchedule = options.deliveryRetryDelaysMs ?? SERVICE_RETRY_DELAYS_MS;
		},
		put: (collection, record) => store.put(collection, record),
		get: (collection, id) => store.get(collection, id),
		deliver: async (input) => deliveries.deliver(input),
		deliveries: deliveries.records,
		settleDeliveries: () => deliveries.settle(),
		setDeliveryRetries: (delaysMs) => {
			deliveries.retrySchedule = delaysMs;
		},
		deliveryRetries: () => ({ delaysMs: [...deliveries.retrySchedule], waiting: deliveries.retriesWaiting }),
		retryDeliveriesNow: () => deliveries.retryNow(),
		async close() {
			deliveries.abandon();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
	return sandbox;
}

function routeProblem(rec: RecordedRequest, allowed: string[]): Problem {
	return allowed.length > 0
		? new Problem(405, `${rec.method} is not allowed on ${rec.path}; allowed: ${allowed.join(', ')}.`, undefined, {
				allow: allowed.join(', '),
			})
		: new Problem(404, `No endpoint matches ${rec.method} ${rec.path}.`);
}
