/**
 * Issue 43, point 3: one diagnosis of "this Base URL is not the service" (nodes/shared/baseUrl.ts's
 * notTheService) for the action node, the polling trigger's publishing poll and its Fetch Test
 * Event: n8n's own editor (an HTML page with 200 for any path) and n8n's task broker (an empty 404).
 * A local server stands in for what the Base URL points at, over real HTTP through n8n's engine.
 */
import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { pollHarness, runNode } from '../harness';
import { startFixedAnswerServer } from '../harness/fakeServices';
import { errorOf } from '../recruiting/fixture';

let server: Awaited<ReturnType<typeof startFixedAnswerServer>>;
beforeAll(async () => {
	server = await startFixedAnswerServer({ status: 404, contentType: 'text/plain', body: '' });
});
afterAll(async () => await server.close());

const N8N_EDITOR = { status: 200, contentType: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><head><title>n8n.io - Workflow Automation</title></head><body><div id="app"></div></body></html>' };
const TASK_BROKER = { status: 404, contentType: 'text/plain', body: '' };
const credentials = () => ({ recruitingApi: { baseUrl: server.url, companyId: 'cmp', accessToken: 't' } });

describe.each([
	['n8n\'s editor (HTML, 200)', N8N_EDITOR, /HTML page/],
	['n8n\'s task broker (an empty 404)', TASK_BROKER, /task broker/],
])('a Base URL pointing at %s', (_what, serving, explained) => {
	beforeEach(() => {
		server.answer = serving;
	});

	it('the action node says the Base URL is not the service', async () => {
		const error = errorOf(
			await runNode({
				nodeTypes: { recruiting: new Recruiting() },
				node: { type: 'recruiting', parameters: { resource: 'candidate', operation: 'get', candidateId: 'can_1' } },
				credentials: credentials(),
				credentialTypes: [new RecruitingApi()],
			}),
		);
		// A 404 names what was not found; the description says why that may be.
		expect(error.description).toMatch(/Base URL/);
		expect(error.description).toMatch(explained);
	});

	it.each(['activate', 'manual'] as const)('the polling trigger (%s) says it in the message n8n shows', async (mode) => {
		const trigger = pollHarness(new RecruitingPollingTrigger(), { event: 'application.created', options: {} }, { credentials: credentials(), credentialTypes: [new RecruitingApi()] });
		const { error } = mode === 'activate' ? await trigger.activate() : await trigger.manual();
		expect(error?.message).toMatch(/Base URL/);
		expect((error as { description?: string }).description).toMatch(explained);
	});
});
