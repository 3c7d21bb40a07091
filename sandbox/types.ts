/**
 * Public types of the sandbox: the programmatic API that the node tests, the end-to-end suite and the
 * benchmarks code against. Resource shapes live in resources.ts.
 */
import type { RateLimitConfig, RateLimitCounts } from './rateLimit';

/** How many records of each kind the deterministic seed creates. */
export interface SeedSizes {
	/** Default 50. */
	applications?: number;
	/** Default 10. */
	jobs?: number;
	/** Default max(50, applications), so that every application can have a candidate of its own. */
	candidates?: number;
	/** Default 12. */
	tags?: number;
	/** Default 5. */
	emailTemplates?: number;
	/** Default 4. */
	userCategories?: number;
	/** Default 3. */
	jobNotesPerJob?: number;
}

export interface SandboxOptions {
	/** 0 = a random free port (the default here); the CLI defaults to 5730 (cli.ts, DEFAULT_PORT). */
	port?: number;
	/** Default '127.0.0.1'. */
	host?: string;
	/** Default 'cmp_demo'. */
	companyId?: string;
	/** Default 'sandbox-token'. */
	token?: string;
	seed?: SeedSizes;
	/**
	 * Serve only the 18 endpoints of the specification: the endpoints of the service's full API
	 * (users, one application, note creation, source, the feedback list and completion) answer 404
	 * like any unknown route, as a service that implements only the spec would.
	 */
	specOnly?: boolean;
	/** A token-bucket rate limit per access token (see rateLimit.ts); none by default. */
	rateLimit?: RateLimitConfig;
	/** The delays between attempts of a failed event delivery; default: the service's (deliveries.ts). */
	deliveryRetryDelaysMs?: number[];
}

export interface RecordedRequest {
	method: string;
	/** Raw path, still percent-encoded, without the query string. */
	path: string;
	/** Path segments, each decoded on its own (so an encoded '/' stays inside its segment). */
	segments: string[];
	query: Record<string, string>;
	/** Header names in lower case. */
	headers: Record<string, string>;
	/** Parsed JSON; the raw text when it is not JSON; undefined when the body is empty. */
	body: unknown;
	/** The status that was answered; 0 while unanswered or when the socket was dropped. */
	status: number;
	/** When the request came in (ms since the epoch, this process's clock). */
	at: number;
	/** When it was answered (ms since the epoch); absent while unanswered or when the socket was dropped. */
	answeredAt?: number;
}

/**
 * A write that breaks the API's contract in a way the service itself lets pass (it drops what it
 * does not know): recorded so that tests fail on it, where the service's answer would not show it.
 */
export interface Violation {
	method: string;
	/** Raw path, as in RecordedRequest. */
	path: string;
	/** What was wrong: `tags[0].color: a tag in a write is { id, name }`. */
	problem: string;
}

export type FaultKind =
	| 'status'
	| 'rate_limit'
	| 'slow'
	| 'drop'
	| 'malformed_json'
	| 'redirect'
	| 'trickle'
	| 'endless_pages'
	| 'repeat_page'
	| 'empty_page'
	| 'ignore_sort';

export interface FaultRule {
	kind: FaultKind;
	/** Matches any method when omitted. */
	method?: string;
	/** Substring of the raw path after /v1.0/{company}; matches any path when omitted. */
	path?: string;
	/** How many matching requests the rule hits; default 1; -1 = every time. */
	times?: number;
	/** For 'status'; default 500. */
	status?: number;
	/** Seconds, for 'rate_limit'; default 1. */
	retryAfter?: number;
	/** For 'slow' (before answering) and 'trickle' (while answering); default 1000. */
	delayMs?: number;
	/** For 'redirect': where the 3xx (its `status`, default 302) points. */
	location?: string;
	/** For 'repeat_page' and 'empty_page': the page it applies to; any page when omitted. */
	page?: number;
}

