import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { movableClock } from '../support/sign-in';
import { authenticationOptions, bearer, passkeyGrant, signInWithPasskey, userWithPasskey } from '../support/passkeys';
import { handleOf, joinChallenges, SoftAuthenticator } from '../support/soft-authenticator';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now, env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const refused = (res: request.Response) => {
  expect(res.status).toBe(401);
  expect(res.body.error).toEqual({
    httpStatus: 401,
    code: 'INVALID_CREDENTIALS',
    message: 'The passkey could not be verified',
  });
};

describe('POST /core/v1/passkeys/authentication-options', () => {
  test('answers the same shape to everyone: a new 32-byte challenge, user verification required, no credentials named', async () => {
    const a = await authenticationOptions(ctx);
    const b = await authenticationOptions(ctx);
    for (const res of [a, b]) {
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(['challenge', 'rpId', 'timeout', 'userVerification']);
      expect(res.body).toMatchObject({ rpId: 'localhost', timeout: 300_000, userVerification: 'required' });
      expect(Buffer.from(res.body.challenge, 'base64url')).toHaveLength(32);
    }
    expect(a.body.challenge).not.toBe(b.body.challenge);
  });

  test('at most 60 a minute per client address (429 with Retry-After)', async () => {
    for (let i = 0; i < 60; i++) expect((await authenticationOptions(ctx, '10.9.0.1')).status).toBe(201);
    const res = await authenticationOptions(ctx, '10.9.0.1');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await authenticationOptions(ctx, '10.9.0.2')).status).toBe(201);
  });
});

