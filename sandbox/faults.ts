/**
 * Fault injection. Request faults (status, rate_limit, slow, drop, malformed_json, redirect, trickle) act on a whole
 * request before it is handled; page faults (endless_pages, repeat_page, empty_page, ignore_sort) act on the list
 * envelope. A rule matches by method and by a substring of the raw path after /v1.0/{company}, and
 * stops after `times` hits (-1 = never stops). At most one request fault applies to a request: the
 * first active rule that matches.
 */
import type { PageFault } from './paging';
import { FieldErrors, throwIfErrors } from './problems';
import type { FaultKind, FaultRule } from './types';
import { arr, int, obj, oneOf, str } from './validation';

export const REQUEST_FAULTS = ['status', 'rate_limit', 'slow', 'drop', 'malformed_json', 'redirect', 'trickle'] as const;
export const PAGE_FAULTS = ['endless_pages', 'repeat_page', 'empty_page', 'ignore_sort'] as const;
export type RequestFault = (typeof REQUEST_FAULTS)[number];

const ruleSchema = obj(
	{
		kind: oneOf<FaultKind>([...REQUEST_FAULTS, ...PAGE_FAULTS]),
		method: str(),
		path: str(),
		times: int({ min: -1 }),
		status: int({ min: 100, max: 599 }),
		retryAfter: int({ min: 0 }),
		delayMs: int({ min: 0 }),
		page: int({ min: 1 }),
		location: str(),
	},
	{ strict: true, required: ['kind'] },
);
const rulesSchema = arr(ruleSchema);

export class Faults {
	private rules: FaultRule[] = [];
	private hits: number[] = [];

	/** Replaces the active rules; throws a validation problem (errors under `rules[i].field`). */
	set(rules: unknown): void {
		const errors: FieldErrors = {};
		const parsed = rulesSchema.parse(rules, 'rules', errors) as unknown as FaultRule[];
		throwIfErrors(errors);
		this.rules = parsed;
		this.hits = parsed.map(() => 0);
	}

	list(): { rules: FaultRule[]; hits: number[] } {
		return { rules: this.rules, hits: this.hitCounts() };
	}

	hitCounts(): number[] {
		return [...this.hits];
	}

	/** The first active request fault for this request, counted as a hit. */
	takeRequestFault(method: string, path: string): (FaultRule & { kind: RequestFault }) | undefined {
		return this.take(method, path, (rule) => (REQUEST_FAULTS as readonly string[]).includes(rule.kind)) as
			| (FaultRule & { kind: RequestFault })
			| undefined;
	}

	/** The first active page fault for this page of a list, counted as a hit. */
	takePageFault(method: string, path: string, page: number): PageFault | undefined {
		return this.take(
			method,
			path,
			(rule) =>
				(PAGE_FAULTS as readonly string[]).includes(rule.kind) &&
				(rule.kind === 'endless_pages' || rule.page === undefined || rule.page === page),
		)?.kind as PageFault | undefined;
	}

	private take(method: string, path: string, fits: (rule: FaultRule) => boolean): FaultRule | undefined {
		const index = this.rules.findIndex((rule, i) => {
			const times = rule.times ?? 1;
			return (
				(times < 0 || this.hits[i] < times) &&
				(rule.method === undefined || rule.method.toUpperCase() === method) &&
				(rule.path === undefined || path.includes(rule.path)) &&
				fits(rule)
			);
		});
		if (index < 0) return undefined;
		this.hits[index]++;
		return this.rules[index];
	}
}