export interface DeliveryRecord {
	webhookId: string;
	event: string;
	msgId: string;
	endpoint: string;
	/** The receiver's status; null on a network error. */
	status: number | null;
	error?: string;
	/** The exact body that was signed and sent. */
	body: string;
	/** The headers that were sent (content-type, webhook-id, webhook-timestamp, webhook-signature). */
	headers: Record<string, string>;
	/** 1 for the first attempt; a retry has the same msgId and body. */
	attempt: number;
	/** A failed attempt: ms until the next one, or null when the service gave up. */
	retryInMs?: number | null;
}

export interface DeliverInput {
	webhookId: string;
	event: string;
	/** The resource to send; defaults to a seeded resource that fits the event. */
	object?: object;
	/** 'object' (default): data = { object: resource }; 'flat': data = resource. */
	shape?: 'object' | 'flat';
}

export type CollectionName =
	| 'jobs'
	| 'candidates'
	| 'applications'
	| 'interviews'
	| 'jobNotes'
	| 'candidateNotes'
	| 'tags'
	| 'feedback'
	| 'applicationForms'
	| 'emailTemplates'
	| 'userCategories'
	| 'webhooks'
	| 'users';

export interface Sandbox {
	/** Base URL without /v1.0, e.g. http://127.0.0.1:40123 */
	url: string;
	companyId: string;
	/** The access token the service accepts now. */
	readonly token: string;
	/**
	 * Issues a new access token and revokes the one before, as a dashboard's "regenerate". A client
	 * keeps what it learned per credential (the send rate's pace and pauses): tests that share one
	 * sandbox take a token each, so nothing learned in one carries into the next.
	 */
	rotateToken(): string;
	/** Every /v1.0 request, in order of arrival (control requests are not recorded). */
	readonly requests: RecordedRequest[];
	/** The contract violations of the writes since the last reset (see Violation); tests fail on any. */
	readonly violations: Violation[];
	/** Also starts the count of the most requests handled at once again. */
	clearRequests(): void;
	/** API requests being handled now, and the most at once since the last clearRequests (counted by the server, not sampled). */
	inFlight(): { now: number; max: number };
	/** Replaces the active fault rules (and their hit counts). */
	setFaults(rules: FaultRule[]): void;
	/** Hits per active rule, in the order of setFaults. */
	faultHits(): number[];
	/** TCP connections accepted since the server started (for benchmarks: connection reuse). */
	connectionCount(): number;
	/** Sets the token-bucket limit (undefined: none); every bucket starts full, the counts at 0. */
	setRateLimit(config: RateLimitConfig | undefined): void;
	/** The limit in force and the requests it let through and refused since it was set or reset. */
	rateLimit(): { settings: RateLimitConfig | undefined } & RateLimitCounts;
	/** When each refusal came, ms since the limit was set or reset. */
	rateLimitRefusals(): number[];
	/** Reseeds deterministically and clears requests, faults and deliveries (the retry schedule back to the start's). */
	reset(seed?: SeedSizes): void;
	/** Upserts any record by its `id` (ids may contain / ? # % spaces and any unicode). */
	put(collection: CollectionName, record: object): void;
	get(collection: CollectionName, id: string): object | undefined;
	/** A signed POST to the webhook's endpoint; resolves once the receiver has answered (or failed). */
	deliver(input: DeliverInput): Promise<DeliveryRecord>;
	/** Every delivery made, in order of completion. */
	readonly deliveries: DeliveryRecord[];
	/** Extension: resolves once every delivery started so far (including the automatic ones) has finished. */
	settleDeliveries(): Promise<void>;
	/** The delays between attempts of the event deliveries sent from now on ([] = tried once). */
	setDeliveryRetries(delaysMs: number[]): void;
	/** The retry schedule in force, and how many retries are waiting for their time. */
	deliveryRetries(): { delaysMs: number[]; waiting: number };
	/** Makes every waiting retry now; how many were sent (a webhook disabled or deleted meanwhile gets none). */
	retryDeliveriesNow(): number;
	close(): Promise<void>;
}
