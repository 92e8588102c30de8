// Attack: a stolen access token (15 minutes of a session whose credentials were proven long ago) is turned into a
// permanent way in: the attacker enrols his own passkey, renames or deletes the user's. Changing a factor needs a
// proof of the account's credentials within the last few minutes on this very session; a refresh is no proof.
import request from 'supertest';
import { emailHash } from '../../src/security/hashing';
import { lockoutKey } from '../../src/modules/sessions/lockout-keys';
import { reauthenticationWindowMs } from '../../src/modules/sessions';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { goodPassword, insertUserWithPassword, movableClock, refreshSession } from '../support/sign-in';
import {
  addPasskey,
  authenticationOptions,
  bearer,
  enrol,
  freshAddress,
  registrationOptions,
  userWithPasskey,
} from '../support/passkeys';
import { SoftAuthenticator } from '../support/soft-authenticator';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now, env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const fifteenMinutes = 15 * 60_000;

const rename = (who: { accessToken: string }, id: string, name: string) =>
  request(ctx.app).patch(`/core/v1/passkeys/${id}`).set(bearer(who)).send({ name });
const remove = (who: { accessToken: string }, id: string) =>
  request(ctx.app).delete(`/core/v1/passkeys/${id}`).set(bearer(who));
const reauthenticate = (who: { id: string; accessToken: string }, body: object, ip = freshAddress()) =>
  request(ctx.app)
    .post(`/core/v1/sessions/${who.id}/reauthentication`)
    .set(bearer(who))
    .set('x-forwarded-for', ip)
    .send(body);

const expectReauthentication = (res: request.Response) => {
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe('REAUTHENTICATION_REQUIRED');
};

/** A member with a password (no second factor) signed in through the API: the session as answered. */
async function passwordSignIn() {
  const tenant = await insertTenant(ctx.services);
  const user = await insertUserWithPassword(ctx.services, { tenants: [tenant] });
  const res = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .set('x-forwarded-for', freshAddress())
    .send({ grantType: 'password', email: user.email, password: goodPassword });
  expect(res.status).toBe(201);
  return { user, session: res.body as { id: string; accessToken: string; refreshToken: string } };
}

describe('a stolen access token becomes a permanent passkey', () => {
  test('an access token whose session proved its credentials 15 minutes ago cannot enrol, rename or delete a passkey (401 REAUTHENTICATION_REQUIRED)', async () => {
    const victim = await userWithPasskey(ctx);
    // The options asked for while the proof was fresh do not carry over either.
    const early = await registrationOptions(ctx, victim);
    expect(early.status).toBe(201);
    clock.advance(fifteenMinutes);
    expectReauthentication(await registrationOptions(ctx, victim));
    expectReauthentication(await addPasskey(ctx, victim, { credential: new SoftAuthenticator().register(early.body) }));
    expectReauthentication(await rename(victim, victim.passkeyId, 'attacker'));
    expectReauthentication(await remove(victim, victim.passkeyId));
    const left = await ctx.services.db
      .selectFrom('passkeys')
      .select(['id', 'name'])
      .where('user_id', '=', victim.userId)
      .execute();
    expect(left).toHaveLength(1);
    expect(left[0].name).not.toBe('attacker');
    // Reading them stays open: only changes need the recent proof.
    expect((await request(ctx.app).get('/core/v1/passkeys').set(bearer(victim))).status).toBe(200);
  });

  test('a refresh is no proof: the refreshed tokens of an old sign-in are refused too', async () => {
    const { session } = await passwordSignIn();
    clock.advance(fifteenMinutes);
    const refreshed = await refreshSession(ctx, session.id, session.refreshToken);
    expect(refreshed.status).toBe(200);
    expectReauthentication(await registrationOptions(ctx, refreshed.body));
  });

  test('right after a sign-in (the sign-in app’s offer) the proof is fresh, and it lasts the window, not a moment more', async () => {
    const { session } = await passwordSignIn();
    const { res } = await enrol(ctx, session);
    expect(res.status).toBe(201);
    clock.advance(reauthenticationWindowMs - 1000);
    expect((await rename(session, res.body.id, 'Phone')).status).toBe(200);
    clock.advance(2000);
    expectReauthentication(await rename(session, res.body.id, 'Phone again'));
  });
});

describe('re-authenticating on the current session', () => {
  test('the password proves the session again: changes are allowed for the window', async () => {
    const { session } = await passwordSignIn();
    clock.advance(fifteenMinutes);
    expectReauthentication(await registrationOptions(ctx, session));
    const res = await reauthenticate(session, { password: goodPassword });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.validUntil) - Date.parse(res.body.provenAt)).toBe(reauthenticationWindowMs);
    const { res: added } = await enrol(ctx, session);
    expect(added.status).toBe(201);
  });

  test('a wrong password is refused (401 INVALID_CREDENTIALS) and counts like a failed sign-in', async () => {
    const { user, session } = await passwordSignIn();
    clock.advance(fifteenMinutes);
    const ip = freshAddress();
    const res = await reauthenticate(session, { password: 'not-the-password' }, ip);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    const counted = await ctx.services.db
      .selectFrom('throttles')
      .select('count')
      .where('key', '=', lockoutKey.pair(emailHash(user.email), ip))
      .executeTakeFirst();
    expect(counted?.count).toBe(1);
    expectReauthentication(await registrationOptions(ctx, session));
    // Locked like a sign-in: past the pair's free failures the right password waits too.
    for (let i = 0; i < 5; i++) await reauthenticate(session, { password: 'not-the-password' }, ip);
    const locked = await reauthenticate(session, { password: goodPassword }, ip);
    expect(locked.status).toBe(429);
  });

  test("the user's own passkey proves the session again; another user's does not", async () => {
    const victim = await userWithPasskey(ctx);
    const stranger = await userWithPasskey(ctx);
    clock.advance(fifteenMinutes);
    const session = { id: victim.sessionId, accessToken: victim.accessToken };
    const foreign = await authenticationOptions(ctx);
    const refused = await reauthenticate(session, {
      passkey: stranger.authenticator.authenticate(foreign.body),
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('INVALID_CREDENTIALS');
    expectReauthentication(await rename(victim, victim.passkeyId, 'Laptop'));
    const options = await authenticationOptions(ctx);
    const res = await reauthenticate(session, { passkey: victim.authenticator.authenticate(options.body) });
    expect(res.status).toBe(200);
    expect((await rename(victim, victim.passkeyId, 'Laptop')).status).toBe(200);
  });
});
