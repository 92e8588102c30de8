// npm run admin -- user invite
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, v1 } from '../support/fixtures';
import { goodPasswordHash } from '../support/sign-in';
import { registerJobHandlers } from '../../src/job-handlers';
import { JobScheduler } from '../../src/jobs/scheduler';
import { adminRunner, expectRefused } from './admin-fixtures';

let ctx: TestContext;
let admin: ReturnType<typeof adminRunner>;
let tenant: number;
beforeAll(async () => {
  ctx = await createTestContext({ env: { SIGN_IN_APP_URL: 'https://login.example.com' } });
  admin = adminRunner(ctx);
  tenant = await insertTenant(ctx.services, 'Demo School');
});
afterAll(() => ctx.close());

const mailsTo = (to: string) =>
  ctx.services.db.selectFrom('outbox').select(['subject', 'body']).where('recipient', '=', to).orderBy('id').execute();
const linkIn = (body: string) => {
  const url = new URL(/https:\/\/login\.example\.com\/set-password\?\S+/.exec(body)![0]);
  return { userId: url.searchParams.get('userId')!, token: url.searchParams.get('token')! };
};
const state = async (link: { userId: string; token: string }) =>
  (
    await request(ctx.app)
      .get(`/core/v1/users/${link.userId}/password-set`)
      .set(v1)
      .set('cosafe-password-token', link.token)
  ).body.state;

describe('user invite', () => {
  test('creates the account and membership and sends the invitation now, in the language given', async () => {
    const run = await admin([
      'user',
      'invite',
      '--tenant',
      String(tenant),
      '--email',
      'ann@school.example',
      '--name',
      'Ann Berg',
      '--title',
      'Teacher',
      '--phone',
      '+46 70 123 45 67',
      '--language',
      'sv',
      '--admin',
    ]);
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toMatch(
      /^Invitation to Demo School sent to ann@school\.example \(user \d+, new\); the link is valid 30 days\.\n$/,
    );
    const user = await ctx.services.db
      .selectFrom('users as u')
      .innerJoin('memberships as m', 'm.user_id', 'u.id')
      .innerJoin('user_settings as s', 's.user_id', 'u.id')
      .select([
        'u.name',
        'u.title',
        'u.phone_primary',
        'u.password_hash',
        'm.tenant_id',
        'm.is_admin',
        's.preferred_language',
      ])
      .where('u.email', '=', 'ann@school.example')
      .executeTakeFirstOrThrow();
    expect(user).toEqual({
      name: 'Ann Berg',
      title: 'Teacher',
      phone_primary: '+46701234567',
      password_hash: null,
      tenant_id: tenant,
      is_admin: true,
      preferred_language: 'sv',
    });
    const [mail] = await mailsTo('ann@school.example');
    expect(mail.subject).toBe('Ditt konto hos Demo School');
    expect(await state(linkIn(mail.body))).toBe('valid');
    // An administrator's invitation leads to the admin panel once the password is set.
    expect(/[?&]platform=(\w+)/.exec(mail.body)?.[1]).toBe('admin');
  });

  test('inviting again sends a new link and the old one stops working', async () => {
    await admin(['user', 'invite', '--tenant', String(tenant), '--email', 'bo@school.example', '--name', 'Bo']);
    const again = await admin([
      'user',
      'invite',
      '--tenant',
      String(tenant),
      '--email',
      'bo@school.example',
      '--name',
      'Bo',
    ]);
    expect(again.out).toMatch(/sent to bo@school\.example \(user \d+\);/);
    const [first, second] = await mailsTo('bo@school.example');
    expect(first.subject).toBe('Your account at Demo School');
    expect(await state(linkIn(first.body))).toBe('invalid');
    expect(await state(linkIn(second.body))).toBe('valid');
  });

  test('adds someone who already has a password to the tenant, and says why no invitation was sent', async () => {
    const other = await insertTenant(ctx.services);
    await insertUser(ctx.services, {
      email: 'cai@school.example',
      passwordHash: await goodPasswordHash(),
      tenants: [other],
    });
    const run = await admin([
      'user',
      'invite',
      '--tenant',
      String(tenant),
      '--email',
      'cai@school.example',
      '--name',
      'Cai',
    ]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/is a member of Demo School; no invitation sent: they already have a password/);
    expect(await mailsTo('cai@school.example')).toEqual([]);
  });

  test('when a running region sends the invitation first, it says sent (not "could not be sent now (busy)")', async () => {
    // The region's own worker claims the job the moment it is enqueued (LISTEN/NOTIFY) and is still sending it when
    // the tool asks to run it: the tool waits for that send and reports it.
    const region = new JobScheduler(ctx.services.db, { now: () => new Date(), logger: ctx.services.logger });
    let claimed: () => void = () => undefined;
    const regionHasIt = new Promise<void>((resolve) => (claimed = resolve));
    const send = ctx.services.notifier.email.send.bind(ctx.services.notifier.email);
    const slowNotifier = {
      ...ctx.services.notifier,
      email: {
        ...ctx.services.notifier.email,
        send: async (mail: Parameters<typeof send>[0]) => {
          claimed();
          await new Promise((resolve) => setTimeout(resolve, 300));
          return send(mail);
        },
      },
    };
    registerJobHandlers({ ...ctx.services, jobs: region, notifier: slowNotifier });
    const tool = adminRunner({
      ...ctx,
      services: {
        ...ctx.services,
        jobs: Object.assign(Object.create(ctx.services.jobs) as JobScheduler, {
          runNow: async (key: string) => {
            const regionRun = region.runDueJobs();
            await regionHasIt;
            const answer = await ctx.services.jobs.runNow(key);
            await regionRun;
            return answer;
          },
        }),
      },
    });
    const run = await tool([
      'user',
      'invite',
      '--tenant',
      String(tenant),
      '--email',
      'dag@school.example',
      '--name',
      'Dag',
    ]);
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toMatch(
      /^Invitation to Demo School sent to dag@school\.example \(user \d+, new\); the link is valid 30 days\.\n$/,
    );
    expect(await mailsTo('dag@school.example')).toHaveLength(1);
  });

  test.each([
    [['--tenant', '999999', '--email', 'x@school.example', '--name', 'X'], 'There is no tenant 999999.'],
    [['--tenant', '0', '--email', 'x@school.example', '--name', 'X'], 'Must be a whole number above 0.'],
    [['--tenant', 'TENANT', '--email', 'x@school.example', '--name', 'X'], 'Must be a whole number above 0.'],
    [['--tenant', '1', '--email', 'not-an-email', '--name', 'X'], 'Must be an email address.'],
    [
      ['--tenant', '1', '--email', 'x@school.example', '--name', 'X', '--language', 'de'],
      'Must be one of sv, en, nl, fi, es, pt.',
    ],
    [
      ['--tenant', '1', '--email', 'x@school.example', '--name', 'X', '--phone', '0701234567'],
      'Must be an international number',
    ],
  ])('refuses %j without writing anything', async (args, message) => {
    expectRefused(await admin(['user', 'invite', ...args]), message);
    expect(
      await ctx.services.db.selectFrom('users').select('id').where('email', '=', 'x@school.example').execute(),
    ).toEqual([]);
  });
});
