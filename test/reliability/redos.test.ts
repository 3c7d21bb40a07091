/**
 * Reliability: every published function that runs a regular expression on user or sender input,
 * fed pathological text up to 1 MB (1,000,000 characters): long runs of the characters its pattern
 * repeats, ending in the one that makes it fail. A super-linear pattern shows here as seconds
 * (the former e-mail check took 3.4 s on 40,000 characters, minutes on 1 MB).
 *
 * What is asserted is the result: refused with the clear `Invalid "<Field>": …` error (or, for the
 * signature checks, refused with the right reason), or accepted where the text is valid, exactly
 * as a reference says. Times are recorded, not asserted: the worst per function goes to the test
 * output and build/reliability/redos.json; the only bound on time (2 s a call) is there to stop a
 * hang, not to measure.
 *
 * Then fast-check: random texts repeated up to 1 MB against references, where the reference is
 * the former pattern (safe on text that short) or a plain restatement of the rule.
 */
import { createHmac, randomBytes } from 'crypto';
import fc from 'fast-check';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isEventName, WEBHOOK_EVENTS } from '../../nodes/shared/events';
import {
	checkSignatureHeaders,
	decodeSigningSecret,
	verifyWebhookSignature,
	type SignatureHeaders,
} from '../../nodes/shared/signature';
import { isLoopbackHost, redactSecrets } from '../../nodes/shared/transport';
import {
	checkEmail,
	checkEventNames,
	checkHttpUrl,
	checkIntegerInRange,
	checkLength,
	checkOneOf,
	checkSomeFields,
	checkTimeZone,
	MAX_DATE_TIME_LENGTH,
	MAX_EMAIL_LENGTH,
	MAX_ENCODED_ID_LENGTH,
	quoted,
	requireId,
	toIsoDateTime,
} from '../../nodes/shared/validation';
import { testNode } from '../harness/testNode';
import { writeCounts } from './helpers';

const SEED = Number(process.env.RELIABILITY_SEED ?? 20261122);
const MB = 1_000_000;
const SIZES = [1_000, 10_000, 100_000, MB];
/** Not a benchmark: only a hang fails on time. */
const HANG_MS = 2_000;
const startedAt = Date.now();

/* ---------- the references ---------- */

/** The patterns these functions used before; linear or not, they are safe on text this short. */
const FORMER = {
	email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
	event: /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+$/,
};

type Outcome = { accepted: unknown } | { refused: string };
/** An expected outcome, or a check of the outcome where one value cannot say it. */
type Expectation = Outcome | ((outcome: Outcome) => void);
const accepted = (value: unknown): Outcome => ({ accepted: value });
const refused = (message: string): Outcome => ({ refused: message });
const invalid = (field: string, problem: string): Outcome => refused(`Invalid "${field}": ${problem}`);

/** How an error quotes a value: at most 100 characters, then the length. */
const quote = (text: string) => (text.length <= 100 ? `"${text}"` : `"${text.slice(0, 100)}…" (${text.length} characters)`);

const node = testNode({ name: 'Recruiting', type: 'n8n-nodes-recruiting.recruiting' });
/** The two functions requireId uses, around one parameter value. */
const withParameter = (value: unknown) =>
	({ getNode: () => node, getNodeParameter: () => value }) as unknown as IExecuteFunctions;

const NOW_MS = Date.UTC(2030, 0, 31, 9, 30);
const TIMESTAMP = String(Math.floor(NOW_MS / 1000));
const SECRET = randomBytes(24);
const SIGNING_SECRET = `whsec_${SECRET.toString('base64')}`;
const goodHeaders = (body: Buffer): Required<SignatureHeaders> => ({
	id: 'msg_1',
	timestamp: TIMESTAMP,
	signature: `v1,${createHmac('sha256', SECRET).update(`msg_1.${TIMESTAMP}.`).update(body).digest('base64')}`,
});

/* ---------- the functions under test ---------- */

interface Subject {
	name: string;
	run(input: string): unknown;
	/** What `run` must give for this input: the value, or the error message / failure reason. */
	expected(input: string): Expectation;
}

