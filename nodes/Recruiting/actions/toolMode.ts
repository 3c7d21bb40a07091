/**
 * The Recruiting node as an AI agent's tool (n8n names that variant `recruitingTool`; its `@tool`
 * display option is true). What it hands a model is sized and shaped for one: a chosen Output
 * shape, lists of one page with a note on what is left, and errors a model can act on returned as
 * text instead of failing the agent's run. Outside tool mode none of this applies.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { describeSeconds, MAX_PAGE_SIZE, rateLimitWaitOf, runOf, type ToolListPage } from '../../shared/transport';
import { invalidField, isValueRefusal } from '../../shared/validation';
import { FULL_API_MISSING } from './fullApi';
import { simplifyForTool, type ToolShape } from './simplify';

export { isToolMode } from './asTool';

/** A list's first answer for a model: a screenful, not thousands of records. */
export const TOOL_DEFAULT_LIMIT = 20;

/**
 * What a tool shows instead of Limit (the list operations add their own display rule): one page of
 * results at a time. Not named `limit`: n8n's lint holds every `limit` to a default of 50.
 */
export const toolListProperties: INodeProperties[] = [
	{
		displayName: 'Results per Page',
		name: 'pageSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PAGE_SIZE, numberPrecision: 0 },
		default: TOOL_DEFAULT_LIMIT,
		description: `How many results to return, at most ${MAX_PAGE_SIZE}; when there are more, the last item says so and which page to ask for next`,
		displayOptions: { show: { returnAll: [false], '@tool': [true] } },
	},
	{
		displayName: 'Page',
		name: 'page',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description:
			'Which page of results to return: 1 for the first; when a result ends with a note giving next_page, call again with that page for the next results',
		displayOptions: { show: { returnAll: [false], '@tool': [true] } },
	},
];

/** Output and Fields of one resource's operations that return records, shown only in a tool. */
export function toolOutputProperties(resource: string, operations: string[]): INodeProperties[] {
	const shown = { show: { '@tool': [true], resource: [resource], operation: operations } };
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'Simplified',
					value: 'simplified',
					description: 'A small, flat version of each record with the fields people use',
				},
				{ name: 'Raw', value: 'raw', description: 'Each record exactly as the service returns it' },
				{ name: 'Selected Fields', value: 'selected', description: 'Only the fields named below, and the ID' },
			],
			default: 'simplified',
			description: 'What each record returned to the model holds',
			displayOptions: shown,
		},
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'string',
			default: '',
			placeholder: 'e.g. title, status, candidate.email',
			description:
				'Comma-separated names of the fields to return (dotted paths reach into nested objects, e.g. candidate.email); the ID is always included',
			displayOptions: { show: { ...shown.show, output: ['selected'] } },
		},
	];
}

/** The Results per Page and Page of a list run as a tool: one page of the service, at most MAX_PAGE_SIZE. */
export function readToolPage(this: IExecuteFunctions, itemIndex: number): { page: number; pageSize: number } {
	const whole = (name: string, field: string, fallback: number, max: number): number => {
		const raw: unknown = this.getNodeParameter(name, itemIndex, fallback);
		const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
		if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) {
			const range = max === Number.MAX_SAFE_INTEGER ? 'at least 1' : `from 1 to ${max}`;
			throw invalidField(this.getNode(), itemIndex, field, `must be a whole number ${range} (it is ${JSON.stringify(raw)})`);
		}
		return value;
	};
	return {
		pageSize: whole('pageSize', 'Results per Page', TOOL_DEFAULT_LIMIT, MAX_PAGE_SIZE),
		page: whole('page', 'Page', 1, Number.MAX_SAFE_INTEGER),
	};
}

/** An item's list run as a tool: the page it returned, for the note added after the records are shaped. */
export function noteToolListPage(context: object, itemIndex: number, page: ToolListPage): void {
	runOf(context).toolListPages.set(itemIndex, page);
}

/** The page an item's list returned as a tool, if it ran one. */
export function toolListPageOf(context: object, itemIndex: number): ToolListPage | undefined {
	return runOf(context).toolListPages.get(itemIndex);
}

