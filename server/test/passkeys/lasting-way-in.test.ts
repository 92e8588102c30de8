// Attacks on the ways out of a passkey the owner did not add: the password reset she is told to do must remove it,
// and the link in the notice of its addition must remove exactly it, once, and nothing else.
import request from 'supertest';
import { createPasswordToken } from '../../src/modules/passwords/passwords.service';
import { emailHash } from '../../src/security/hashing';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { goodPasswordHash, latestOutboxMessage } from '../support/sign-in';
import { enrol, freshAddress, signedInUser, signInWithPasskey } from '../support/passkeys';
import { SoftAuthenticator } from '../support/soft-authenticator';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const passkeysOf = (userId: number) =>
  ctx.services.db.selectFrom('passkeys').select(['id', 'name']).where('user_id', '=', userId).execute();

/** The token of the removal link in the notice of the latest passkey added for `email`. */
async function removalTokenFor(email: string): Promise<string> {
  const mail = await latestOutboxMessage(ctx.services, email);
  const link = /https?:\/\/\S+\/remove-passkey\?\S+/.exec(mail?.body ?? '')?.[0];
  expect(link).toBeDefined();
  // The sign-in app's page sends the token to the region the link names, and to no other.
  expect(new URL(link!).searchParams.get('region')).toBe(ctx.services.config.region);
  return new URL(link!).searchParams.get('token')!;
}

const removeByLink = (token: string) =>
  request(ctx.app).post('/core/v1/passkeys/removal').set(v1).set('x-forwarded-for', freshAddress()).send({ token });

describe('a passkey added with a stolen session outlives the password reset', () => {
  test("after the user resets her password the attacker's passkey no longer signs in, and the reset email says so", async () => {
    const victim = await signedInUser(ctx, { passwordHash: await goodPasswordHash() });
    // The attacker, with the victim's session while it was fresh, enrols his own authenticator.
    const attacker = new SoftAuthenticator();
    const { res } = await enrol(ctx, victim, attacker);
    expect(res.status).toBe(201);
    expect((await signInWithPasskey(ctx, attacker)).status).toBe(201);

    const asked = await request(ctx.app)
      .post('/core/v1/users/password-reset')
      .set(v1)
      .set('x-forwarded-for', freshAddress())
      .send({ emailHash: emailHash(victim.email) });
    expect(asked.status).toBe(202);
    let mail = await latestOutboxMessage(ctx.services, victim.email);
    for (let i = 0; i < 50 && !mail?.subject?.startsWith('Reset'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      mail = await latestOutboxMessage(ctx.services, victim.email);
    }
    expect(mail?.body).toContain('also removes every passkey');

    const token = await createPasswordToken(ctx.services, victim.userId, 'reset');
    const reset = await request(ctx.app)
      .post(`/core/v1/users/${victim.userId}/password-reset`)
      .set(v1)
      .send({ token, newPassword: 'A-new-Password-42!' });
    expect(reset.status).toBe(204);
    const refused = await signInWithPasskey(ctx, attacker);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(await passkeysOf(victim.userId)).toEqual([]);
    const events = await ctx.services.db
      .selectFrom('passkey_events')
      .select('kind')
      .where('user_id', '=', victim.userId)
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.kind)).toEqual(['added', 'removed']);
  });
});

describe('the removal link in the notice of an added passkey', () => {
  test('removes exactly that passkey, once: a replay, a made-up token and another passkey are left alone', async () => {
    const victim = await signedInUser(ctx);
    const own = await enrol(ctx, victim, new SoftAuthenticator(), { name: 'My phone' });
    expect(own.res.status).toBe(201);
    const ownToken = await removalTokenFor(victim.email);
    const attacker = new SoftAuthenticator();
    const added = await enrol(ctx, victim, attacker, { name: 'Not mine' });
    expect(added.res.status).toBe(201);
    const token = await removalTokenFor(victim.email);
    expect(token).not.toBe(ownToken);

    // Opening the link does nothing by itself: the app posts the token (a link scanner's GET removes nothing).
    expect((await request(ctx.app).get('/core/v1/passkeys/removal').set(v1)).status).toBe(405);
    expect(await passkeysOf(victim.userId)).toHaveLength(2);

    expect((await removeByLink(token)).status).toBe(204);
    expect((await signInWithPasskey(ctx, attacker)).status).toBe(401);
    expect((await passkeysOf(victim.userId)).map((p) => p.name)).toEqual(['My phone']);
    const notice = await latestOutboxMessage(ctx.services, victim.email);
    expect(notice?.subject).toBe('A passkey was removed from your account');
    expect(notice?.body).toContain('Not mine');

    const replay = await removeByLink(token);
    expect(replay.status).toBe(404);
    expect(replay.body.error.code).toBe('NOT_FOUND');
    const madeUp = await removeByLink('A'.repeat(43));
    expect(madeUp.status).toBe(404);
    expect((await removeByLink('not a token')).status).toBe(400);
    expect((await passkeysOf(victim.userId)).map((p) => p.name)).toEqual(['My phone']);
    expect((await signInWithPasskey(ctx, own.authenticator)).status).toBe(201);
  });
});
