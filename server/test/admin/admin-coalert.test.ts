// npm run admin -- coalert-code issue | list | revoke: the codes sign in as their user, within their limit.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, v1 } from '../support/fixtures';
import { adminRunner, expectRefused } from './admin-fixtures';

let ctx: TestContext;
let admin: ReturnType<typeof adminRunner>;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = adminRunner(ctx);
  await insertUser(ctx.services, { email: 'guard@school.example', tenants: [await insertTenant(ctx.services)] });
});
afterAll(() => ctx.close());

const signInWith = (code: string) =>
  request(ctx.app).post('/core/v1/sessions').set(v1).send({ grantType: 'coAlertCode', code });

describe('coalert-code', () => {
  test('issue prints the code once; it signs in as the user up to its limit, in any letter case', async () => {
    const run = await admin([
      'coalert-code',
      'issue',
      '--user',
      'guard@school.example',
      '--usage-limit',
      '2',
      '--expires-in-days',
      '30',
      '--label',
      'Front desk',
    ]);
    expect(run.code).toBe(0);
    const [, id, code] = /^coAlert code (\d+) for guard@school\.example: ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})\n/.exec(
      run.out,
    )!;
    expect(run.out).toMatch(/2 sign-in\(s\), expires \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    expect(JSON.stringify(await ctx.services.db.selectFrom('coalert_codes').selectAll().execute())).not.toContain(code);

    expect((await signInWith(code.toLowerCase())).body.factors).toEqual({ coalert: 'verified' });
    expect((await admin(['coalert-code', 'list'])).out).toBe(
      `${id}\tguard@school.example\t1/2 used\texpires ${/expires (.+)\. Keep/.exec(run.out)![1]}\tFront desk\n`,
    );
    expect((await signInWith(code)).status).toBe(201);
    expect((await signInWith(code)).body.error.code).toBe('COALERT_CODE_USAGE_LIMIT_REACHED');
  });

  test('revoke makes the code stop working at once', async () => {
    const run = await admin(['coalert-code', 'issue', '--user', 'guard@school.example', '--usage-limit', '10']);
    const [, id, code] = /code (\d+) for \S+: (\S+)\n/.exec(run.out)!;
    expect((await signInWith(code)).status).toBe(201);
    expect(await admin(['coalert-code', 'revoke', id])).toMatchObject({
      code: 0,
      out: `coAlert code ${id} revoked.\n`,
    });
    expect((await signInWith(code)).body.error.code).toBe('INVALID_CREDENTIALS');
    expect((await admin(['coalert-code', 'list', '--user', 'guard@school.example'])).out).not.toMatch(
      new RegExp(`^${id}\\t`, 'm'),
    );
  });

  test.each([
    [['issue', '--user', 'nobody@school.example', '--usage-limit', '1'], 'There is no user nobody@school.example'],
    [['issue', '--user', 'guard@school.example', '--usage-limit', '0'], 'Must be a whole number from 1 to 100000.'],
    [
      ['issue', '--user', 'guard@school.example', '--usage-limit', '100001'],
      'Must be a whole number from 1 to 100000.',
    ],
    [
      ['issue', '--user', 'guard@school.example', '--usage-limit', '1', '--expires-in-days', '-1'],
      "argument '-1' is invalid",
    ],
    [['revoke', '424242'], 'There is no coAlert code 424242'],
    [['revoke', 'all'], 'Must be a whole number above 0.'],
  ])('refuses %j', async (args, message) => {
    expectRefused(await admin(['coalert-code', ...args]), message);
  });
});
