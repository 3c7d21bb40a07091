import { describeListContract, startRecruitingFixture, type RecruitingFixture } from './fixture';

let fx: RecruitingFixture;
beforeAll(async () => {
	fx = await startRecruitingFixture({ userCategories: 4 });
});
afterAll(async () => await fx.close());

describeListContract(() => fx, { resource: 'userCategory', segments: ['users', 'categories'], size: 4 });
