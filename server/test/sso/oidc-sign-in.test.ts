import request from 'supertest';
import type { TestContext } from '../support/context';
import { insertTenant, insertUser, v1 } from '../support/fixtures';
import { movableClock } from '../support/sign-in';
import { challengeLifetimeMs } from '../../src/modules/sso/sso-sessions';
import {
  challenge,
  createSsoTestContext,
  pkce,
  putOidcSettings,
  ssoPage,
  ssoSession,
  ssoTenant,
  tenantsAs,
  verify,
} from '../support/enterprise-fixtures';
import { startOidcPeer, startTamperingProxy, type IdTokenAlg, type OidcPeer } from '../support/oidc-peer';

let ctx: TestContext;
let peer: OidcPeer;
const clock = movableClock();

beforeAll(async () => {
  peer = await startOidcPeer({ redirectUris: [ssoPage] });
  ctx = await createSsoTestContext({ now: clock.now });
});
afterAll(async () => {
  await ctx.close();
  await peer.close();
});

/** Whom a session belongs to and what it has proven, as stored. */
const sessionRow = (id: string) =>
  ctx.services.db.selectFrom('sessions').select(['user_id', 'factors']).where('id', '=', id).executeTakeFirstOrThrow();

async function oidcTenant(tokenEndpoint?: string, provider: OidcPeer = peer) {
  const tenant = await ssoTenant(ctx.services, 'oidc');
  const { userInfoEndpoint: _, ...endpoints } = provider.endpoints;
  const res = await putOidcSettings(ctx, tenant, {
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    ...endpoints,
    tokenEndpoint: tokenEndpoint ?? provider.endpoints.tokenEndpoint,
  });
  expect(res.status).toBe(200);
  return tenant;
}

/** Session, challenge and the provider's login: everything before PATCH /sessions/{id}. */
async function signInAtProvider(
  email: string,
  options: { asAtProvider?: string; state?: string; provider?: OidcPeer } = {},
) {
  const provider = options.provider ?? peer;
  const session = await ssoSession(ctx, email);
  const { verifier, challenge: codeChallenge } = pkce();
  const state = options.state ?? `state-${Math.random().toString(36).slice(2)}`;
  const started = await challenge(ctx, session, {
    oidc: { codeChallenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state },
  });
  expect(started.status).toBe(201);
  provider.signInAs(options.asAtProvider ?? email);
  const { code } = await provider.authorize(started.body.authorizationUrl);
  return { session, verifier, state, code, authorizationUrl: new URL(started.body.authorizationUrl) };
}

describe('GET /core/v1/probes/idpDomain/{idpDomain}', () => {
  test('answers the protocol of a domain that signs in with SSO here, case-insensitively', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const res = await request(ctx.app).get(`/core/v1/probes/idpDomain/${tenant.domain.toUpperCase()}`).set(v1);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ region: 'eu-north-1', baseUrl: 'http://127.0.0.1:4000', available: true, type: 'oidc' });
  });

  test('a domain without SSO here answers available false and type null', async () => {
    const res = await request(ctx.app).get('/core/v1/probes/idpDomain/nowhere.example').set(v1);
    expect(res.body).toMatchObject({ available: false, type: null });
  });
});