const idRule = (input: string): Outcome => {
	// Spaces around an ID are dropped; inside one, they are refused.
	const text = input.trim();
	if (text === '') return invalid('Job ID', 'a value is required');
	if (text === '.' || text === '..') return invalid('Job ID', '"." and ".." are not valid IDs');
	const tooLong = (detail: string) =>
		invalid('Job ID', `too long: at most ${MAX_ENCODED_ID_LENGTH} characters once URL-encoded (${detail})`);
	if (text.length > MAX_ENCODED_ID_LENGTH) return tooLong(`it has ${text.length} characters before encoding`);
	if (text !== text.split(/\s/).join('')) {
		return invalid('Job ID', `${quote(text)} contains a space or line break, and IDs have none: check what was typed or mapped into this field`);
	}
	let encoded: number;
	try {
		encoded = encodeURIComponent(text).length;
	} catch {
		return invalid('Job ID', 'it contains an invalid (unpaired surrogate) character');
	}
	return encoded > MAX_ENCODED_ID_LENGTH ? tooLong(`it is ${encoded}`) : accepted(text);
};

const emailRule = (text: string): Outcome => {
	const trimmed = text.trim();
	if (trimmed.length > MAX_EMAIL_LENGTH) {
		return invalid('Email', `must be at most 254 characters long to be an email address (it is ${trimmed.length})`);
	}
	return FORMER.email.test(trimmed) ? accepted(trimmed) : invalid('Email', `${quote(text)} is not a valid email address`);
};

const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;
const dateRule = (text: string): Expectation => {
	const trimmed = text.trim();
	if (trimmed.length > MAX_DATE_TIME_LENGTH) {
		return invalid('Start', `must be at most 64 characters long to be a date and time (it is ${trimmed.length})`);
	}
	const problem = `${quote(trimmed)} is not a valid ISO 8601 date and time (for example 2030-01-31T09:30:00Z)`;
	if (!ISO_SHAPE.test(trimmed)) return invalid('Start', problem);
	// The right shape may still name a day that does not exist (2030-02-30): then that same error.
	return (outcome) => expect([accepted(trimmed.replace(' ', 'T')), invalid('Start', problem)]).toContainEqual(outcome);
};

const eventsRule = (text: string): Outcome => {
	const events = text
		.split(',')
		.map((event) => event.trim())
		.filter((event) => event !== '');
	if (events.length === 0) return invalid('Events', 'select at least one event');
	const malformed = events.find((event) => !FORMER.event.test(event));
	return malformed === undefined
		? accepted(events)
		: invalid('Events', `${quote(malformed)} is not an event name (such as candidate.updated)`);
};

const urlRule = (text: string): Outcome => {
	const trimmed = text.trim();
	const url = URL.canParse(trimmed) ? new URL(trimmed) : undefined;
	return url && ['http:', 'https:'].includes(url.protocol) && url.hostname !== ''
		? accepted(trimmed)
		: invalid('Image URL', `${quote(trimmed)} is not an absolute http:// or https:// URL`);
};