/**
 * The records of a list that pass a filter the node applies after fetching. As a tool's page, the
 * note then says how many of the page matched, and that the filter saw only that page.
 */
export function filterFetched(
	context: object,
	itemIndex: number,
	records: IDataObject[],
	keep: (record: IDataObject) => boolean,
): IDataObject[] {
	const page = toolListPageOf(context, itemIndex);
	if (page) noteToolListPage(context, itemIndex, { ...page, fetched: records.length });
	return records.filter(keep);
}

function listNote(page: ToolListPage, returned: number): IDataObject | undefined {
	const total = page.totalItems;
	const totalPart = typeof total === 'number' ? { total_items: total } : {};
	if (page.fetched !== undefined) {
		const next = page.hasNextPage
			? { text: ` More: page ${page.page + 1}.`, fields: { next_page: page.page + 1 } }
			: { text: ' No more pages.', fields: {} };
		return {
			note: `Page ${page.page}: ${returned} of its ${page.fetched} ${page.noun} match the filters (applied per page).${next.text}`,
			page: page.page,
			...next.fields,
			...totalPart,
		};
	}
	if (returned === 0 && page.page === 1) {
		return { note: `No ${page.noun} found.`, total_items: typeof total === 'number' ? total : 0 };
	}
	if (returned === 0) {
		return { note: `Page ${page.page} holds no ${page.noun}: there are fewer pages.`, page: page.page, ...totalPart };
	}
	if (!page.hasNextPage) return undefined;
	const first = (page.page - 1) * page.pageSize + 1;
	const of = typeof total === 'number' ? ` of ${total}` : '';
	return {
		note: `${page.noun} ${first}–${first + returned - 1}${of}. More: page ${page.page + 1}.`,
		page: page.page,
		next_page: page.page + 1,
		...totalPart,
	};
}

