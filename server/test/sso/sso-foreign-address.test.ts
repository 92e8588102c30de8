// Attack: a tenant's admin points the tenant's identity provider (PUT /integrations/oidc, or their own SAML IdP) at
// a provider they control and has it assert the address of a member the tenant shares with other tenants
// (maria@shared.test). The session was bound to that account, reached its other tenants and skipped its own second
// factor. A domain's identity provider speaks for that domain's addresses only: any other address is refused
// (OIDC 401 INVALID_SSO_ID_TOKEN, SAML error=saml_validation_failed), logged, and no session is bound.
import request from 'supertest';
import { upsertSsoDomain } from '../../src/modules/sso/sso.repository';
import type { TestContext } from '../support/context';
import { insertTenant, insertUser } from '../support/fixtures';
import {
  challenge,
  createSsoTestContext,
  pkce,
  putOidcSettings,
  samlTenant,
  ssoPage,
  ssoSession,
  ssoTenant,
  verify,
} from '../support/enterprise-fixtures';
import { startOidcPeer, type OidcPeer } from '../support/oidc-peer';
import { createTestIdp, readAuthnRequest, samlResponse, type TestIdp } from '../support/saml-idp';

let ctx: TestContext;
let peer: OidcPeer;
let idp: TestIdp;

beforeAll(async () => {
  [peer, idp] = await Promise.all([startOidcPeer({ redirectUris: [ssoPage] }), createTestIdp('own-idp')]);
  ctx = await createSsoTestContext();
});
afterAll(async () => {
  await ctx.close();
  await peer.close();
});

let counter = 0;
/** A member of `tenantId` whose address is at a domain of nobody's, who also belongs to another tenant. */
async function sharedMember(tenantId: number, domain = `shared-${++counter}.test`) {
  return insertUser(ctx.services, { email: `maria@${domain}`, tenants: [tenantId, await insertTenant(ctx.services)] });
}

const sessionRow = (id: string) =>
  ctx.services.db.selectFrom('sessions').select(['user_id', 'factors']).where('id', '=', id).executeTakeFirstOrThrow();

async function oidcTenant() {
  const tenant = await ssoTenant(ctx.services, 'oidc');
  const { userInfoEndpoint: _, ...endpoints } = peer.endpoints;
  const res = await putOidcSettings(ctx, tenant, {
    clientId: peer.clientId,
    clientSecret: peer.clientSecret,
    ...endpoints,
  });
  expect(res.status).toBe(200);
  return tenant;
}

async function oidcSignIn(typed: string, asserted: string) {
  const session = await ssoSession(ctx, typed);
  const { verifier, challenge: codeChallenge } = pkce();
  const state = `state-${++counter}`;
  const started = await challenge(ctx, session, {
    oidc: { codeChallenge, codeChallengeMethod: 'S256', redirectUri: ssoPage, state },
  });
  expect(started.status).toBe(201);
  peer.signInAs(asserted);
  const { code } = await peer.authorize(started.body.authorizationUrl);
  const res = await verify(ctx, session, { oidc: { authorizationCode: code, codeVerifier: verifier, state } });
  return { session, res };
}

async function samlSignIn(typed: string, asserted: string) {
  const session = await ssoSession(ctx, typed);
  const started = await challenge(ctx, session, { saml: { redirectUri: ssoPage } });
  expect(started.status).toBe(201);
  const saml = samlResponse(idp, {
    inResponseTo: readAuthnRequest(started.body.authorizationUrl).id,
    email: asserted,
    audience: 'http://127.0.0.1:4000/core/saml/sp',
    acsUrl: 'http://127.0.0.1:4000/core/saml/acs',
  });
  const res = await request(ctx.app)
    .post('/core/saml/acs')
    .type('form')
    .send({ SAMLResponse: saml, RelayState: ssoPage });
  expect(res.status).toBe(302);
  return { session, params: Object.fromEntries(new URL(res.headers.location).searchParams) };
}

const refusalLogged = (kind: string) =>
  ctx.logs.some((line) => line.includes('not at a domain of the organisation') && line.includes(`"kind":"${kind}"`));

