/**
 * The Recruiting Trigger and the Recruiting Polling Trigger as a pair: for the three events both
 * see, the webhook's item and the poll's item of the same event carry the same `eventKey`, so that
 * n8n's Remove Duplicates on it lets each event through once. The events are made as the service
 * makes them (the sandbox's activity routes), which also sends their webhook deliveries.
 */
import type { IDataObject } from 'n8n-workflow';

import { RecruitingApi } from '../../credentials/RecruitingApi.credentials';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { pollHarness } from '../harness';
import { useTriggerFixture, WEBHOOK } from './fixture';

const fx = useTriggerFixture();
const EVENTS = ['application.created', 'application.stage.updated', 'feedback.submitted'];

async function control(method: string, path: string, body?: unknown): Promise<IDataObject> {
	const response = await fetch(`${fx.sandbox.url}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	expect(response.status).toBeLessThan(300);
	const answer = (await response.json()) as IDataObject;
	return (answer.data ?? answer) as IDataObject;
}

function pollingTrigger(event: string, jobId: string) {
	const { baseUrl, companyId, accessToken } = fx.credentials().recruitingApi;
	return pollHarness(new RecruitingPollingTrigger(), { event, options: {}, ...(event === 'application.stage.updated' ? { jobIds: jobId } : {}) }, {
		typeVersion: 1,
		credentials: { recruitingApi: { baseUrl, companyId, accessToken } },
		credentialTypes: [new RecruitingApi()],
	});
}

describe('the two triggers as a pair', () => {
	it('each event both triggers see comes from both with one eventKey, and two events never share one', async () => {
		const { server, hooks } = await fx.setup(fx.parameters({ events: EVENTS }));
		await hooks.activate();
		const job = String(((await control('GET', '/info')).jobIds as string[])[0]);
		const polls = EVENTS.map((event) => pollingTrigger(event, job));
		for (const poll of polls) await poll.activate();

		const applied = await control('POST', '/applications', { jobId: job });
		const moved = await control('POST', `/jobs/${encodeURIComponent(job)}/stage-moves`);
		const completed = await control('POST', '/feedback', { applicationId: String(applied.id) });
		await fx.sandbox.settleDeliveries();

		const byWebhook = server.calls.flatMap((call) => call.workflowData?.[0] ?? []).map((item) => item.json);
		const byPoll = (await Promise.all(polls.map(async (poll) => (await poll.tick()).emitted))).flat();
		const keys = (items: IDataObject[]) => items.map((item) => item.eventKey).sort();
		expect(byWebhook.map((item) => item.event).sort()).toEqual([...EVENTS].sort());
		expect(keys(byPoll)).toEqual(keys(byWebhook));
		expect(new Set(keys(byWebhook)).size).toBe(3);
		expect(keys(byWebhook)).toEqual(
			[
				`application.created:${String(applied.id)}`,
				`application.stage.updated:${String(moved.id)}>${String((moved.stage as IDataObject).parent_stage)}|${String(((moved.stage as IDataObject).custom_stage as IDataObject | null)?.id || ((moved.stage as IDataObject).custom_stage as IDataObject | null)?.name || '')}`,
				`feedback.submitted:${String(completed.id)}@${Math.floor(Date.parse(String(completed.date_complete)) / 1000)}`,
			].sort(),
		);
		expect(fx.sandbox.deliveries.filter((d) => d.webhookId === WEBHOOK).every((d) => d.status === 200)).toBe(true);
	});

	it('an event only the webhook sees keeps its webhook-id as its key, which its retries share', async () => {
		const { server, hooks } = await fx.setup(fx.parameters({ events: ['candidate.updated'], options: { dropDuplicates: false } }));
		await hooks.activate();
		const record = await fx.sandbox.deliver({ webhookId: WEBHOOK, event: 'candidate.updated' });
		const [item] = server.calls.flatMap((call) => call.workflowData?.[0] ?? []).map((i) => i.json);
		expect(item.eventKey).toBe(record.msgId);
	});
});