/** A value at a dotted path (`candidate.email`), from the record's own fields only. */
function valueAt(record: IDataObject, path: string): unknown {
	let value: unknown = record;
	for (const key of path.split('.')) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
		if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

function selectFields(record: IDataObject, fields: string[]): IDataObject {
	const out: IDataObject = { id: record.id ?? null };
	for (const field of fields) {
		const value = valueAt(record, field);
		// Defined, not assigned: a field named __proto__ must stay a field.
		if (value !== undefined) Object.defineProperty(out, field, { value, enumerable: true, writable: true, configurable: true });
	}
	return out;
}

/** How a tool run shapes each record: read, and checked, before anything is sent. */
export type RecordShaper = (record: IDataObject) => IDataObject;

export function readToolOutput(this: IExecuteFunctions, itemIndex: number, shape: ToolShape | undefined): RecordShaper | undefined {
	if (!shape) return undefined;
	const shaper = readOutputShaper.call(this, itemIndex, shape);
	// A webhook's signing key never reaches a model, whatever Output or Include Signing Key say:
	// a model's context is logged and sent on, and $fromAI could switch the option on.
	if (shape !== 'webhook') return shaper;
	return (record) => {
		const rest = { ...record };
		delete rest.signing_key;
		return shaper(rest);
	};
}

function readOutputShaper(this: IExecuteFunctions, itemIndex: number, shape: ToolShape): RecordShaper {
	const output = this.getNodeParameter('output', itemIndex, 'simplified') as string;
	if (output === 'raw') return (record) => record;
	if (output !== 'selected') return (record) => simplifyForTool(record, shape);
	const fields = String(this.getNodeParameter('fields', itemIndex, '') ?? '')
		.split(',')
		.map((field) => field.trim())
		.filter((field) => field !== '' && field !== 'id');
	if (fields.length === 0) {
		throw invalidField(this.getNode(), itemIndex, 'Fields', 'name at least one field when Output is Selected Fields');
	}
	return (record) => selectFields(record, fields);
}

/** What a tool run returns: the records in the chosen Output shape, then the list's note if any. */
export function shapeForTool(
	result: IDataObject | IDataObject[],
	shaper: RecordShaper | undefined,
	page: ToolListPage | undefined,
): IDataObject | IDataObject[] {
	let shaped = result;
	if (shaper) shaped = Array.isArray(result) ? result.map(shaper) : shaper(result);
	if (!page || !Array.isArray(shaped)) return shaped;
	const note = listNote(page, shaped.length);
	return note ? [...shaped, note] : shaped;
}

/** Answers a model can act on: the request was wrong, not the service or the connection. */
const MODEL_ACTIONABLE_STATUSES = new Set(['400', '403', '404', '409', '410', '422']);

/** Where a model finds a valid ID of what was not found (the noun of the 404 message). */
const FIND_AN_ID: Record<string, string> = {
	candidate:
		'Candidate IDs start with can_: take one from candidate_id in the results of Application → Get Many (get many applications, filtered by job or stage), or ask the user.',
	job: 'Job IDs start with job_: take one from job_id in the results of Application → Get Many, or ask the user.',
	application:
		'Application IDs start with app_: find one with Application → Get Many (filter by candidate or job).',
	interview: 'Interview IDs start with int_: Interview → Create returns one; otherwise ask the user.',
	feedback:
		'Feedback IDs start with fdbk_: an application lists its feedback IDs (Application → Get Many with Output Raw, field feedback).',
	note: 'Note IDs come from the note itself (a Recruiting Trigger candidate.note event or an earlier result); check the candidate ID too.',
	'application form': 'Application form IDs start with form_ and are shown in the service; ask the user.',
	webhook: 'Webhook IDs start with wh_ and are shown in the service\'s dashboard; ask the user.',
	user: 'User IDs start with usr_: find one with User → Get Many (names and e-mails), or ask the user.',
	tag: 'Tag IDs come from Tag → Get Many; a tag can also be given by its name.',
};

function nextStep(error: NodeApiError | NodeOperationError): string {
	if (error instanceof NodeOperationError) return 'Correct that value and call this tool again.';
	if (error.message.includes(FULL_API_MISSING)) return 'This service does not offer the operation: tell the user; calling it again will not help.';
	if (error.httpCode === '404') {
		const noun = /^The ([a-z ]+?) "/.exec(error.message)?.[1];
		return (noun && FIND_AN_ID[noun]) || 'Check the IDs given: one of them does not exist.';
	}
	if (error.httpCode === '403') return 'The credential may not do this: tell the user instead of retrying.';
	return 'Correct the values named above and call this tool again; do not retry unchanged.';
}

/**
 * The text a model receives instead of a failed run, for an error it can act on (a parameter's
 * value refused before any request; or the service refusing the request: 400, 403, 404, 409, 410,
 * 422); undefined for every other failure, which fails the run as it does outside tool mode: the
 * credential (authorization, its Base URL or Company ID refused), invalid Request Options, the
 * service or the network failing. A model cannot fix those, and the Error Trigger must see them.
 */
export function toolErrorText(error: unknown): string | undefined {
	// The service asked to wait longer than the run may: the model learns how long, and can tell the user.
	const wait = rateLimitWaitOf(error);
	if (wait !== undefined) {
		return `The recruiting service is rate limiting requests and asked to wait ${describeSeconds(wait)} before the next one. Do not call this tool again before then; tell the user if the answer cannot wait.`;
	}
	const actionable =
		(error instanceof NodeApiError && MODEL_ACTIONABLE_STATUSES.has(String(error.httpCode))) ||
		(error instanceof NodeOperationError && isValueRefusal(error));
	if (!actionable) return undefined;
	const { message, description } = error as NodeApiError | NodeOperationError;
	// A 404's description only repeats the path: the message names the ID.
	const details = description && (error as NodeApiError).httpCode !== '404' ? ` ${description.replace(/\s*\n\s*/g, '; ')}` : '';
	const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
	return `${sentence(message + (details ? ':' + details : ''))} ${nextStep(error as NodeApiError | NodeOperationError)}`;
}
