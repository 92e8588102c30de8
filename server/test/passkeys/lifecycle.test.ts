// What happens to passkeys when their user is deactivated (SCIM), resets the password or is deleted.
import request from 'supertest';
import { purgePasskeyChallenges } from '../../src/jobs/housekeeping';
import { createPasswordToken } from '../../src/modules/passwords/passwords.service';
import { signIn, v1 } from '../support/fixtures';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import type { TestContext } from '../support/context';
import { bearer, enrol, signedInUser, signInWithPasskey } from '../support/passkeys';
import { entraUser, scim, scimKey } from '../support/scim-client';
import { goodPasswordHash } from '../support/sign-in';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createSsoTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const passkeysOf = (userId: number) =>
  ctx.services.db.selectFrom('passkeys').select('id').where('user_id', '=', userId).execute();

test('deactivated by the directory (SCIM): sessions end, the passkey stays but signs in no more; reactivated it does', async () => {
  const tenant = await ssoTenant(ctx.services, 'oidc');
  const directory = scim(ctx, await scimKey(ctx, tenant));
  const { body: provisioned } = await directory.post('/Users', entraUser(`passkey.user@${tenant.domain}`));
  const userId = Number(provisioned.id);
  const session = await signIn(ctx.services, userId, { password: 'verified' });
  const { res, authenticator } = await enrol(ctx, session);
  expect(res.status).toBe(201);
  const passkeySession = (await signInWithPasskey(ctx, authenticator)).body;

  const off = await directory.patch(`/Users/${userId}`, [{ op: 'replace', path: 'active', value: false }]);
  expect(off.status).toBe(200);
  for (const who of [session, passkeySession])
    expect((await request(ctx.app).get('/core/v1/passkeys').set(bearer(who))).status).toBe(401);
  expect(await passkeysOf(userId)).toHaveLength(1);
  expect((await signInWithPasskey(ctx, authenticator)).status).toBe(401);

  await directory.patch(`/Users/${userId}`, [{ op: 'replace', value: { active: true } }]);
  expect((await signInWithPasskey(ctx, authenticator)).status).toBe(201);
});

test('a password reset ends every session, passkey sessions too, and removes the passkeys', async () => {
  const who = await signedInUser(ctx, { passwordHash: await goodPasswordHash() });
  const { authenticator } = await enrol(ctx, who);
  const passkeySession = (await signInWithPasskey(ctx, authenticator)).body;
  const token = await createPasswordToken(ctx.services, who.userId, 'reset');
  const reset = await request(ctx.app)
    .post(`/core/v1/users/${who.userId}/password-reset`)
    .set(v1)
    .send({ token, newPassword: 'A-new-Password-42!' });
  expect(reset.status).toBe(204);
  for (const s of [who, passkeySession])
    expect((await request(ctx.app).get('/core/v1/passkeys').set(bearer(s))).status).toBe(401);
  expect(await passkeysOf(who.userId)).toEqual([]);
  expect((await signInWithPasskey(ctx, authenticator)).status).toBe(401);
});

test('deleting the user deletes their passkeys, challenges and passkey events', async () => {
  const who = await signedInUser(ctx);
  await enrol(ctx, who);
  await request(ctx.app).post('/core/v1/passkeys/registration-options').set(bearer(who));
  await ctx.services.db.deleteFrom('users').where('id', '=', who.userId).execute();
  expect(await passkeysOf(who.userId)).toEqual([]);
  for (const table of ['passkey_challenges', 'passkey_events'] as const)
    expect(
      await ctx.services.db.selectFrom(table).select('user_id').where('user_id', '=', who.userId).execute(),
    ).toEqual([]);
});

test('housekeeping removes passkey challenges that ran out, and keeps live ones', async () => {
  const now = new Date();
  await ctx.services.db
    .insertInto('passkey_challenges')
    .values([
      {
        challenge: 'expired-challenge',
        purpose: 'authentication',
        user_id: null,
        expires_at: new Date(now.getTime() - 1),
      },
      {
        challenge: 'live-challenge',
        purpose: 'authentication',
        user_id: null,
        expires_at: new Date(now.getTime() + 60_000),
      },
    ])
    .execute();
  expect(
    await purgePasskeyChallenges({ db: ctx.services.db, now, jobRetentionMs: 0, securityEventRetentionMs: 0 }),
  ).toBeGreaterThanOrEqual(1);
  const left = await ctx.services.db
    .selectFrom('passkey_challenges')
    .select('challenge')
    .where('challenge', 'in', ['expired-challenge', 'live-challenge'])
    .execute();
  expect(left).toEqual([{ challenge: 'live-challenge' }]);
});