describe("OIDC: the tenant's identity provider asserts an address outside the tenant's domains", () => {
  test.each([
    ['a shared member at a domain nobody registered', async (t: { tenantId: number }) => sharedMember(t.tenantId)],
    [
      "a shared member at another tenant's SSO domain",
      async (t: { tenantId: number }) => sharedMember(t.tenantId, (await ssoTenant(ctx.services, 'oidc')).domain),
    ],
    [
      "a member at a domain of the tenant's own that signs in with SAML",
      async (t: { tenantId: number }) => {
        const domain = `saml-${++counter}.test`;
        await upsertSsoDomain(ctx.services.db, { domain, tenantId: t.tenantId, kind: 'saml' });
        return sharedMember(t.tenantId, domain);
      },
    ],
    [
      'a member at a subdomain of the tenant’s domain',
      async (t: { tenantId: number; domain: string }) => sharedMember(t.tenantId, `hr.${t.domain}`),
    ],
  ])('%s: 401 INVALID_SSO_ID_TOKEN, logged, no session bound', async (_, member) => {
    const tenant = await oidcTenant();
    const victim = await member(tenant);
    const { session, res } = await oidcSignIn(tenant.user.email, victim.email);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SSO_ID_TOKEN');
    expect(await sessionRow(session.id)).toEqual({ user_id: null, factors: { oidc: 'unverified' } });
    expect(refusalLogged('oidc')).toBe(true);
  });

  test('the refusal logs the asserted domain, in lower case, and never the address', async () => {
    const tenant = await oidcTenant();
    const domain = `Shared-${++counter}.Test`;
    const { res } = await oidcSignIn(tenant.user.email, `Maria@${domain}`);
    expect(res.status).toBe(401);
    const refusals = ctx.logs
      .map((line) => JSON.parse(line) as { msg?: string; assertedDomain?: string })
      .filter((entry) => entry.msg?.includes('not at a domain of the organisation'));
    expect(refusals.at(-1)?.assertedDomain).toBe(domain.toLowerCase());
    expect(ctx.logs.filter((line) => line.toLowerCase().includes('maria@'))).toEqual([]);
  });

  test("an address at the tenant's own domain, in any case, still signs in", async () => {
    const tenant = await oidcTenant();
    const { session, res } = await oidcSignIn(tenant.user.email, tenant.user.email.toUpperCase());
    expect(res.status).toBe(200);
    expect((await sessionRow(session.id)).user_id).toBe(tenant.user.id);
  });

  test("an address at the tenant's own domain with spaces around it is the same address and signs in", async () => {
    const tenant = await oidcTenant();
    const { session, res } = await oidcSignIn(tenant.user.email, ` ${tenant.user.email} `);
    expect(res.status).toBe(200);
    expect((await sessionRow(session.id)).user_id).toBe(tenant.user.id);
  });
});

describe("SAML: the tenant's identity provider asserts an address outside the tenant's domains", () => {
  test.each([
    ['a shared member at a domain nobody registered', async (t: { tenantId: number }) => sharedMember(t.tenantId)],
    [
      "a shared member at another tenant's SSO domain",
      async (t: { tenantId: number }) => sharedMember(t.tenantId, (await ssoTenant(ctx.services, 'saml')).domain),
    ],
  ])('%s: error=saml_validation_failed, logged, no session bound', async (_, member) => {
    const tenant = await samlTenant(ctx.services, idp);
    const victim = await member(tenant);
    const { session, params } = await samlSignIn(tenant.user.email, victim.email);
    expect(params).toEqual({ error: 'saml_validation_failed' });
    const challenges = await ctx.services.db
      .selectFrom('sso_challenges')
      .select(['asserted_user_id'])
      .where('session_id', '=', session.id)
      .execute();
    expect(challenges).toEqual([{ asserted_user_id: null }]);
    expect(await sessionRow(session.id)).toEqual({ user_id: null, factors: { saml: 'unverified' } });
    expect(refusalLogged('saml')).toBe(true);
  });

  test("an address at the tenant's own domain still gets its code", async () => {
    const tenant = await samlTenant(ctx.services, idp);
    const { session, params } = await samlSignIn(tenant.user.email, tenant.user.email);
    expect(params).toEqual({ sessionId: session.id, code: expect.stringMatching(/^[\w-]{43}$/) });
  });
});
