import { startRecruitingFixture } from './fixture';
test('scratch', async () => {
	const fx = await startRecruitingFixture({ applications: 2, tags: 2 });
	const r1 = await fx.run({ resource: 'webhook', operation: 'get', webhookId: 'wh_demo' });
	console.log(JSON.stringify(r1.items), r1.error);
	const r2 = await fx.run({ resource: 'webhook', operation: 'get', webhookId: 'nope' });
	const e: any = r2.error;
	console.log(e?.constructor?.name, e?.message, e?.description, e?.context, e?.httpCode);
	const r3 = await fx.run({ resource: 'webhook', operation: 'update', webhookId: 'wh_demo', updateFields: { events: ['x.y'] } });
	const e3: any = r3.error;
	console.log(e3?.constructor?.name, e3?.message, '|', e3?.description, e3?.context, e3?.httpCode);
	const r4 = await fx.run({ resource: 'webhook', operation: 'update', webhookId: 'wh_demo', updateFields: {} });
	const e4: any = r4.error;
	console.log(e4?.constructor?.name, e4?.message, '|', e4?.description, e4?.context, fx.sandbox.requests.length);
	const r5 = await fx.run({ resource: 'webhook', operation: 'update', webhookId: 'wh_demo', updateFields: {} }, { continueOnFail: true });
	console.log(JSON.stringify(r5.items), r5.error);
	await fx.close();
});
