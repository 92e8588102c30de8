import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { latestOutboxMessage, movableClock } from '../support/sign-in';
import { addPasskey, bearer, enrol, registrationOptions, signedInUser } from '../support/passkeys';
import { SoftAuthenticator } from '../support/soft-authenticator';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
});
afterAll(() => ctx.close());

const googlePasswordManager = 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4';

describe('POST /core/v1/passkeys/registration-options', () => {
  test("answers creation options: the region and user as user handle, a discoverable credential and user verification required, the user's passkeys excluded", async () => {
    const who = await signedInUser(ctx, { name: 'Anna Andersson' });
    const first = await registrationOptions(ctx, who);
    expect(first.status).toBe(201);
    expect(first.body.rp).toEqual({ name: 'CoSafe', id: 'localhost' });
    expect(Buffer.from(first.body.user.id, 'base64url').toString()).toBe(`eu-north-1:${who.userId}`);
    expect(first.body.user).toMatchObject({ name: who.email, displayName: 'Anna Andersson' });
    expect(Buffer.from(first.body.challenge, 'base64url')).toHaveLength(32);
    expect(first.body.authenticatorSelection).toEqual({
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    });
    expect(first.body.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-8, -7, -257]);
    expect(first.body.excludeCredentials).toEqual([]);
    const { authenticator } = await enrol(ctx, who);
    const second = await registrationOptions(ctx, who);
    expect(second.body.excludeCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal', 'hybrid'] },
    ]);
    expect(second.body.challenge).not.toBe(first.body.challenge);
  });

  test('a session of a coAlert code or of single sign-on may not add a passkey (403 FORBIDDEN)', async () => {
    const sessions: Record<string, 'verified'>[] = [
      { coalert: 'verified' },
      { oidc: 'verified' },
      { saml: 'verified' },
    ];
    for (const factors of sessions) {
      const who = await signedInUser(ctx, { factors });
      const res = await registrationOptions(ctx, who);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  test('a session waiting for its second factor may not (403) and without a token it answers 401', async () => {
    const pending = await signedInUser(ctx, { factors: { password: 'verified', otpEmail: 'unverified' } });
    expect((await registrationOptions(ctx, pending)).status).toBe(403);
    const anonymous = await request(ctx.app)
      .post('/core/v1/passkeys/registration-options')
      .set(bearer({ accessToken: '' }));
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /core/v1/passkeys', () => {
  test.each(['ES256', 'EdDSA'] as const)(
    "registers a %s passkey: stored with its public key, listed, the addition audited and emailed in the user's language",
    async (algorithm) => {
      const who = await signedInUser(ctx);
      await ctx.services.db
        .insertInto('user_settings')
        .values({
          user_id: who.userId,
          preferred_language: 'sv',
          receive_emails: true,
          notify_checklists: true,
          notify_documents: true,
        })
        .execute();
      const { res, authenticator } = await enrol(ctx, who, new SoftAuthenticator(algorithm), {
        name: '  Min telefon ',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Min telefon',
        createdAt: expect.any(String),
        lastUsedAt: null,
        authenticator: null,
        suspicious: false,
      });
      const row = await ctx.services.db
        .selectFrom('passkeys')
        .selectAll()
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      expect(row.user_id).toBe(who.userId);
      expect(row.credential_id).toBe(authenticator.id);
      expect(Buffer.from(row.public_key)).toEqual(authenticator.cosePublicKey());
      const events = await ctx.services.db
        .selectFrom('passkey_events')
        .selectAll()
        .where('user_id', '=', who.userId)
        .execute();
      expect(events).toEqual([
        expect.objectContaining({ passkey_id: res.body.id, kind: 'added', session_id: who.sessionId }),
      ]);
      const mail = await latestOutboxMessage(ctx.services, who.email);
      expect(mail?.subject).toBe('En lösennyckel har lagts till på ditt konto');
      expect(mail?.body).toContain('Min telefon');
    },
  );

  test('names the passkey after its authenticator where the AAGUID is known', async () => {
    const who = await signedInUser(ctx);
    const { res } = await enrol(ctx, who, new SoftAuthenticator('ES256', { aaguid: googlePasswordManager }));
    expect(res.body).toMatchObject({ name: 'Google Password Manager', authenticator: 'Google Password Manager' });
  });

  test('the challenge is single use: the same answer again answers 400 PASSKEY_CHALLENGE_EXPIRED', async () => {
    const who = await signedInUser(ctx);
    const options = await registrationOptions(ctx, who);
    const credential = new SoftAuthenticator().register(options.body);
    expect((await addPasskey(ctx, who, { credential })).status).toBe(201);
    const replay = await addPasskey(ctx, who, { credential });
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
  });

  test('a challenge older than 5 minutes answers 400 PASSKEY_CHALLENGE_EXPIRED', async () => {
    const who = await signedInUser(ctx);
    const options = await registrationOptions(ctx, who);
    clock.advance(5 * 60_000 + 1);
    // The session proved itself again meanwhile (the window of a recent proof is not what this is about).
    await ctx.services.db
      .updateTable('sessions')
      .set({ proven_at: clock.now() })
      .where('id', '=', who.sessionId)
      .execute();
    const res = await addPasskey(ctx, who, { credential: new SoftAuthenticator().register(options.body) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
  });

  test("another user's challenge is not the caller's: 400 PASSKEY_CHALLENGE_EXPIRED, and it stays the other's", async () => {
    const owner = await signedInUser(ctx);
    const thief = await signedInUser(ctx);
    const options = await registrationOptions(ctx, owner);
    const res = await addPasskey(ctx, thief, { credential: new SoftAuthenticator().register(options.body) });
    expect(res.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
    expect((await addPasskey(ctx, owner, { credential: new SoftAuthenticator().register(options.body) })).status).toBe(
      201,
    );
  });

  test.each([
    ['from an origin that is not the sign-in app', { origin: 'https://evil.example' }],
    ['for another relying party id', { rpId: 'evil.example' }],
    ['without user verification', { uv: false }],
    ['without user presence', { up: false }],
    ['of another ceremony type', { type: 'webauthn.get' }],
  ])(
    'an answer %s answers 400 PASSKEY_REGISTRATION_FAILED and stores nothing; the challenge is used up',
    async (_what, bad) => {
      const who = await signedInUser(ctx);
      const options = await registrationOptions(ctx, who);
      const res = await addPasskey(ctx, who, { credential: new SoftAuthenticator().register(options.body, bad) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('PASSKEY_REGISTRATION_FAILED');
      const stored = await ctx.services.db
        .selectFrom('passkeys')
        .select('id')
        .where('user_id', '=', who.userId)
        .execute();
      expect(stored).toEqual([]);
      const again = await addPasskey(ctx, who, { credential: new SoftAuthenticator().register(options.body) });
      expect(again.body.error.code).toBe('PASSKEY_CHALLENGE_EXPIRED');
    },
  );

  test('a credential registered before (by anyone) is refused: 400 PASSKEY_REGISTRATION_FAILED', async () => {
    const first = await signedInUser(ctx);
    const { authenticator } = await enrol(ctx, first);
    const second = await signedInUser(ctx);
    const options = await registrationOptions(ctx, second);
    const res = await addPasskey(ctx, second, { credential: authenticator.register(options.body) });
    expect(res.body.error.code).toBe('PASSKEY_REGISTRATION_FAILED');
  });

  test('an answer that is not WebAuthn JSON answers 400, never 500', async () => {
    const who = await signedInUser(ctx);
    const options = await registrationOptions(ctx, who);
    const good = new SoftAuthenticator().register(options.body);
    for (const credential of [
      { ...good, response: { ...good.response, clientDataJSON: 'bm90LWpzb24' } },
      { ...good, response: { ...good.response, attestationObject: 'AAAA' } },
      { ...good, rawId: 'QUJDREVGR0hJSktMTU5PUA' },
    ]) {
      const res = await addPasskey(ctx, who, { credential });
      expect(res.status).toBe(400);
      expect(['PASSKEY_REGISTRATION_FAILED', 'PASSKEY_CHALLENGE_EXPIRED']).toContain(res.body.error.code);
    }
    expect((await addPasskey(ctx, who, { credential: { id: 'x' } })).body.error.code).toBe('BAD_REQUEST');
  });

  test('at most 10 per user: the 11th answers 409 LIMIT_REACHED, at the options and at the registration', async () => {
    const who = await signedInUser(ctx);
    const early = await registrationOptions(ctx, who);
    for (let i = 0; i < 10; i++) expect((await enrol(ctx, who)).res.status).toBe(201);
    const options = await registrationOptions(ctx, who);
    expect(options.status).toBe(409);
    expect(options.body.error.code).toBe('LIMIT_REACHED');
    const late = await addPasskey(ctx, who, { credential: new SoftAuthenticator().register(early.body) });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('LIMIT_REACHED');
  });
});

describe('GET, PATCH and DELETE /core/v1/passkeys', () => {
  test("lists the caller's passkeys only, newest first, in the paging envelope", async () => {
    const who = await signedInUser(ctx);
    const other = await signedInUser(ctx);
    await enrol(ctx, other);
    const a = (await enrol(ctx, who, undefined, { name: 'First' })).res.body;
    clock.advance(1000);
    const b = (await enrol(ctx, who, undefined, { name: 'Second' })).res.body;
    const res = await request(ctx.app).get('/core/v1/passkeys').set(bearer(who));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [b, a], pagination: { totalCount: 2, offset: 0, limit: 10 } });
    const page = await request(ctx.app).get('/core/v1/passkeys?limit=1&offset=1').set(bearer(who));
    expect(page.body).toEqual({ data: [a], pagination: { totalCount: 2, offset: 1, limit: 1 } });
  });

  test("renames the caller's passkey; another user's or an unknown one answers 404 NOT_FOUND", async () => {
    const who = await signedInUser(ctx);
    const other = await signedInUser(ctx);
    const mine = (await enrol(ctx, who)).res.body;
    const renamed = await request(ctx.app)
      .patch(`/core/v1/passkeys/${mine.id}`)
      .set(bearer(who))
      .send({ name: 'Work laptop' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...mine, name: 'Work laptop' });
    const theirs = await request(ctx.app)
      .patch(`/core/v1/passkeys/${mine.id}`)
      .set(bearer(other))
      .send({ name: 'Mine now' });
    expect(theirs.status).toBe(404);
    const blank = await request(ctx.app).patch(`/core/v1/passkeys/${mine.id}`).set(bearer(who)).send({ name: '   ' });
    expect(blank.status).toBe(400);
    const bad = await request(ctx.app).patch('/core/v1/passkeys/not-a-uuid').set(bearer(who)).send({ name: 'x' });
    expect(bad.status).toBe(400);
  });

  test("deletes the caller's passkey: audited and emailed; another user's answers 404 and stays", async () => {
    const who = await signedInUser(ctx);
    const other = await signedInUser(ctx);
    const mine = (await enrol(ctx, who, undefined, { name: 'Old phone' })).res.body;
    expect((await request(ctx.app).delete(`/core/v1/passkeys/${mine.id}`).set(bearer(other))).status).toBe(404);
    const res = await request(ctx.app)
      .delete(`/core/v1/passkeys/${mine.id}`)
      .set(bearer(who))
      .set('accept-language', 'en');
    expect(res.status).toBe(204);
    expect(await ctx.services.db.selectFrom('passkeys').select('id').where('id', '=', mine.id).execute()).toEqual([]);
    const events = await ctx.services.db
      .selectFrom('passkey_events')
      .select('kind')
      .where('passkey_id', '=', mine.id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.kind)).toEqual(['added', 'removed']);
    const mail = await latestOutboxMessage(ctx.services, who.email);
    expect(mail?.subject).toBe('A passkey was removed from your account');
    expect(mail?.body).toContain('Old phone');
    expect((await request(ctx.app).delete(`/core/v1/passkeys/${mine.id}`).set(bearer(who))).status).toBe(404);
  });
});
