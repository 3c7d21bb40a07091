import { redactDocument, redactSecrets } from './redact';
import { headerOf, type FullResponse } from './types';

/** The text of an answer's body as a reader would see it: an HTML page as its visible text, secrets hidden. */

/** How many characters of an answer that is no problem document an error quotes. */
export const BODY_EXCERPT_LENGTH = 200;

/** How much of an HTML page is read for its text: a proxy's error page says what it is near the top. */
const HTML_READ_LENGTH = 64 * 1024;

/** Elements whose content is not text a reader sees. */
const HIDDEN_ELEMENTS = new Set(['script', 'style', 'head', 'title', 'template', 'noscript', 'svg']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (entity, name: string) => {
		if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
		const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
		return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : entity;
	});
}

/** The text a reader sees on an HTML page, else its title; one pass, linear in the page read. */
function htmlToText(html: string): string {
	const page = html.slice(0, HTML_READ_LENGTH);
	const lower = page.toLowerCase();
	let text = '';
	let at = 0;
	while (at < page.length) {
		const open = page.indexOf('<', at);
		if (open === -1) {
			text += page.slice(at);
			break;
		}
		text += page.slice(at, open);
		if (page.startsWith('<!--', open)) {
			const end = page.indexOf('-->', open + 4);
			at = end === -1 ? page.length : end + 3;
			continue;
		}
		const close = page.indexOf('>', open);
		if (close === -1) break;
		at = close + 1;
		text += ' ';
		const name = /^<([a-z][a-z0-9-]*)/.exec(lower.slice(open, open + 20))?.[1];
		if (name !== undefined && HIDDEN_ELEMENTS.has(name)) {
			const end = lower.indexOf(`</${name}`, at);
			const after = end === -1 ? -1 : page.indexOf('>', end);
			at = after === -1 ? page.length : after + 1;
		}
	}
	const squeeze = (value: string) => decodeEntities(value).replace(/\s+/g, ' ').trim();
	const titleStart = lower.indexOf('<title');
	const titleOpen = titleStart === -1 ? -1 : page.indexOf('>', titleStart);
	const titleEnd = titleOpen === -1 ? -1 : lower.indexOf('</title', titleOpen);
	const title = titleEnd === -1 ? '' : page.slice(titleOpen + 1, titleEnd);
	return squeeze(text) || squeeze(title);
}

/** An answer that is an HTML page. */
export function isHtmlAnswer(response: FullResponse): boolean {
	const { body } = response;
	if (typeof body !== 'string') return false;
	if (/html/i.test(headerOf(response.headers, 'content-type') ?? '')) return true;
	return /^\s*<(?:!doctype\s+html|html|head|body)[\s>]/i.test(body.slice(0, 200));
}

/** What an error quotes of an answer that is no problem document: its start as text, secrets hidden before the cut. */
export function bodyExcerpt(response: FullResponse): string | undefined {
	const { body } = response;
	if (body === undefined || body === null || body === '') return undefined;
	let text: string;
	if (typeof body === 'string') {
		text = isHtmlAnswer(response) ? htmlToText(body) : body.slice(0, HTML_READ_LENGTH).replace(/\s+/g, ' ').trim();
	} else if (typeof body === 'object' && Object.keys(body).length === 0) {
		return undefined;
	} else {
		text = JSON.stringify(redactDocument(body)) ?? '';
	}
	// Redacted on ten times what is shown: a secret that begins within the excerpt is whole in it.
	text = redactSecrets(text.slice(0, 10 * BODY_EXCERPT_LENGTH));
	if (text === '') return undefined;
	return text.length > BODY_EXCERPT_LENGTH ? `${text.slice(0, BODY_EXCERPT_LENGTH)}…` : text;
}