describe('POST /core/v1/sessions { grantType: passkey }', () => {
  test.each(['ES256', 'EdDSA'] as const)(
    'a %s passkey signs in alone: factors { passkey: verified }, a session that refreshes, the use noted',
    async (algorithm) => {
      const user = await userWithPasskey(ctx, algorithm);
      const res = await signInWithPasskey(ctx, user.authenticator);
      expect(res.status).toBe(201);
      expect(res.body.factors).toEqual({ passkey: 'verified' });
      const me = await request(ctx.app).get('/core/v1/passkeys').set(bearer(res.body));
      expect(me.status).toBe(200);
      const usedAt = new Date(me.body.data[0].lastUsedAt).getTime();
      expect(clock.now().getTime() - usedAt).toBeGreaterThanOrEqual(0);
      expect(clock.now().getTime() - usedAt).toBeLessThan(5_000);
      const refreshed = await request(ctx.app)
        .put(`/core/v1/sessions/${res.body.id}`)
        .set(v1)
        .set('authorization', `Bearer ${res.body.refreshToken}`);
      expect(refreshed.status).toBe(200);
      const session = await ctx.services.db
        .selectFrom('sessions')
        .select('user_id')
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      expect(session.user_id).toBe(user.userId);
    },
  );

  test("accepts the challenges of several regions joined, in any position, when exactly one part is this region's", async () => {
    const user = await userWithPasskey(ctx);
    const other = Buffer.alloc(32, 7).toString('base64url');
    for (const order of ['first', 'last'] as const) {
      const mine = (await authenticationOptions(ctx)).body;
      const joined = order === 'first' ? joinChallenges(mine.challenge, other) : joinChallenges(other, mine.challenge);
      const res = await passkeyGrant(ctx, user.authenticator.authenticate(mine, { challenge: joined }));
      expect(res.status).toBe(201);
    }
  });

  test('two live parts of this region in one challenge are refused (401), and both are used up', async () => {
    const user = await userWithPasskey(ctx);
    const a = (await authenticationOptions(ctx)).body;
    const b = (await authenticationOptions(ctx)).body;
    refused(
      await passkeyGrant(
        ctx,
        user.authenticator.authenticate(a, { challenge: joinChallenges(a.challenge, b.challenge) }),
      ),
    );
    const again = await passkeyGrant(ctx, user.authenticator.authenticate(a));
    expect(again.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
  });

  test('a challenge that is not whole 32-byte parts is refused (401)', async () => {
    const user = await userWithPasskey(ctx);
    const options = (await authenticationOptions(ctx)).body;
    refused(await passkeyGrant(ctx, user.authenticator.authenticate(options, { challenge: `${options.challenge}AA` })));
  });

  test('a replayed challenge answers 400 PASSKEY_CHALLENGE_EXPIRED: used up by its first use', async () => {
    const user = await userWithPasskey(ctx);
    const options = (await authenticationOptions(ctx)).body;
    const first = user.authenticator.authenticate(options);
    expect((await passkeyGrant(ctx, first)).status).toBe(201);
    const replay = await passkeyGrant(ctx, first);
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
    const fresh = await passkeyGrant(ctx, user.authenticator.authenticate(options));
    expect(fresh.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
  });

  test('the same assertion sent twice at once signs in once: the challenge is taken by one of them', async () => {
    const user = await userWithPasskey(ctx);
    const credential = user.authenticator.authenticate((await authenticationOptions(ctx)).body);
    const answers = await Promise.all([passkeyGrant(ctx, credential), passkeyGrant(ctx, credential)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
  });

  test('a challenge is used up by a failed attempt too', async () => {
    const user = await userWithPasskey(ctx);
    const options = (await authenticationOptions(ctx)).body;
    refused(await passkeyGrant(ctx, user.authenticator.authenticate(options, { uv: false })));
    const res = await passkeyGrant(ctx, user.authenticator.authenticate(options));
    expect(res.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
  });

  test('a challenge older than 5 minutes answers 400 PASSKEY_CHALLENGE_EXPIRED', async () => {
    const user = await userWithPasskey(ctx);
    const options = (await authenticationOptions(ctx)).body;
    clock.advance(5 * 60_000 + 1);
    const res = await passkeyGrant(ctx, user.authenticator.authenticate(options));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
  });

  test.each([
    ['from an origin that is not the sign-in app', { origin: 'https://evil.example' }],
    ['for another relying party id', { rpId: 'evil.example' }],
    ['without user verification', { uv: false }],
    ['without user presence', { up: false }],
    ['of the registration ceremony', { type: 'webauthn.create' }],
  ])('an assertion %s answers 401 INVALID_CREDENTIALS', async (_what, bad) => {
    const user = await userWithPasskey(ctx);
    refused(await signInWithPasskey(ctx, user.authenticator, bad));
  });

  test('a signature by another key answers 401 INVALID_CREDENTIALS', async () => {
    const user = await userWithPasskey(ctx);
    const options = (await authenticationOptions(ctx)).body;
    const impostor = new SoftAuthenticator();
    const forged = impostor.authenticate(options, { userHandle: handleOf('eu-north-1', user.userId) });
    refused(await passkeyGrant(ctx, { ...forged, id: user.authenticator.id, rawId: user.authenticator.id }));
  });

  test("enumeration: an unknown credential, a handle of another region, another user's handle and no handle answer the same 401", async () => {
    const user = await userWithPasskey(ctx);
    const someoneElse = await userWithPasskey(ctx);
    refused(await signInWithPasskey(ctx, new SoftAuthenticator(), { userHandle: handleOf('eu-north-1', user.userId) }));
    refused(await signInWithPasskey(ctx, user.authenticator, { userHandle: handleOf('sa-east-1', user.userId) }));
    refused(
      await signInWithPasskey(ctx, user.authenticator, { userHandle: handleOf('eu-north-1', someoneElse.userId) }),
    );
    refused(await signInWithPasskey(ctx, user.authenticator, { userHandle: null }));
    refused(
      await signInWithPasskey(ctx, user.authenticator, { userHandle: Buffer.from('garbage').toString('base64url') }),
    );
    expect((await signInWithPasskey(ctx, user.authenticator)).status).toBe(201);
  });

  test('a counter that goes backwards marks the passkey suspicious, refuses it from then on, and logs a warning', async () => {
    const user = await userWithPasskey(ctx);
    expect((await signInWithPasskey(ctx, user.authenticator, { counter: 10 })).status).toBe(201);
    refused(await signInWithPasskey(ctx, user.authenticator, { counter: 10 }));
    const row = await ctx.services.db
      .selectFrom('passkeys')
      .select(['suspicious_at', 'counter'])
      .where('id', '=', user.passkeyId)
      .executeTakeFirstOrThrow();
    expect(row.suspicious_at).not.toBeNull();
    expect(Number(row.counter)).toBe(10);
    expect(ctx.logs.some((line) => line.includes('"level":40') && line.includes('marked suspicious'))).toBe(true);
    refused(await signInWithPasskey(ctx, user.authenticator, { counter: 50 }));
    const listed = await request(ctx.app).get('/core/v1/passkeys').set(bearer(user));
    expect(listed.body.data[0].suspicious).toBe(true);
    const events = await ctx.services.db
      .selectFrom('passkey_events')
      .select('kind')
      .where('passkey_id', '=', user.passkeyId)
      .execute();
    expect(events.map((e) => e.kind)).toContain('suspicious');
  });

  test("a forged assertion with a low counter cannot mark someone's passkey suspicious", async () => {
    const user = await userWithPasskey(ctx);
    expect((await signInWithPasskey(ctx, user.authenticator, { counter: 10 })).status).toBe(201);
    const options = (await authenticationOptions(ctx)).body;
    const forged = new SoftAuthenticator().authenticate(options, {
      counter: 1,
      userHandle: handleOf('eu-north-1', user.userId),
    });
    refused(await passkeyGrant(ctx, { ...forged, id: user.authenticator.id, rawId: user.authenticator.id }));
    expect((await signInWithPasskey(ctx, user.authenticator, { counter: 11 })).status).toBe(201);
  });

  test('an authenticator without a counter (always 0) signs in again and again', async () => {
    const user = await userWithPasskey(ctx);
    user.authenticator.counter = 0;
    expect((await signInWithPasskey(ctx, user.authenticator)).status).toBe(201);
    expect((await signInWithPasskey(ctx, user.authenticator)).status).toBe(201);
  });

  test('a deleted passkey signs in no more (401)', async () => {
    const user = await userWithPasskey(ctx);
    expect((await request(ctx.app).delete(`/core/v1/passkeys/${user.passkeyId}`).set(bearer(user))).status).toBe(204);
    refused(await signInWithPasskey(ctx, user.authenticator));
  });

  test('a deactivated user signs in no more (401); the passkey stays', async () => {
    const user = await userWithPasskey(ctx);
    await ctx.services.db
      .updateTable('users')
      .set({ deactivated_at: clock.now() })
      .where('id', '=', user.userId)
      .execute();
    refused(await signInWithPasskey(ctx, user.authenticator));
    const kept = await ctx.services.db.selectFrom('passkeys').select('id').where('id', '=', user.passkeyId).execute();
    expect(kept).toHaveLength(1);
  });

  test('failures count against the client address like other sign-ins: after 21 within an hour it answers 429', async () => {
    const user = await userWithPasskey(ctx);
    const ip = '10.77.0.1';
    for (let i = 0; i < 21; i++) {
      const options = (await authenticationOptions(ctx, ip)).body;
      const res = await passkeyGrant(ctx, user.authenticator.authenticate(options, { uv: false }), ip);
      expect(res.status).toBe(401);
    }
    const options = (await authenticationOptions(ctx, ip)).body;
    const locked = await passkeyGrant(ctx, user.authenticator.authenticate(options), ip);
    expect(locked.status).toBe(429);
    expect(locked.body.error.unavailableUntil).toBeDefined();
  });

  test('attack: 21 bad assertions from anyone behind an address keep out no one who signed in from there before', async () => {
    const victim = await userWithPasskey(ctx);
    const stranger = await userWithPasskey(ctx);
    const ip = '10.79.0.1';
    const signIn = async (who: typeof victim, opts: { uv?: boolean } = {}) =>
      passkeyGrant(ctx, who.authenticator.authenticate((await authenticationOptions(ctx, ip)).body, opts), ip);
    expect((await signIn(victim)).status).toBe(201);
    for (let i = 0; i < 21; i++) expect((await signIn(stranger, { uv: false })).status).toBe(401);
    expect((await signIn(stranger, { uv: false })).status).toBe(429);
    // The user the address is familiar to: her verified passkey goes through the lock.
    const again = await signIn(victim);
    expect(again.status).toBe(201);
    expect(again.body.factors).toEqual({ passkey: 'verified' });
    // Anyone else there stays held by it until it ends, verified or not.
    const other = await signIn(stranger);
    expect(other.status).toBe(429);
    expect(other.body.error.unavailableUntil).toBeDefined();
  });

  test("a success gives the address its attempt back, ends the account's failures and makes the address familiar", async () => {
    const user = await userWithPasskey(ctx);
    const ip = '10.78.0.1';
    const options = (await authenticationOptions(ctx, ip)).body;
    expect((await passkeyGrant(ctx, user.authenticator.authenticate(options), ip)).status).toBe(201);
    const address = await ctx.services.db
      .selectFrom('throttles')
      .select('count')
      .where('key', '=', `login:address:${ip}`)
      .executeTakeFirst();
    expect(Number(address?.count ?? 0)).toBe(0);
    const familiar = await ctx.services.db
      .selectFrom('sign_in_sources')
      .innerJoin('users', 'users.email_hash', 'sign_in_sources.email_hash')
      .select('sign_in_sources.last_seen_at')
      .where('users.id', '=', user.userId)
      .execute();
    expect(familiar).toHaveLength(1);
  });

  test('passkey sign-ins are counted in the metrics by grant type and outcome', async () => {
    const series = (text: string, name: string) =>
      Number(
        text
          .split('\n')
          .find((line) => line.startsWith(`${name} `))
          ?.slice(name.length + 1) ?? 0,
      );
    const ok = 'core_sign_in_total{method="passkey",outcome="success"}';
    const bad = 'core_sign_in_total{method="passkey",outcome="invalid_credentials"}';
    const before = (await request(ctx.app).get('/metrics').expect(200)).text;
    const user = await userWithPasskey(ctx);
    expect((await signInWithPasskey(ctx, user.authenticator)).status).toBe(201);
    refused(await signInWithPasskey(ctx, user.authenticator, { uv: false }));
    const after = (await request(ctx.app).get('/metrics').expect(200)).text;
    expect(series(after, ok) - series(before, ok)).toBe(1);
    expect(series(after, bad) - series(before, bad)).toBe(1);
  });

  test("cosafe-grant-type must say the body's grant (400 BAD_REQUEST otherwise)", async () => {
    const user = await userWithPasskey(ctx);
    const options = (await authenticationOptions(ctx)).body;
    const credential = user.authenticator.authenticate(options);
    const wrong = await passkeyGrant(ctx, credential).set('cosafe-grant-type', 'password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.issues).toEqual([expect.objectContaining({ where: 'header', path: 'cosafe-grant-type' })]);
    const right = await passkeyGrant(ctx, credential).set('cosafe-grant-type', 'passkey');
    expect(right.status).toBe(201);
  });

  test('a body that is not an assertion answers 400 BAD_REQUEST, never 500', async () => {
    for (const credential of [
      {},
      { id: 'x' },
      'text',
      { id: 'a'.repeat(20), rawId: 'a'.repeat(20), type: 'public-key' },
    ]) {
      const res = await passkeyGrant(ctx, credential as object);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
  });
});