describe('OIDC sign-in with PKCE against a real OpenID Provider', () => {
  test('grant sso → challenge → login at the provider → verify: the oidc factor is verified with fresh tokens', async () => {
    const tenant = await oidcTenant();
    const { session, verifier, state, code, authorizationUrl } = await signInAtProvider(tenant.user.email);
    expect(session.factors).toEqual({ oidc: 'unverified' });
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(peer.endpoints.authorizationEndpoint);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      client_id: peer.clientId,
      code_challenge_method: 'S256',
      redirect_uri: ssoPage,
      state,
      response_type: 'code',
    });
    expect(authorizationUrl.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect((await tenantsAs(ctx, session.accessToken)).status).toBe(403);

    const userOf = async () =>
      (
        await ctx.services.db
          .selectFrom('sessions')
          .select('user_id')
          .where('id', '=', session.id)
          .executeTakeFirstOrThrow()
      ).user_id;
    // Bound to nobody until the provider answers.
    expect(await userOf()).toBeNull();

    const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: session.id, factors: { oidc: 'verified' } });
    expect(res.body.refreshToken).not.toBe(session.refreshToken);
    expect(await userOf()).toBe(tenant.user.id);
    // The pending session's token ends with the wait.
    expect((await tenantsAs(ctx, session.accessToken)).status).toBe(401);
    const tenants = await tenantsAs(ctx, res.body.accessToken);
    expect(tenants.status).toBe(200);
    expect(tenants.body.data.map((t: { id: number }) => t.id)).toEqual([tenant.tenantId]);
  });

  test('the identity the provider asserts decides the user: the session is bound to that member of the tenant', async () => {
    const tenant = await oidcTenant();
    const colleague = await insertUser(ctx.services, { email: `erik@${tenant.domain}`, tenants: [tenant.tenantId] });
    const { session, verifier, state, code } = await signInAtProvider(tenant.user.email, {
      asAtProvider: colleague.email,
    });
    const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(res.status).toBe(200);
    const row = await ctx.services.db
      .selectFrom('sessions')
      .select('user_id')
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(row.user_id).toBe(colleague.id);
  });

  test('an identity that is no member of the tenant answers 401 INVALID_CREDENTIALS', async () => {
    const tenant = await oidcTenant();
    const outsider = await insertUser(ctx.services, {
      email: `outsider@${tenant.domain}`,
      tenants: [await insertTenant(ctx.services)],
    });
    const { session, verifier, state, code } = await signInAtProvider(tenant.user.email, {
      asAtProvider: outsider.email,
    });
    const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'No account of this organisation matches the signed-in identity',
    });
  });

  test("an address outside the organisation's SSO domains answers 401 INVALID_SSO_ID_TOKEN", async () => {
    const tenant = await oidcTenant();
    const { session, verifier, state, code } = await signInAtProvider(tenant.user.email, {
      asAtProvider: 'anna@elsewhere.test',
    });
    const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_SSO_ID_TOKEN',
      message: "The identity provider asserted an address outside the organisation's single sign-on domains",
    });
  });

  test('an ID token whose payload was changed in transit to name a colleague answers 401 INVALID_SSO_ID_TOKEN', async () => {
    // The colleague is a member of the same organisation, so only the signature tells the token was changed.
    let colleague = '';
    const proxy = await startTamperingProxy(peer.endpoints.tokenEndpoint, (claims) => ({
      ...claims,
      email: colleague,
    }));
    try {
      const tenant = await oidcTenant(proxy.url);
      colleague = `admin@${tenant.domain}`;
      const { session, verifier, state, code } = await signInAtProvider(tenant.user.email);
      const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_SSO_ID_TOKEN');
      // An ID token check names no provider error, only the client's code for the check.
      expect(ctx.logs.map((line) => JSON.parse(line)).filter((line) => line.tenantId === tenant.tenantId)).toEqual([
        expect.objectContaining({
          level: 40,
          kind: 'oidc',
          msg: 'oidc sign-in refused: INVALID_SSO_ID_TOKEN',
          reason: 'OAUTH_INVALID_RESPONSE',
          detail: 'invalid response encountered',
        }),
      ]);
      expect(
        (
          await ctx.services.db
            .selectFrom('sessions')
            .select('factors')
            .where('id', '=', session.id)
            .executeTakeFirstOrThrow()
        ).factors,
      ).toEqual({ oidc: 'unverified' });
    } finally {
      await proxy.close();
    }
  });

  test('a token answer without an ID token answers 401 INVALID_SSO_ID_TOKEN and verifies nothing', async () => {
    const proxy = await startTamperingProxy(peer.endpoints.tokenEndpoint, () => null);
    try {
      const tenant = await oidcTenant(proxy.url);
      const { session, verifier, state, code } = await signInAtProvider(tenant.user.email);
      const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({
        code: 'INVALID_SSO_ID_TOKEN',
        message: "The identity provider's ID token is not valid",
      });
      expect(await sessionRow(session.id)).toEqual({ user_id: null, factors: { oidc: 'unverified' } });
    } finally {
      await proxy.close();
    }
  });

  test('through a proxy that changes nothing the same sign-in succeeds (the control of the test above)', async () => {
    const proxy = await startTamperingProxy(peer.endpoints.tokenEndpoint, (claims) => claims);
    try {
      const tenant = await oidcTenant(proxy.url);
      const { session, verifier, state, code } = await signInAtProvider(tenant.user.email);
      expect(
        (await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } })).status,
      ).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  test('a wrong state answers 400 AUTHORIZATION_CODE_NOT_FOUND', async () => {
    const tenant = await oidcTenant();
    const { session, verifier, code } = await signInAtProvider(tenant.user.email);
    const res = await verify(ctx, session, {
      oidc: { authorizationCode: code, codeVerifier: verifier, state: 'forged-state' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'AUTHORIZATION_CODE_NOT_FOUND',
      message: 'No sign-in with this state is pending for the session',
    });
  });

  test("a challenge that names another organisation than the session's is refused: 400 AUTHORIZATION_CODE_NOT_FOUND", async () => {
    // The API stores a challenge with its session's organisation only; a row naming another one (written by
    // anything else) must not complete the session's sign-in, even with a code and verifier that would.
    const tenant = await oidcTenant();
    const other = await oidcTenant();
    const { session, verifier, state, code } = await signInAtProvider(tenant.user.email);
    await ctx.services.db
      .updateTable('sso_challenges')
      .set({ tenant_id: other.tenantId })
      .where('session_id', '=', session.id)
      .execute();
    const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'AUTHORIZATION_CODE_NOT_FOUND',
      message: 'No sign-in with this state is pending for the session',
    });
    expect(
      await ctx.services.db
        .selectFrom('sessions')
        .select(['user_id', 'factors'])
        .where('id', '=', session.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ user_id: null, factors: { oidc: 'unverified' } });
  });

  test('an authorization code used twice is refused by the provider: 401 INVALID_SSO_AUTHORIZATION_CODE', async () => {
    const tenant = await oidcTenant();
    const first = await signInAtProvider(tenant.user.email, { state: 'shared-state' });
    expect(
      (
        await verify(ctx, first.session, {
          oidc: { authorizationCode: first.code, codeVerifier: first.verifier, state: 'shared-state' },
        })
      ).status,
    ).toBe(200);
    // A second sign-in with the same verifier and state replays the first code.
    const second = await ssoSession(ctx, tenant.user.email);
    const { createHash } = await import('node:crypto');
    const codeChallenge = createHash('sha256').update(first.verifier).digest('base64url');
    expect(
      (
        await challenge(ctx, second, {
          oidc: { codeChallenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state: 'shared-state' },
        })
      ).status,
    ).toBe(201);
    const res = await verify(ctx, second, {
      oidc: { authorizationCode: first.code, codeVerifier: first.verifier, state: 'shared-state' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_SSO_AUTHORIZATION_CODE',
      message: 'The identity provider did not accept the authorization code',
    });
    // Operators read the provider's own reason in the log.
    const refusals = ctx.logs
      .map((line) => JSON.parse(line))
      .filter((line) => line.tenantId === tenant.tenantId && line.kind === 'oidc');
    expect(refusals).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'oidc sign-in refused: INVALID_SSO_AUTHORIZATION_CODE',
        reason: 'invalid_grant',
        detail: 'server responded with an error in the response body',
      }),
    ]);
    expect(JSON.stringify(refusals)).not.toContain(first.code);
    expect(JSON.stringify(refusals)).not.toContain(first.verifier);
  });

  test('each challenge is answered once: a second answer answers 400 AUTHORIZATION_CODE_NOT_FOUND', async () => {
    const tenant = await oidcTenant();
    const { session, verifier, state, code } = await signInAtProvider(tenant.user.email);
    const wrongVerifier = pkce().verifier;
    // The provider checks PKCE as well; the verifier is refused here, before any request leaves for it.
    const sent = jest.spyOn(ctx.services.outbound, 'fetch');
    let bad: Awaited<ReturnType<typeof verify>>;
    try {
      bad = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: wrongVerifier, state } });
      expect(sent).not.toHaveBeenCalled();
    } finally {
      sent.mockRestore();
    }
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatchObject({
      code: 'INVALID_SSO_AUTHORIZATION_CODE',
      message: 'The code verifier does not match the code challenge',
    });
    const again = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(again.body.error.code).toBe('AUTHORIZATION_CODE_NOT_FOUND');
  });

  test.each([
    ['an email address it has not verified', { email_verified: false }],
    ['no email address at all', { email: undefined }],
  ])('an identity the provider asserts with %s answers 401 INVALID_SSO_ID_TOKEN', async (_, claims) => {
    const tenant = await oidcTenant();
    const session = await ssoSession(ctx, tenant.user.email);
    const { verifier, challenge: codeChallenge } = pkce();
    const state = `state-${Math.random().toString(36).slice(2)}`;
    const started = await challenge(ctx, session, {
      oidc: { codeChallenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state },
    });
    peer.signInAs(tenant.user.email, claims);
    const { code } = await peer.authorize(started.body.authorizationUrl);
    const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_SSO_ID_TOKEN',
      message: 'The identity provider did not assert a verified email',
    });
  });
});

