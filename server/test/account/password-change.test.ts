// A signed-in user changes her password (issue 44). The current password is the proof, checked as a sign-in checks it,
// so a stolen access token alone changes nothing and a guessing loop meets the sign-in's lockouts; the new one keeps
// the rules and the breached/common list; every other session ends, hers goes on; an email tells her, in her
// language; the change and the endings are security events.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, signIn } from '../support/fixtures';
import { goodPassword, insertUserWithPassword, latestOutboxMessage, passwordLogin } from '../support/sign-in';
import { auth, eventsOf, freshIpv4, safariOnIphone, signInFrom, states } from './support';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const newPassword = 'Lantern-Orbit-47#';

async function member() {
  const tenant = await insertTenant(ctx.services);
  return insertUserWithPassword(ctx.services, { tenants: [tenant] });
}

const change = (who: { accessToken: string }, body: object, ip = freshIpv4()) =>
  request(ctx.app)
    .post('/core/v1/users/password-change')
    .set(auth(who))
    .set('x-forwarded-for', ip)
    .set('user-agent', safariOnIphone)
    .send(body);

const passwordHashOf = async (userId: number) =>
  (await ctx.services.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow())
    .password_hash;

test('changes the password: the old one signs in no more, the new one does; the other sessions end, hers goes on', async () => {
  const user = await member();
  const current = await signInFrom(ctx, user.email);
  const others = [await signInFrom(ctx, user.email), await signInFrom(ctx, user.email)];
  const res = await change(current, { currentPassword: goodPassword, newPassword }, '198.51.100.20');
  expect(res.status).toBe(204);
  expect(await states(ctx, [current.id, ...others.map((s) => s.id)])).toEqual([
    'live',
    'password_changed',
    'password_changed',
  ]);
  expect((await request(ctx.app).get('/core/v1/sessions').set(auth(current))).status).toBe(200);
  expect((await passwordLogin(ctx, user.email, goodPassword, freshIpv4())).status).toBe(401);
  expect((await passwordLogin(ctx, user.email, newPassword, freshIpv4())).status).toBe(201);
  expect(await eventsOf(ctx, user.id)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ kind: 'password_changed', actor_type: 'self', network: '198.51.100.0/24' }),
      expect.objectContaining({ kind: 'sessions_ended', details: { count: 2, reason: 'password_changed' } }),
    ]),
  );
});

test('the email tells her in her language when and from which network, and what to do if it was not her', async () => {
  const user = await member();
  const current = await signInFrom(ctx, user.email);
  const res = await change(current, { currentPassword: goodPassword, newPassword }, '198.51.100.20').set(
    'accept-language',
    'sv',
  );
  expect(res.status).toBe(204);
  const mail = await latestOutboxMessage(ctx.services, user.email);
  expect(mail?.subject).toBe('Ditt lösenord har ändrats');
  expect(mail?.body).toContain('198.51.100.0/24');
  expect(mail?.body).toContain('Glömt lösenordet');
  expect(mail?.body).not.toContain('198.51.100.20');
  expect(mail?.body).not.toContain(newPassword);
});

describe('attack: a stolen access token without the password changes it', () => {
  test('a wrong current password answers 401 INVALID_CREDENTIALS: the password, the sessions, no event change', async () => {
    const user = await member();
    const victim = await signInFrom(ctx, user.email);
    const other = await signInFrom(ctx, user.email);
    const before = await passwordHashOf(user.id);
    const res = await change(victim, { currentPassword: 'Not-The-Password-1!', newPassword });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(await passwordHashOf(user.id)).toBe(before);
    expect(await states(ctx, [victim.id, other.id])).toEqual(['live', 'live']);
    expect((await eventsOf(ctx, user.id)).map((e) => e.kind)).not.toContain('password_changed');
    expect(await latestOutboxMessage(ctx.services, user.email)).toBeUndefined();
  });

  test('without a current password the contract refuses it (400) before anything is checked', async () => {
    const user = await member();
    const victim = await signInFrom(ctx, user.email);
    const before = await passwordHashOf(user.id);
    expect((await change(victim, { newPassword })).status).toBe(400);
    expect((await change(victim, { currentPassword: '', newPassword })).status).toBe(400);
    expect(await passwordHashOf(user.id)).toBe(before);
  });

  test('an account without a password (single sign-on) answers 401 INVALID_CREDENTIALS, and gets none', async () => {
    const tenant = await insertTenant(ctx.services);
    const user = await insertUser(ctx.services, { tenants: [tenant] });
    const session = await signIn(ctx.services, user.id, { oidc: 'verified' });
    const res = await change(session, { currentPassword: 'Anything-At-All-1!', newPassword });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(await passwordHashOf(user.id)).toBeNull();
  });
});

test('attack: a wrong current password guessing loop meets the sign-in lockout (429), and each guess counted as a failed sign-in', async () => {
  const user = await member();
  const victim = await signInFrom(ctx, user.email);
  const ip = freshIpv4();
  const answers: number[] = [];
  for (let i = 0; i < 8; i++)
    answers.push((await change(victim, { currentPassword: `Guess-Number-${i}!`, newPassword }, ip)).status);
  // As a password sign-in from one address meets it (sessions/lockouts.test.ts): the same counts, the same lock.
  expect(answers).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  // Locked: even the right password is not checked from there now, here or at sign-in.
  const right = await change(victim, { currentPassword: goodPassword, newPassword }, ip);
  expect(right.status).toBe(429);
  expect(right.body.error.unavailableUntil).toBeDefined();
  expect((await passwordLogin(ctx, user.email, goodPassword, ip)).status).toBe(429);
  expect(await states(ctx, [victim.id])).toEqual(['live']);
});

describe('the new password', () => {
  test('keeps the rules: each broken one is an issue with its rule name', async () => {
    const user = await member();
    const current = await signInFrom(ctx, user.email);
    const res = await change(current, { currentPassword: goodPassword, newPassword: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.error.issues.map((i: { rule: string }) => i.rule)).toEqual(
      expect.arrayContaining(['PASSWORD_TOO_SHORT', 'PASSWORD_MISSING_UPPERCASE', 'PASSWORD_MISSING_DIGIT']),
    );
  });

  test('is not too common or breached (PASSWORD_ON_BREACH_LIST), nor the current one (PASSWORD_UNCHANGED)', async () => {
    const user = await member();
    const current = await signInFrom(ctx, user.email);
    const before = await passwordHashOf(user.id);
    for (const [candidate, rule] of [
      ['Password123!', 'PASSWORD_ON_BREACH_LIST'],
      [goodPassword, 'PASSWORD_UNCHANGED'],
    ]) {
      const res = await change(current, { currentPassword: goodPassword, newPassword: candidate });
      expect(res.status).toBe(400);
      expect(res.body.error.issues).toEqual([expect.objectContaining({ path: '/newPassword', rule })]);
    }
    expect(await passwordHashOf(user.id)).toBe(before);
  });

  test('the list and the sameness are told only to whoever knows the current password', async () => {
    const user = await member();
    const current = await signInFrom(ctx, user.email);
    const res = await change(current, { currentPassword: 'Wrong-Password-9!', newPassword: 'Password123!' });
    expect(res.status).toBe(401);
  });
});
