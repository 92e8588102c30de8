// Skolon's endpoints are faked by a real OpenID Provider that answers Skolon's user type in its user info.
import type { TestContext } from '../support/context';
import {
  challenge,
  createSsoTestContext,
  pkce,
  ssoPage,
  ssoSession,
  ssoTenant,
  tenantsAs,
  verify,
} from '../support/enterprise-fixtures';
import { startOidcPeer, type OidcPeer } from '../support/oidc-peer';

let ctx: TestContext;
let skolon: OidcPeer;

beforeAll(async () => {
  skolon = await startOidcPeer({ redirectUris: [ssoPage], claimsScope: { profile: ['userType'] } });
  ctx = await createSsoTestContext({
    env: {
      SKOLON_ISSUER: skolon.endpoints.issuer,
      SKOLON_AUTHORIZATION_URL: skolon.endpoints.authorizationEndpoint,
      SKOLON_TOKEN_URL: skolon.endpoints.tokenEndpoint,
      SKOLON_JWKS_URL: skolon.endpoints.jwksUri,
      SKOLON_USERINFO_URL: skolon.endpoints.userInfoEndpoint,
      SKOLON_CLIENT_ID: skolon.clientId,
      SKOLON_CLIENT_SECRET: skolon.clientSecret,
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await skolon.close();
});

async function skolonSignIn(userType: string) {
  const tenant = await ssoTenant(ctx.services, 'skolon');
  const session = await ssoSession(ctx, tenant.user.email);
  expect(session.factors).toEqual({ skolon: 'unverified' });
  const { verifier, challenge: codeChallenge } = pkce();
  const started = await challenge(ctx, session, {
    skolon: { codeChallenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state: 'skolon-state' },
  });
  expect(started.status).toBe(201);
  expect(started.body.authorizationUrl.startsWith(skolon.endpoints.authorizationEndpoint)).toBe(true);
  skolon.signInAs(tenant.user.email, { userType });
  const { code } = await skolon.authorize(started.body.authorizationUrl);
  return {
    session,
    res: await verify(ctx, session, {
      skolon: { authorizationCode: code, codeVerifier: verifier, state: 'skolon-state' },
    }),
  };
}

describe('Skolon sign-in', () => {
  test('a teacher signs in: the skolon factor is verified and the session works', async () => {
    const { session, res } = await skolonSignIn('TEACHER');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: session.id, factors: { skolon: 'verified' } });
    expect((await tenantsAs(ctx, res.body.accessToken)).status).toBe(200);
  });

  test('a student answers 403 SKOLON_USER_NOT_TEACHER and the session stays unverified', async () => {
    const { session, res } = await skolonSignIn('STUDENT');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'SKOLON_USER_NOT_TEACHER',
      message: 'Only teachers may sign in with Skolon',
    });
    expect((await tenantsAs(ctx, session.accessToken)).status).toBe(403);
  });
});
