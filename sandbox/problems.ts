/** Problem documents (RFC 9457 shape: type, title, status, detail, instance, and `errors` for validation). */
import { STATUS_CODES } from 'http';

export type FieldErrors = Record<string, string[]>;

const TYPES: Record<number, string> = {
	400: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
	401: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
	403: 'https://tools.ietf.org/html/rfc9110#section-15.5.4',
	404: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
	405: 'https://tools.ietf.org/html/rfc9110#section-15.5.6',
	409: 'https://tools.ietf.org/html/rfc9110#section-15.5.10',
	413: 'https://tools.ietf.org/html/rfc9110#section-15.5.14',
	429: 'https://tools.ietf.org/html/rfc6585#section-4',
	500: 'https://tools.ietf.org/html/rfc9110#section-15.6.1',
	502: 'https://tools.ietf.org/html/rfc9110#section-15.6.3',
	503: 'https://tools.ietf.org/html/rfc9110#section-15.6.4',
};

/** Thrown by handlers; the server turns it into a problem document. */
export class Problem extends Error {
	constructor(
		readonly status: number,
		readonly detail: string,
		readonly errors?: FieldErrors,
		readonly headers: Record<string, string> = {},
		readonly title: string = STATUS_CODES[status] ?? 'Error',
	) {
		super(errors ? `${detail} ${JSON.stringify(errors)}` : detail);
	}

	toDocument(instance: string): Record<string, unknown> {
		const doc: Record<string, unknown> = {
			type: TYPES[this.status] ?? 'about:blank',
			title: this.title,
			status: this.status,
			detail: this.detail,
			instance,
		};
		if (this.errors) doc.errors = this.errors;
		return doc;
	}
}

export const notFound = (kind: string, id: string): Problem =>
	new Problem(404, `${kind} '${id}' was not found.`);

export const validationProblem = (errors: FieldErrors): Problem =>
	new Problem(
		400,
		'The request is invalid; see errors for each field.',
		errors,
		{},
		'One or more validation errors occurred.',
	);

/** Throws a validation problem when any field error was collected. */
export function throwIfErrors(errors: FieldErrors): void {
	if (Object.keys(errors).length > 0) throw validationProblem(errors);
}
