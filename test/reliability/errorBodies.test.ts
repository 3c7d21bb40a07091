/**
 * Error answers that are not problem documents (issue 27, point 9): a WAF's or proxy's 403 or 502
 * in HTML or plain text, a gateway's JSON of its own. The node's error quotes the first 200
 * characters of what came back, as text and with secrets hidden, instead of only "HTTP 403".
 * A local server stands in for the proxy in front of the service; the node runs through n8n's
 * engine and n8n's HTTP helper, over real HTTP.
 */
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { BODY_EXCERPT_LENGTH } from '../../nodes/shared/transport/bodyText';
import { runNode } from '../harness';
import { startFixedAnswerServer } from '../harness/fakeServices';
import { errorOf } from '../recruiting/fixture';

let server: Awaited<ReturnType<typeof startFixedAnswerServer>>;
beforeAll(async () => {
	server = await startFixedAnswerServer({ status: 403, contentType: 'text/plain', body: '' });
});
afterAll(async () => await server.close());

/** Candidate → Get (a GET) or Job → Create (a POST, never retried), through the proxy. */
async function failWith(status: number, contentType: string, body: string, operation: 'get' | 'create' = 'get') {
	server.answer = { status, contentType, body };
	const parameters =
		operation === 'get' ? { resource: 'candidate', operation: 'get', candidateId: 'can_1' } : { resource: 'job', operation: 'create', title: 'Dev' };
	const result = await runNode({
		nodeTypes: { recruiting: new Recruiting() },
		node: { type: 'recruiting', parameters },
		credentials: { recruitingApi: { baseUrl: server.url, companyId: 'cmp', accessToken: 't' } },
		credentialTypes: [new RecruitingApi()],
	});
	return errorOf(result);
}

const NGINX_403 = `<html>
<head><title>403 Forbidden</title><style>body { font-family: sans-serif; }</style></head>
<body>
<center><h1>403 Forbidden</h1></center>
<!-- request blocked by rule 942100 -->
<script>window.report && report('blocked');</script>
<p>Your request was blocked &amp; logged.&nbsp;Ref&#58; 7f3a</p>
<hr><center>nginx</center>
</body>
</html>`;

test('a WAF\'s HTML 403: the error says what the page says, as text', async () => {
	const error = await failWith(403, 'text/html; charset=utf-8', NGINX_403);
	expect(error.message).toBe('HTTP 403');
	expect(error.httpCode).toBe('403');
	expect(error.description).toBe(
		'The answer is not a problem document; it begins: 403 Forbidden Your request was blocked & logged. Ref: 7f3a nginx',
	);
});

test('an HTML page with no body text is quoted by its title; served without a content type it is still read as HTML', async () => {
	const error = await failWith(403, 'application/octet-stream', '<!DOCTYPE html><html><head><title>Access denied | example.com</title></head><body><div></div></body></html>');
	expect(error.description).toBe('The answer is not a problem document; it begins: Access denied | example.com');
});

test('a proxy\'s plain-text 502 to a POST: quoted after the line saying it is not retried', async () => {
	const error = await failWith(502, 'text/plain', 'upstream connect error or disconnect/reset before headers. reset reason: connection failure', 'create');
	expect(error.message).toBe('HTTP 502');
	expect(error.description).toBe(
		[
			'A POST is not retried automatically: it may have taken effect, so check before running it again.',
			'The answer is not a problem document; it begins: upstream connect error or disconnect/reset before headers. reset reason: connection failure',
		].join('\n'),
	);
});

test(`a long text is cut at ${BODY_EXCERPT_LENGTH} characters`, async () => {
	const error = await failWith(403, 'text/plain', 'x'.repeat(5000));
	expect(error.description).toBe(`The answer is not a problem document; it begins: ${'x'.repeat(BODY_EXCERPT_LENGTH)}…`);
});

test('secrets in the text are hidden before it is cut, so no part of one is shown', async () => {
	const secret = 'whsec_' + 'A'.repeat(40);
	const padding = 'p'.repeat(BODY_EXCERPT_LENGTH - 30);
	const error = await failWith(403, 'text/plain', `${padding} signing_key=${secret} Authorization: Bearer tok_0123456789abcdef`);
	expect(error.description).not.toMatch(/AAAA|tok_0123/);
	expect(error.description).toContain('[redacted]');
});

test('a gateway\'s JSON that is no problem document (an array, an object of its own) is quoted as JSON', async () => {
	expect((await failWith(403, 'application/json', '["blocked"]')).description).toBe('The answer is not a problem document; it begins: ["blocked"]');
	const object = await failWith(403, 'application/json', '{"message":"Forbidden","token":"s3cr3t"}');
	expect(object.message).toBe('HTTP 403');
	expect(object.description).toBe('The answer is not a problem document; it begins: {"message":"Forbidden","token":"[redacted]"}');
});

test('a problem document is reported as before: no quote added', async () => {
	const error = await failWith(403, 'application/problem+json', JSON.stringify({ title: 'Forbidden', status: 403, detail: 'Token lacks scope' }));
	expect(error.message).toBe('Forbidden (HTTP 403)');
	expect(error.description).toBe('Token lacks scope');
});
