import { describeListContract, startRecruitingFixture, type RecruitingFixture } from './fixture';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture({ emailTemplates: 5 });
});
afterAll(async () => await fx.close());

describeListContract(() => fx, { resource: 'emailTemplate', segments: ['emailtemplates'], size: 5 });
