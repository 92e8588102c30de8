// The demo data's invited user: a newcomer finds her invitation in the development outbox and can use it.
import request from 'supertest';
import { seedDemoData } from '../../src/demo/seed';
import { demoInvitedUser } from '../../src/demo/seed-invitation';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { SIGN_IN_APP_URL: 'http://localhost:5173' } });
  await seedDemoData(ctx.services);
  await ctx.services.jobs.runDueJobs();
});
afterAll(() => ctx.close());

describe('the demo data', () => {
  test(`includes ${demoInvitedUser.email}, invited, with a working set-password link in the development outbox`, async () => {
    const outbox = await request(ctx.app).get('/dev/outbox').query({ to: demoInvitedUser.email });
    expect(outbox.body.data).toHaveLength(1);
    const [mail] = outbox.body.data;
    expect(mail.subject).toBe('Your account at Demo Municipality');
    const url = new URL(/http:\/\/localhost:5173\/set-password\?\S+/.exec(mail.body)![0]);
    const state = await request(ctx.app)
      .get(`/core/v1/users/${url.searchParams.get('userId')}/password-set`)
      .set(v1)
      .set('cosafe-password-token', url.searchParams.get('token')!);
    expect(state.body).toEqual({ state: 'valid' });
  });

  test('does not invite her again on the next start', async () => {
    expect(await seedDemoData(ctx.services)).toBe(false);
    await ctx.services.jobs.runDueJobs();
    expect((await request(ctx.app).get('/dev/outbox').query({ to: demoInvitedUser.email })).body.data).toHaveLength(1);
  });
});

test('Brazil has no invited demo user', async () => {
  const brazil = await createTestContext({ env: { REGION: 'sa-east-1' } });
  try {
    await seedDemoData(brazil.services);
    expect(
      await brazil.services.db.selectFrom('users').select('id').where('email', '=', demoInvitedUser.email).execute(),
    ).toEqual([]);
  } finally {
    await brazil.close();
  }
});