describe('the instant a challenge expires', () => {
  afterEach(() => clock.hold());

  /** A sign-in at the provider started on a held clock, answered `ms` later. */
  async function answeredAfter(ms: number) {
    const tenant = await oidcTenant();
    const startedAt = clock.now();
    clock.hold(startedAt);
    const { session, verifier, state, code } = await signInAtProvider(tenant.user.email);
    clock.hold(new Date(startedAt.getTime() + ms));
    return verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
  }
  const expired = { code: 'SSO_CHALLENGE_EXPIRED', message: 'The sign-in took too long; start again' };

  test('answered at the very instant it expires (10 minutes), or later, answers 400 SSO_CHALLENGE_EXPIRED', async () => {
    for (const ms of [challengeLifetimeMs, challengeLifetimeMs + 60_000]) {
      const res = await answeredAfter(ms);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject(expired);
    }
  });

  test('answered a millisecond before it expires signs in', async () => {
    expect((await answeredAfter(challengeLifetimeMs - 1)).status).toBe(200);
  });
});

describe('the signature of the ID token', () => {
  /** A sign-in at a provider that signs ID tokens with `alg`: the answer of PATCH /sessions/{id}. */
  async function signInSignedWith(alg: IdTokenAlg) {
    const provider = await startOidcPeer({ redirectUris: [ssoPage], idTokenSigningAlg: alg });
    try {
      const tenant = await oidcTenant(undefined, provider);
      const { session, verifier, state, code } = await signInAtProvider(tenant.user.email, { provider });
      return await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    } finally {
      await provider.close();
    }
  }

  test.each<IdTokenAlg>(['RS256', 'PS256', 'ES256', 'EdDSA'])(
    "signed with %s by a key of the provider's JWKS, it signs in",
    async (alg) => {
      const res = await signInSignedWith(alg);
      expect(res.status).toBe(200);
      expect(res.body.factors).toEqual({ oidc: 'verified' });
    },
  );

  test('signed with HS256, by the client secret that this region holds as well, it answers 401 INVALID_SSO_ID_TOKEN', async () => {
    const res = await signInSignedWith('HS256');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SSO_ID_TOKEN');
  });
});

