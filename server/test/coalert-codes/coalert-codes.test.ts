import request from 'supertest';
import { keyedHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, v1 } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A coAlert code of a new user, in `on`'s database (this file's context unless another is named). */
async function insertCoalertCode(code: string, usageLimit: number, on = ctx, expiresAt: Date | null = null) {
  const user = await insertUser(on.services, { tenants: [await insertTenant(on.services)] });
  await on.services.db
    .insertInto('coalert_codes')
    .values({
      code_hash: keyedHash(on.services.secretKey, `coalert\0${code}`),
      user_id: user.id,
      usage_limit: usageLimit,
      expires_at: expiresAt,
    })
    .execute();
  return user;
}
const withCode = (code: string) =>
  request(ctx.app).post('/core/v1/sessions').set(v1).send({ grantType: 'coAlertCode', code });

describe('POST /core/v1/sessions (grantType coAlertCode)', () => {
  test('a valid code creates a session with the coalert factor verified', async () => {
    await insertCoalertCode('K7P2-9QX4', 5);
    const res = await withCode('k7p2-9qx4');
    expect(res.status).toBe(201);
    expect(res.body.factors).toEqual({ coalert: 'verified' });
  });

  test('a code typed with spaces around it, as read aloud or pasted, is the same code', async () => {
    await insertCoalertCode('W4TS-7YRD', 5);
    const res = await withCode('  w4ts-7yrd\t');
    expect(res.status).toBe(201);
    expect(res.body.factors).toEqual({ coalert: 'verified' });
  });

  test('past its usage limit answers 403 COALERT_CODE_USAGE_LIMIT_REACHED', async () => {
    await insertCoalertCode('ONCE-ONLY', 1);
    expect((await withCode('ONCE-ONLY')).status).toBe(201);
    const res = await withCode('ONCE-ONLY');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('COALERT_CODE_USAGE_LIMIT_REACHED');
    expect(res.body.error.message).toBe('The code has reached its usage limit');
  });

  test('concurrent uses never exceed the limit', async () => {
    await insertCoalertCode('RACE-CODE', 3);
    const results = await Promise.all(Array.from({ length: 8 }, () => withCode('RACE-CODE')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
  });

  test('an unknown code answers 401 INVALID_CREDENTIALS', async () => {
    expect((await withCode('NOPE-NOPE')).body.error.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('deactivated users', () => {
  test('a coAlert code of a user deactivated by the directory answers 401 INVALID_CREDENTIALS', async () => {
    const user = await insertCoalertCode('GONE-USER', 5);
    await ctx.services.db.updateTable('users').set({ deactivated_at: new Date() }).where('id', '=', user.id).execute();
    expect((await withCode('GONE-USER')).body.error.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('expiry, on a stopped clock', () => {
  const at = new Date('2026-11-27T12:00:00.000Z');
  let timed: TestContext;
  beforeAll(async () => {
    timed = await createTestContext({ now: () => at });
  });
  afterAll(() => timed.close());

  const codeExpiring = (code: string, expiresAt: Date | null) => insertCoalertCode(code, 5, timed, expiresAt);
  const use = (code: string) =>
    request(timed.app).post('/core/v1/sessions').set(v1).send({ grantType: 'coAlertCode', code });

  test('a code is good until the instant it expires, and refused at that instant as an unknown code is', async () => {
    await codeExpiring('LAST-MSEC', new Date(at.getTime() + 1));
    await codeExpiring('ENDS-NOWW', at);
    await codeExpiring('NO-EXPIRY', null);
    expect((await use('LAST-MSEC')).status).toBe(201);
    expect((await use('NO-EXPIRY')).status).toBe(201);
    const refused = await use('ENDS-NOWW');
    const unknown = await use('NEVER-SEEN');
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'The code is not valid' });
    expect({ status: refused.status, error: refused.body.error }).toEqual({
      status: unknown.status,
      error: unknown.body.error,
    });
  });
});
