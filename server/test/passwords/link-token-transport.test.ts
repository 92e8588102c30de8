// Attack: a reset or invitation token travels in a URL query string (`GET …/password-reset?token=`), so every proxy,
// load balancer and access log on the way keeps a working link, and the sign-in app sent it to every region in
// turn, so regions that never issued it saw it too. The token is sent in the `cosafe-password-token` header (checks)
// or the body (uses), never in a URL: a query `token` is refused before it is looked at; and the emailed link names
// the region that issued it, so the sign-in app asks that region only.
import request from 'supertest';
import { createPasswordToken } from '../../src/modules/passwords/passwords.service';
import { emailHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { insertUser, v1 } from '../support/fixtures';
import { insertUserWithPassword, latestOutboxMessage } from '../support/sign-in';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { CORS_ORIGINS: 'https://login.example.test' } });
});
afterAll(() => ctx.close());

const kinds = ['set', 'reset'] as const;
const withHeader = (kind: string, userId: number, token: string) =>
  request(ctx.app).get(`/core/v1/users/${userId}/password-${kind}`).set(v1).set('cosafe-password-token', token);

describe('the token is never in a URL', () => {
  test.each(kinds)('password-%s: the link state is asked with the token in a header', async (kind) => {
    const user = await insertUser(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, kind);
    const res = await withHeader(kind, user.id, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ state: 'valid' });
  });

  test.each(kinds)('password-%s: a token in the query string answers 400 and is not looked at', async (kind) => {
    const user = await insertUser(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, kind);
    const res = await request(ctx.app).get(`/core/v1/users/${user.id}/password-${kind}`).query({ token }).set(v1);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.issues).toEqual(expect.arrayContaining([expect.objectContaining({ where: 'query' })]));
    // Also when the header is there: a URL carrying a token is refused whatever else the request holds.
    const both = await withHeader(kind, user.id, token).query({ token });
    expect(both.status).toBe(400);
  });

  test('a page of another origin may send the header only when it is an allowed origin (CORS)', async () => {
    const preflight = (origin: string) =>
      request(ctx.app)
        .options('/core/v1/users/1/password-reset')
        .set('origin', origin)
        .set('access-control-request-method', 'GET')
        .set('access-control-request-headers', 'cosafe-core-api-version,cosafe-password-token');
    const allowed = await preflight('https://login.example.test');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://login.example.test');
    expect(String(allowed.headers['access-control-allow-headers']).split(',')).toContain('cosafe-password-token');
    expect((await preflight('https://evil.test')).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the emailed link names its region', () => {
  test('a reset link carries region=eu-north-1 beside userId and token', async () => {
    const user = await insertUserWithPassword(ctx.services);
    expect(
      (
        await request(ctx.app)
          .post('/core/v1/users/password-reset')
          .set(v1)
          .send({ emailHash: emailHash(user.email) })
      ).status,
    ).toBe(202);
    let message: Awaited<ReturnType<typeof latestOutboxMessage>>;
    for (let i = 0; i < 50 && !message; i++) {
      await ctx.services.jobs.runDueJobs();
      message = await latestOutboxMessage(ctx.services, user.email);
      if (!message) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const link = new URL(/https?:\/\/\S+reset-password\?\S+/.exec(message!.body)![0]);
    expect(link.searchParams.get('region')).toBe('eu-north-1');
    expect(link.searchParams.get('userId')).toBe(String(user.id));
    expect((await withHeader('reset', user.id, link.searchParams.get('token')!)).body).toEqual({ state: 'valid' });
  });
});
