// The answers say what is true: a body of `oneOf` shapes with one bad field answers one issue that names it (not
// one per shape it did not choose), and an unknown `grantType` points at `/grantType`, not at the URL.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';

let ctx: TestContext;
let pending: { sessionId: string; accessToken: string };
let member: { id: number; token: string; tenant: number };
beforeAll(async () => {
  ctx = await createTestContext();
  const user = await insertUser(ctx.services, { otpEmail: true });
  pending = await signIn(ctx.services, user.id, { password: 'verified', otpEmail: 'unverified' });
  const tenant = await insertTenant(ctx.services);
  const m = await insertUser(ctx.services, { tenants: [tenant] });
  member = { id: m.id, token: (await signIn(ctx.services, m.id)).accessToken, tenant };
});
afterAll(() => ctx.close());

const answer = (body: object) =>
  request(ctx.app)
    .patch(`/core/v1/sessions/${pending.sessionId}`)
    .set(v1)
    .set('authorization', `Bearer ${pending.accessToken}`)
    .send(body);
const challenge = (body: object) =>
  request(ctx.app)
    .post(`/core/v1/sessions/${pending.sessionId}/challenges`)
    .set(v1)
    .set('authorization', `Bearer ${pending.accessToken}`)
    .send(body);

describe('one bad field, one issue', () => {
  test('an answer with a malformed code names only that code', async () => {
    const res = await answer({ otpEmail: { code: '12ab' } });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([{ where: 'body', path: '/otpEmail/code', message: expect.any(String) }]);
  });

  test('an answer of no known shape is one issue naming the choices', async () => {
    const res = await answer({ otp: { code: '123456' } });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([
      {
        where: 'body',
        path: '/',
        message: 'must have exactly one of the properties otpSms, otpEmail, oidc, passkey, skolon, saml',
      },
    ]);
  });

  test('a challenge with an extra property is one issue', async () => {
    const res = await challenge({ otpEmail: true, fax: true });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toHaveLength(1);
  });

  test('a value that is neither of two allowed kinds is one issue at its field', async () => {
    const res = await request(ctx.app)
      .patch(`/core/v1/users/${member.id}/settings`)
      .set(v1)
      .set('cosafe-tenant-id', String(member.tenant))
      .set('authorization', `Bearer ${member.token}`)
      .send({ preferredLanguage: 'klingon' });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([{ where: 'body', path: '/preferredLanguage', message: expect.any(String) }]);
  });
});

describe('the JSON pointer of an unknown grantType', () => {
  test('points at /grantType and names the allowed values', async () => {
    const res = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'magicLink', email: 'anna@example.test' });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([
      {
        where: 'body',
        path: '/grantType',
        message: "'grantType' must be equal to one of the allowed values: password, coAlertCode, sso, passkey.",
      },
    ]);
  });

  test('a missing grantType points at /grantType too', async () => {
    const res = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ email: 'anna@example.test', password: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([expect.objectContaining({ where: 'body', path: '/grantType' })]);
  });
});
