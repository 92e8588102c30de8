import request from 'supertest';
import { createPasswordToken } from '../../src/modules/passwords/passwords.service';
import { emailHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { insertUser, v1 } from '../support/fixtures';
import { goodPassword, insertUserWithPassword, latestOutboxMessage, movableClock } from '../support/sign-in';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now, env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const newPassword = 'Brand-New-Pass-42!';
const login = (email: string, password: string) =>
  request(ctx.app).post('/core/v1/sessions').set(v1).send({ grantType: 'password', email, password });
let ipCounter = 0;
const ip = () => `10.2.${Math.floor(ipCounter / 250)}.${ipCounter++ % 250}`;

/** GET /users/{userId}/password-{set|reset}: the link's state, asked from a fresh address. */
const linkState = (kind: 'set' | 'reset', userId: number, token: string) =>
  request(ctx.app)
    .get(`/core/v1/users/${userId}/password-${kind}`)
    .set('cosafe-password-token', token)
    .set(v1)
    .set('x-forwarded-for', ip());

/** POST /users/{userId}/password-{set|reset} with the link's token and a password, from a fresh address. */
const useLink = (kind: 'set' | 'reset', userId: number, token: string, password: string) =>
  request(ctx.app)
    .post(`/core/v1/users/${userId}/password-${kind}`)
    .set(v1)
    .set('x-forwarded-for', ip())
    .send(kind === 'set' ? { token, password } : { token, newPassword: password });

describe('password set (invitation)', () => {
  test('GET answers valid, then POST sets the password and the user can sign in', async () => {
    const user = await insertUser(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, 'set');
    const state = await linkState('set', user.id, token);
    expect(state.body).toEqual({ state: 'valid' });
    const set = await useLink('set', user.id, token, newPassword);
    expect(set.status).toBe(204);
    expect((await login(user.email, newPassword)).status).toBe(201);
    const used = await linkState('set', user.id, token);
    expect(used.body).toEqual({ state: 'used' });
    const again = await useLink('set', user.id, token, newPassword);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('USER_PASSWORD_ALREADY_SET');
  });

  test('an expired link answers expired and 410 USER_PASSWORD_SET_TOKEN_EXPIRED', async () => {
    const user = await insertUser(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, 'set');
    clock.advance(31 * 86_400_000);
    expect((await linkState('set', user.id, token)).body.state).toBe('expired');
    const res = await useLink('set', user.id, token, newPassword);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('USER_PASSWORD_SET_TOKEN_EXPIRED');
  });

  test("an unknown token, or another user's, answers invalid and 400 USER_PASSWORD_SET_TOKEN_INVALID", async () => {
    const user = await insertUser(ctx.services);
    const other = await insertUser(ctx.services);
    const token = await createPasswordToken(ctx.services, other.id, 'set');
    for (const t of [token, 'x'.repeat(43)]) {
      expect((await linkState('set', user.id, t)).body.state).toBe('invalid');
      const res = await useLink('set', user.id, t, newPassword);
      expect(res.body.error.code).toBe('USER_PASSWORD_SET_TOKEN_INVALID');
    }
  });

  test('a weak password answers 400 with one issue per broken rule, and changes nothing', async () => {
    const user = await insertUser(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, 'set');
    const res = await useLink('set', user.id, token, 'short');
    expect(res.status).toBe(400);
    expect(res.body.error.issues.map((i: { rule: string }) => i.rule)).toEqual([
      'PASSWORD_TOO_SHORT',
      'PASSWORD_MISSING_UPPERCASE',
      'PASSWORD_MISSING_DIGIT',
      'PASSWORD_MISSING_SPECIAL_CHARACTER',
    ]);
    expect(res.body.error.issues[0]).toEqual({
      where: 'body',
      path: '/password',
      message: 'Password must be at least 10 characters',
      rule: 'PASSWORD_TOO_SHORT',
    });
    const noLower = await useLink('set', user.id, token, 'ALLUPPER123!');
    expect(noLower.body.error.issues.map((i: { message: string }) => i.message)).toEqual([
      'Password must contain a lowercase letter',
    ]);
    const row = await ctx.services.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect((await linkState('set', user.id, token)).body.state).toBe('valid');
  });
});

describe('password reset', () => {
  const requestReset = (email: string, from = ip()) =>
    request(ctx.app)
      .post('/core/v1/users/password-reset')
      .set(v1)
      .set('x-forwarded-for', from)
      .send({ emailHash: emailHash(email) });

  test('answers 202 alike for known and unknown accounts, and emails a link only to a known one', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const known = await requestReset(user.email);
    const unknown = await requestReset('nobody@example.test');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.text).toBe(unknown.text);
    await new Promise((r) => setTimeout(r, 200));
    const mail = await latestOutboxMessage(ctx.services, user.email);
    expect(mail?.body).toMatch(/\/reset-password\?userId=\d+&token=[A-Za-z0-9_-]+/);
    expect(await latestOutboxMessage(ctx.services, 'nobody@example.test')).toBeUndefined();
  });

  test('the link resets the password, ends every session and is then used up', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const session = (await login(user.email, goodPassword)).body;
    await requestReset(user.email);
    await new Promise((r) => setTimeout(r, 200));
    const link = new URL(/(http\S+)/.exec((await latestOutboxMessage(ctx.services, user.email))!.body)![1]);
    const token = link.searchParams.get('token')!;
    expect((await linkState('reset', user.id, token)).body.state).toBe('valid');
    const res = await useLink('reset', user.id, token, newPassword);
    expect(res.status).toBe(204);
    expect((await login(user.email, newPassword)).status).toBe(201);
    expect((await login(user.email, goodPassword)).status).toBe(401);
    const refresh = await request(ctx.app)
      .put(`/core/v1/sessions/${session.id}`)
      .set(v1)
      .set('authorization', `Bearer ${session.refreshToken}`);
    expect(refresh.status).toBe(401);
    const reuse = await useLink('reset', user.id, token, newPassword);
    expect(reuse.body.error.code).toBe('USER_PASSWORD_SET_TOKEN_INVALID');
  });

  test('a reset link dies after 30 minutes', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const token = await createPasswordToken(ctx.services, user.id, 'reset');
    clock.advance(31 * 60_000);
    const res = await useLink('reset', user.id, token, newPassword);
    expect(res.body.error.code).toBe('USER_PASSWORD_SET_TOKEN_EXPIRED');
  });

  test('cannot be used to mass-mail: 3 requests an hour per account, then 429', async () => {
    const user = await insertUserWithPassword(ctx.services);
    for (let i = 0; i < 3; i++) expect((await requestReset(user.email)).status).toBe(202);
    const res = await requestReset(user.email);
    expect(res.status).toBe(429);
    expect(res.body.error.unavailableUntil).toEqual(expect.any(String));
  });
});
