/** Matching decoded path segments against a route table (`:name` segments are parameters). */

export interface RouteSpec {
	method: string;
	/** e.g. '/jobs/:job_id/notes' */
	path: string;
}

export type RouteMatch<R> =
	| { route: R; params: Record<string, string> }
	| { route?: undefined; allowed: string[] };

export class Router<R extends RouteSpec> {
	private readonly compiled: Array<{ route: R; parts: string[] }>;

	constructor(routes: readonly R[]) {
		this.compiled = routes.map((route) => ({ route, parts: route.path.split('/').slice(1) }));
	}

	/** The route and its parameters; or, when only the method is wrong, the methods the path allows. */
	match(method: string, segments: readonly string[]): RouteMatch<R> {
		const allowed: string[] = [];
		for (const { route, parts } of this.compiled) {
			const params = matchParts(parts, segments);
			if (!params) continue;
			if (route.method === method) return { route, params };
			allowed.push(route.method);
		}
		return { allowed };
	}
}

function matchParts(parts: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
	if (parts.length !== segments.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < parts.length; i++) {
		if (parts[i].startsWith(':')) {
			if (segments[i] === '') return undefined;
			params[parts[i].slice(1)] = segments[i];
		} else if (parts[i] !== segments[i]) return undefined;
	}
	return params;
}
