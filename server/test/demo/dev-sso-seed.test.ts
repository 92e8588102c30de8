// The development SSO seed (DEV_SSO_ISSUER): the domain sso.demo.test signs in with OIDC at a demo tenant whose
// client is the development identity provider's, and a full sign-in against a real OpenID Provider with that
// client works. Never in production.
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { seedDemoData } from '../../src/demo/seed';
import { devSsoDomain, devSsoUser, seedDevSso } from '../../src/demo/seed-sso';
import { loadOidcClient } from '../../src/modules/integrations/integrations.service';
import type { TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import {
  challenge,
  createSsoTestContext,
  pkce,
  ssoPage,
  ssoSession,
  tenantsAs,
  verify,
} from '../support/enterprise-fixtures';
import { startOidcPeer, type OidcPeer } from '../support/oidc-peer';

const productionEnv = {
  NODE_ENV: 'production',
  PUBLIC_BASE_URL: 'https://api.example.test',
  SIGN_IN_APP_URL: 'https://signin.example.test',
  WEBAUTHN_RP_ID: 'signin.example.test',
  WEBAUTHN_ORIGINS: 'https://signin.example.test',
  DATABASE_URL: 'postgres://db.example.test/core',
  ACCESS_TOKEN_SIGNING_KEYS: JSON.stringify([{ kty: 'EC', crv: 'P-256', kid: 'production-1', d: 'placeholder' }]),
  SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  SMTP_URL: 'smtp://mail.example.test',
  SMS_API_URL: 'https://sms.example.test',
};

describe('DEV_SSO_ISSUER configuration', () => {
  test('outside production it names the development identity provider, with the client shared with scripts/dev-idp.mjs', () => {
    expect(loadConfig({ DEV_SSO_ISSUER: 'http://127.0.0.1:4300/' }).sso.devIdp).toEqual({
      issuer: 'http://127.0.0.1:4300',
      clientId: 'sign-in-dev',
      clientSecret: 'dev-sso-client-secret-not-for-production',
    });
    expect(
      loadConfig({ DEV_SSO_ISSUER: 'http://127.0.0.1:4300', DEV_SSO_CLIENT_ID: 'c', DEV_SSO_CLIENT_SECRET: 's' }).sso
        .devIdp,
    ).toMatchObject({ clientId: 'c', clientSecret: 's' });
    expect(loadConfig({}).sso.devIdp).toBeNull();
  });

  test('production never reads it', () => {
    expect(loadConfig({ ...productionEnv, DEV_SSO_ISSUER: 'http://127.0.0.1:4300' }).sso.devIdp).toBeNull();
  });

  test('a malformed issuer is a configuration problem', () => {
    expect(() => loadConfig({ DEV_SSO_ISSUER: 'not a url' })).toThrow(/DEV_SSO_ISSUER/);
  });
});

describe('the development SSO seed', () => {
  let peer: OidcPeer;
  let ctx: TestContext;
  beforeAll(async () => {
    peer = await startOidcPeer({ redirectUris: [ssoPage] });
    ctx = await createSsoTestContext({
      env: { DEV_SSO_ISSUER: peer.issuer, DEV_SSO_CLIENT_ID: peer.clientId, DEV_SSO_CLIENT_SECRET: peer.clientSecret },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await peer.close();
  });

  test('the demo seed binds sso.demo.test to a demo tenant with the provider’s OIDC client, and the SSO user is its member', async () => {
    expect(await seedDemoData(ctx.services)).toBe(true);
    const probe = await request(ctx.app).get(`/core/v1/probes/idpDomain/${devSsoDomain}`).set(v1);
    expect(probe.body).toMatchObject({ available: true, type: 'oidc' });
    const domain = await ctx.services.db
      .selectFrom('sso_domains')
      .selectAll()
      .where('domain', '=', devSsoDomain)
      .executeTakeFirstOrThrow();
    expect(await loadOidcClient(ctx.services, domain.tenant_id)).toEqual({
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
      issuer: peer.issuer,
      authorizationEndpoint: `${peer.issuer}/auth`,
      tokenEndpoint: `${peer.issuer}/token`,
      jwksUri: `${peer.issuer}/jwks`,
    });
    const user = await ctx.services.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('email', '=', devSsoUser.email)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
  });

  test('running again (an existing data directory) changes nothing but the settings', async () => {
    const count = async () =>
      Number(
        (
          await ctx.services.db
            .selectFrom('tenants')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const tenantId = await seedDevSso(ctx.services);
    expect(await seedDemoData(ctx.services)).toBe(false);
    expect(await seedDevSso(ctx.services)).toBe(tenantId);
    expect(await count()).toBe(before);
  });

  test('sso-user@sso.demo.test signs in through the seeded client at a real OpenID Provider', async () => {
    const session = await ssoSession(ctx, devSsoUser.email);
    const { verifier, challenge: codeChallenge } = pkce();
    const started = await challenge(ctx, session, {
      oidc: { codeChallenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state: 'dev-state' },
    });
    expect(started.status).toBe(201);
    peer.signInAs(devSsoUser.email);
    const { code, state } = await peer.authorize(started.body.authorizationUrl);
    const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
    expect(res.status).toBe(200);
    expect(res.body.factors).toEqual({ oidc: 'verified' });
    expect((await tenantsAs(ctx, res.body.accessToken)).body.data.map((t: { name: string }) => t.name)).toEqual([
      'Demo SSO Company',
    ]);
  });

  test('without DEV_SSO_ISSUER the seed adds no SSO', async () => {
    const plain = await createSsoTestContext();
    try {
      expect(await seedDevSso(plain.services)).toBeNull();
      expect(await plain.services.db.selectFrom('sso_domains').selectAll().execute()).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