const SUBJECTS: Subject[] = [
	{
		name: 'requireId',
		run: (input) => requireId.call(withParameter(input), 'jobId', 0, 'Job ID'),
		expected: idRule,
	},
	{
		name: 'checkLength (Title, 1 to 100)',
		run: (input) => checkLength(node, 0, 'Title', input, 1, 100),
		expected: (input) =>
			input.length >= 1 && input.length <= 100
				? accepted(input)
				: invalid('Title', `must be 1 to 100 characters long (it is ${input.length})`),
	},
	{
		name: 'checkLength (Description, at most 100,000)',
		run: (input) => checkLength(node, 0, 'Description', input, 0, 100000),
		expected: (input) =>
			input.length <= 100000
				? accepted(input)
				: invalid('Description', `must be at most 100000 characters long (it is ${input.length})`),
	},
	{
		name: 'checkIntegerInRange (Rating, 1 to 5)',
		run: (input) => checkIntegerInRange(node, 0, 'Rating', input, 1, 5),
		expected: (input) => {
			const number = input.trim() === '' ? NaN : Number(input);
			return Number.isInteger(number) && number >= 1 && number <= 5
				? accepted(number)
				: invalid('Rating', 'must be a whole number from 1 to 5');
		},
	},
	{
		name: 'checkOneOf (Status)',
		run: (input) => checkOneOf(node, 0, 'Status', input, ['drafted', 'published', 'closed', 'internal']),
		expected: (input) =>
			['drafted', 'published', 'closed', 'internal'].includes(input)
				? accepted(input)
				: invalid('Status', 'must be one of drafted, published, closed, internal'),
	},
	{ name: 'toIsoDateTime', run: (input) => toIsoDateTime(node, 0, 'Start', input), expected: dateRule },
	{ name: 'checkEmail', run: (input) => checkEmail(node, 0, 'Email', input), expected: emailRule },
	{ name: 'checkHttpUrl', run: (input) => checkHttpUrl(node, 0, 'Image URL', input), expected: urlRule },
	{
		name: 'checkTimeZone',
		run: (input) => checkTimeZone(node, 0, 'Time Zone', input),
		expected: (input) => {
			const zone = input.trim();
			let known = zone !== '';
			try {
				new Intl.DateTimeFormat('en-US', { timeZone: zone });
			} catch {
				known = false;
			}
			return known ? accepted(zone) : invalid('Time Zone', `${quote(zone)} is not a known IANA time zone`);
		},
	},
	{ name: 'checkEventNames', run: (input) => checkEventNames(node, 0, 'Events', input), expected: eventsRule },
	{
		name: 'checkSomeFields',
		run: (input) => checkSomeFields(node, 0, input === '' ? {} : { [input]: input }),
		expected: (input) =>
			input === '' ? invalid('Update Fields', 'add at least one field to update') : accepted({ [input]: input }),
	},
	{
		name: 'isEventName',
		run: (input) => isEventName(input),
		expected: (input) => accepted(FORMER.event.test(input)),
	},
	{
		name: 'checkSignatureHeaders (webhook-id)',
		run: (input) => checkSignatureHeaders({ id: input, timestamp: TIMESTAMP, signature: 'v1,AAAA' }, NOW_MS),
		expected: (input) =>
			input === '' ? refused('missing-id') : /^[\x21-\x7e]{1,256}$/.test(input) ? accepted(true) : refused('invalid-id'),
	},
	{
		name: 'checkSignatureHeaders (webhook-timestamp)',
		run: (input) => checkSignatureHeaders({ id: 'msg_1', timestamp: input, signature: 'v1,AAAA' }, NOW_MS),
		expected: (input) =>
			input === ''
				? refused('missing-timestamp')
				: !/^\d{1,12}$/.test(input)
					? refused('invalid-timestamp')
					: Math.abs(Number(input) - Number(TIMESTAMP)) <= 300
						? accepted(true)
						: refused(Number(input) < Number(TIMESTAMP) ? 'timestamp-too-old' : 'timestamp-too-new'),
	},
	{
		name: 'checkSignatureHeaders (webhook-signature)',
		run: (input) => checkSignatureHeaders({ id: 'msg_1', timestamp: TIMESTAMP, signature: input }, NOW_MS),
		expected: (input) => {
			if (input.trim() === '') return refused('missing-signature');
			if (input.length > 8 * 1024) return refused('invalid-signature-header');
			const entries = input.split(' ').filter((entry) => entry !== '');
			if (entries.some((entry) => entry.indexOf(',') <= 0)) return refused('invalid-signature-header');
			return entries.some((entry) => entry.startsWith('v1,')) ? accepted(true) : refused('no-v1-signature');
		},
	},
	{
		name: 'verifyWebhookSignature (body)',
		// The text as the raw body, under headers signed over other bytes.
		run: (input) =>
			verifyWebhookSignature({
				body: Buffer.from(input),
				headers: goodHeaders(Buffer.from('{}')),
				secret: SIGNING_SECRET,
				nowMs: NOW_MS,
			}),
		expected: () => refused('no-matching-signature'),
	},
	{
		name: 'decodeSigningSecret',
		// A character that is not base64 at the end: the worst case for the pattern, and always refused.
		run: (input) => decodeSigningSecret(`whsec_${input}!`),
		expected: () => accepted(undefined),
	},
	{
		name: 'isLoopbackHost',
		run: (input) => isLoopbackHost(input),
		expected: (input) => {
			const host = input.toLowerCase();
			const ipv4 = host.split('.');
			const is127 = ipv4.length === 4 && ipv4[0] === '127' && ipv4.slice(1).every((part) => /^\d{1,3}$/.test(part));
			return accepted(host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || is127);
		},
	},
	{
		name: 'redactSecrets',
		run: (input) => redactSecrets(input),
		// Unchanged unless the text holds a whsec_ value, an Authorization value or a secret's name
		// (signing key, secret, token, password, API key); then no whsec_ value or quoted key is left.
		// Long runs of other text (paths, IDs) are never touched.
		expected: (input) =>
			/whsec_|signing|secret|token|passw|api[_-]?key|bearer|basic/i.test(input)
				? (outcome) => {
						const text = (outcome as { accepted: string }).accepted;
						expect(text.length).toBeLessThanOrEqual(input.length + 20);
						expect(text).not.toMatch(/whsec_(?!\[redacted\])[A-Za-z0-9]|"signing_key": "k/);
					}
				: accepted(input),
	},
];

/* ---------- pathological texts ---------- */

/** `unit` repeated to `n` characters (cut), between `before` and `after`. */
const run = (before: string, unit: string, n: number, after = '') =>
	before + unit.repeat(Math.ceil(n / unit.length)).slice(0, Math.max(0, n - before.length - after.length)) + after;

const SHAPES: Array<[string, (n: number) => string]> = [
	["'a'×n + '@'", (n) => run('', 'a', n, '@')],
	["'@'×n", (n) => run('', '@', n)],
	["'a@' + 'a.'×n", (n) => run('a@', 'a.', n)],
	["'a@' + 'a.'×n + '@'", (n) => run('a@', 'a.', n, '@')],
	["'a'×n + '@' + 'a'×n", (n) => 'a'.repeat(n / 2) + '@' + 'a'.repeat(n / 2 - 1)],
	["'a'×n + '@' + 'a'×n + '.'", (n) => 'a'.repeat(n / 2) + '@' + 'a'.repeat(n / 2 - 2) + '.'],
	["'1'×n", (n) => run('', '1', n)],
	["'1'×n + 'x'", (n) => run('', '1', n, 'x')],
	["' '×n", (n) => run('', ' ', n)],
	["' '×n + 'a@b.co' + ' '×n", (n) => ' '.repeat(n / 2) + 'a@b.co' + ' '.repeat(n / 2 - 6)],
	["'\\t\\n'×n + '!'", (n) => run('', '\t\n', n, '!')],
	["'/'×n + 'x'", (n) => run('', '/', n, 'x')],
	["'.'×n", (n) => run('', '.', n)],
	["'a' + '.a'×n", (n) => run('a', '.a', n)],
	["'a' + '.a'×n + '.'", (n) => run('a', '.a', n, '.')],
	["'a' + '_'×n + '.'", (n) => run('a', '_', n, '.')],
	["'a,'×n", (n) => run('', 'a,', n)],
	["'job.created,'×n + 'X'", (n) => run('', 'job.created,', n, 'X')],
	["'2030-01-31T09:30:00.' + '1'×n + 'x'", (n) => run('2030-01-31T09:30:00.', '1', n, 'x')],
	["'127' + '.1'×n", (n) => run('127', '.1', n)],
	["'a.'×n + 'localhost'", (n) => run('', 'a.', n, 'localhost')],
	["'A'×n + '='", (n) => run('', 'A', n, '=')],
	["'A'×n + '==='", (n) => run('', 'A', n, '===')],
	["'v1,'×n", (n) => run('', 'v1,', n)],
	["'v1,' + 'A'×n + ' x'", (n) => run('v1,', 'A', n, ' x')],
	["'\"signing_key\": \"' + 'k'×n", (n) => run('"signing_key": "', 'k', n)],
	["'whsec_'×n", (n) => run('', 'whsec_', n)],
	["'\\uD800'×n (unpaired surrogates)", (n) => run('', '\uD800', n)],
	["'😀'×n", (n) => run('', '😀', n)],
	["'%'×n", (n) => run('', '%', n)],
];

/* ---------- running and timing ---------- */

interface Timing {
	calls: number;
	worstMs: number;
	worstShape: string;
	worstAt1MbMs: number;
	worstAt1MbShape: string;
}
const timings = new Map<string, Timing>(SUBJECTS.map((s) => [s.name, { calls: 0, worstMs: 0, worstShape: '', worstAt1MbMs: 0, worstAt1MbShape: '' }]));
let inputsTried = 0;

/**
 * Function and text that already went over HANG_MS at a smaller size: that test failed, and the
 * next size (ten times longer) would only block the run for minutes.
 */
const hung = new Set<string>();

/** Runs one call, times it, and turns a throw into the refusal it stands for. */
function outcomeOf(subject: Subject, input: string, shape: string): Outcome {
	const started = process.hrtime.bigint();
	let outcome: Outcome;
	try {
		const result = subject.run(input);
		if (result && typeof result === 'object' && 'valid' in result) {
			const check = result as { valid: boolean; reason?: string };
			outcome = check.valid ? accepted(true) : refused(String(check.reason));
		} else {
			outcome = accepted(result);
		}
	} catch (error) {
		// Only the node's own validation error counts as a refusal: a RangeError would fail here.
		if (!(error instanceof NodeOperationError)) throw error;
		outcome = refused(error.message);
	}
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const timing = timings.get(subject.name)!;
	timing.calls++;
	inputsTried++;
	if (ms > timing.worstMs) Object.assign(timing, { worstMs: ms, worstShape: shape });
	if (input.length >= MB && ms > timing.worstAt1MbMs) Object.assign(timing, { worstAt1MbMs: ms, worstAt1MbShape: shape });
	if (ms >= HANG_MS) hung.add(`${subject.name} ${shape}`);
	expect(ms).toBeLessThan(HANG_MS);
	return outcome;
}

/** The outcome must be the expected one; a refusal is a short, clear message. */
function check(subject: Subject, input: string, shape: string): void {
	if (hung.has(`${subject.name} ${shape}`)) throw new Error(`${subject.name} took ${HANG_MS} ms or more on a shorter ${shape}`);
	const outcome = outcomeOf(subject, input, shape);
	// Never the megabyte it refused: at most 100 characters of it are quoted.
	if ('refused' in outcome) expect(outcome.refused.length).toBeLessThan(300);
	const expected = subject.expected(input);
	if (typeof expected === 'function') expected(outcome);
	else expect(outcome).toEqual(expected);
}

afterAll(() => {
	const rows = [...timings.entries()].map(([name, t]) => ({
		name,
		calls: t.calls,
		worst1Mb: t.worstAt1MbMs,
		shape1Mb: t.worstAt1MbShape,
		worst: t.worstMs,
	}));
	const width = Math.max(...rows.map((r) => r.name.length));
	const lines = [
		`redos: fast-check seed ${SEED}; worst time per function (ms), over ${inputsTried.toLocaleString('en-US')} calls`,
		`${'function'.padEnd(width)}  calls  worst on 1 MB  (text)`,
		...rows.map(
			(r) => `${r.name.padEnd(width)}  ${String(r.calls).padStart(5)}  ${r.worst1Mb.toFixed(2).padStart(13)}  ${r.shape1Mb}`,
		),
	];
	process.stdout.write(lines.join('\n') + '\n');
	const slowest = rows.reduce((a, b) => (b.worst1Mb > a.worst1Mb ? b : a));
	writeCounts(
		'redos',
		{
			inputsTried,
			functions: rows.length,
			worstMsOn1Mb: Number(slowest.worst1Mb.toFixed(2)),
		},
		{
			startedAt,
			seed: SEED,
			notes: rows.map((r) => `${r.name}: worst ${r.worst1Mb.toFixed(2)} ms on 1 MB (${r.shape1Mb})`),
		},
	);
});

/* ---------- the tests ---------- */

describe.each(SHAPES)('pathological text %s', (shape, make) => {
	test.each(SIZES)('n = %d: every function gives the expected result', (n) => {
		const input = make(n);
		expect(input.length).toBe(n);
		for (const subject of SUBJECTS) check(subject, input, shape);
	});
});

describe('boundaries', () => {
	test('an e-mail of 254 characters is checked; of 255 it is refused before any pattern', () => {
		const at254 = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
		expect(at254).toHaveLength(254);
		expect(checkEmail(node, 0, 'Email', at254)).toBe(at254);
		expect(() => checkEmail(node, 0, 'Email', `a${at254}`)).toThrow(
			'Invalid "Email": must be at most 254 characters long to be an email address (it is 255)',
		);
	});

	test('a date-time of 64 characters is checked; of 65 it is refused before the pattern', () => {
		const at64 = `2030-01-31T09:30:00.${'1'.repeat(38)}+01:00`;
		expect(at64).toHaveLength(64);
		expect(toIsoDateTime(node, 0, 'Start', at64)).toBe(at64);
		expect(() => toIsoDateTime(node, 0, 'Start', `2030-01-31T09:30:00.${'1'.repeat(39)}+01:00`)).toThrow(
			'Invalid "Start": must be at most 64 characters long to be a date and time (it is 65)',
		);
	});

	test('an id of 1,024 characters is accepted; 1,025 is refused before any scan', () => {
		expect(requireId.call(withParameter('i'.repeat(1024)), 'jobId', 0, 'Job ID')).toHaveLength(1024);
		expect(() => requireId.call(withParameter('i'.repeat(1025)), 'jobId', 0, 'Job ID')).toThrow(
			'Invalid "Job ID": too long: at most 1024 characters once URL-encoded (it has 1025 characters before encoding)',
		);
	});

	test('every documented event name passes the event-name check, a long valid one too', () => {
		for (const event of WEBHOOK_EVENTS) expect(isEventName(event)).toBe(true);
		expect(isEventName(`a${'.b'.repeat(4 * MB)}`)).toBe(true);
		expect(isEventName(`a${'.b'.repeat(4 * MB)}.`)).toBe(false);
	});

	test('a valid 1 MB signing secret still decodes, and an error quotes at most 100 characters of a value', () => {
		const key = randomBytes(750_000);
		expect(decodeSigningSecret(`whsec_${key.toString('base64')}`)?.equals(key)).toBe(true);
		expect(quoted('x'.repeat(MB))).toBe(`"${'x'.repeat(100)}…" (1000000 characters)`);
	});
});

describe('fast-check: random texts repeated up to 1 MB', () => {
	const ALPHABET = ['a', 'z', '@', '.', ' ', '\t', '1', '9', '/', ':', '-', '+', 'T', 'Z', '_', ',', '=', 'é', '😀', '\uDC00'];
	/** A short random unit repeated to up to 1 MB, between a short random prefix and suffix. */
	const text = fc
		.record({
			before: fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 12 }),
			unit: fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 6 }),
			length: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.noBias(fc.integer({ min: 0, max: MB }))),
			after: fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 12 }),
		})
		.map(({ before, unit, length, after }) => before + unit.repeat(Math.ceil(length / unit.length)).slice(0, length) + after);
	/** Short texts, where valid values are likely: the references must agree there too. */
	const short = fc.oneof(
		fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 40 }),
		fc.emailAddress(),
		fc.constantFrom(...WEBHOOK_EVENTS).map((e) => ` ${e} , ${e}.x`),
		fc.date({ noInvalidDate: true, min: new Date('1000-01-01'), max: new Date('9999-12-31') }).map((d) => d.toISOString()),
	);

	test.each(SUBJECTS.map((s) => [s.name, s] as const))('%s agrees with its reference', (name, subject) => {
		fc.assert(
			fc.property(fc.oneof({ weight: 2, arbitrary: text }, { weight: 1, arbitrary: short }), (input) => {
				check(subject, input, 'fast-check');
			}),
			{ seed: SEED, numRuns: 40 },
		);
	});
});