describe('OIDC configuration and request errors', () => {
  test('a tenant without OIDC settings answers 400 INVALID_SSO_CONFIGURATION at the challenge', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const session = await ssoSession(ctx, tenant.user.email);
    const res = await challenge(ctx, session, {
      oidc: { codeChallenge: pkce().challenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state: 's' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_SSO_CONFIGURATION',
      message: 'The organisation has no OIDC settings',
    });
  });

  test("Skolon without the region's Skolon client answers 400 INVALID_SSO_CONFIGURATION", async () => {
    const tenant = await ssoTenant(ctx.services, 'skolon');
    const session = await ssoSession(ctx, tenant.user.email);
    const res = await challenge(ctx, session, {
      skolon: { codeChallenge: pkce().challenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state: 's' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_SSO_CONFIGURATION',
      message: 'The organisation has no Skolon settings',
    });
  });

  test("a challenge of another protocol than the domain's answers 400 INVALID_SSO_CONFIGURATION", async () => {
    const tenant = await oidcTenant();
    const session = await ssoSession(ctx, tenant.user.email);
    const res = await challenge(ctx, session, { saml: { redirectUri: ssoPage } });
    expect(res.body.error.code).toBe('INVALID_SSO_CONFIGURATION');
  });

  test.each([
    ['not on the allow-list', 'https://evil.example/login/sso'],
    ['with a query', `${ssoPage}?next=https://evil.example`],
    ['on the allowed host but another page', 'http://127.0.0.1:5173/login/sso/../../evil'],
  ])('a redirect URI %s answers 400 INVALID_REDIRECT_URI', async (_what, redirectUri) => {
    const tenant = await oidcTenant();
    const session = await ssoSession(ctx, tenant.user.email);
    const res = await challenge(ctx, session, {
      oidc: { codeChallenge: pkce().challenge, codeChallengeMethod: 'S256', redirectUri, state: 's' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REDIRECT_URI');
  });

  test('the sso grant for a domain without SSO here answers 400 INVALID_SSO_CONFIGURATION', async () => {
    const res = await request(ctx.app)
      .post('/core/v1/sessions')
      .set(v1)
      .send({ grantType: 'sso', email: 'someone@nowhere.example' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_SSO_CONFIGURATION');
  });

  test('the sso grant for an address of an SSO domain that is no member answers as for a member; the provider asserting it answers 401 INVALID_CREDENTIALS', async () => {
    const tenant = await oidcTenant();
    const ghost = `ghost@${tenant.domain}`;
    const { session, verifier, state, code } = await signInAtProvider(ghost);
    expect(session.factors).toEqual({ oidc: 'unverified' });
    const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(await sessionRow(session.id)).toEqual({ user_id: null, factors: { oidc: 'unverified' } });
  });

  test('an unverified SSO session may call nothing but its own sign-in, and asks for no one-time codes', async () => {
    const tenant = await oidcTenant();
    const session = await ssoSession(ctx, tenant.user.email);
    const other = await request(ctx.app)
      .get(`/core/v1/users/${tenant.user.id}`)
      .set(v1)
      .set('cosafe-tenant-id', String(tenant.tenantId))
      .set('authorization', `Bearer ${session.accessToken}`);
    expect(other.status).toBe(403);
    const otp = await challenge(ctx, session, { otpEmail: true });
    expect(otp.status).toBe(400);
  });
});
