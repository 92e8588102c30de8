import { createVerify } from 'node:crypto';
import request from 'supertest';
import type { TestContext } from '../support/context';
import { insertTenant, insertUser, v1 } from '../support/fixtures';
import { movableClock } from '../support/sign-in';
import {
  challenge,
  createSsoTestContext,
  samlTenant,
  ssoPage,
  ssoSession,
  ssoTenant,
  tenantsAs,
  verify,
} from '../support/enterprise-fixtures';
import { createTestIdp, readAuthnRequest, samlResponse, type ResponseOptions, type TestIdp } from '../support/saml-idp';

let ctx: TestContext;
let idp: TestIdp;
let stranger: TestIdp;
const clock = movableClock();
const spEntityId = 'http://127.0.0.1:4000/core/saml/sp';
const acsUrl = 'http://127.0.0.1:4000/core/saml/acs';

beforeAll(async () => {
  [idp, stranger] = await Promise.all([createTestIdp('idp'), createTestIdp('stranger')]);
  ctx = await createSsoTestContext({ now: clock.now });
});
afterAll(() => ctx.close());

const tenantWithSaml = () => samlTenant(ctx.services, idp);

/** Session and challenge; answers the AuthnRequest the browser carries to the IdP. */
async function startSaml(email: string) {
  const session = await ssoSession(ctx, email);
  const started = await challenge(ctx, session, { saml: { redirectUri: ssoPage } });
  expect(started.status).toBe(201);
  return {
    session,
    authnRequest: readAuthnRequest(started.body.authorizationUrl),
    authorizationUrl: started.body.authorizationUrl as string,
  };
}

const postAcs = (SAMLResponse: string, RelayState = ssoPage) =>
  request(ctx.app).post('/core/saml/acs').type('form').send({ SAMLResponse, RelayState });

function redirectOf(res: request.Response) {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.location);
  expect(location.origin + location.pathname).toBe(ssoPage);
  return Object.fromEntries(location.searchParams);
}

/** The trusted IdP's signed answer to the AuthnRequest `inResponseTo`, asserting `email`. */
const signedAnswer = (inResponseTo: string, email: string) =>
  samlResponse(idp, { inResponseTo, email, audience: spEntityId, acsUrl });

async function answer(email: string, options: Partial<ResponseOptions> = {}, signInAs = email) {
  const { session, authnRequest } = await startSaml(email);
  const saml = samlResponse(idp, {
    inResponseTo: authnRequest.id,
    email: signInAs,
    audience: spEntityId,
    acsUrl,
    ...options,
  });
  return { session, saml, res: await postAcs(saml) };
}

describe('GET /core/saml/sp', () => {
  test("answers this region's service provider metadata", async () => {
    const res = await request(ctx.app).get('/core/saml/sp');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.text).toContain(`entityID="${spEntityId}"`);
    expect(res.text).toMatch(new RegExp(`AssertionConsumerService[^>]+Location="${acsUrl}"`));
    expect(res.text).toContain('WantAssertionsSigned="true"');
    expect(res.text).toMatch(/<NameIDFormat>urn:oasis:names:tc:SAML:1\.1:nameid-format:emailAddress<\/NameIDFormat>/);
  });
});

describe('SAML sign-in', () => {
  /** The reasons logged for refused SAML responses, for operators. */
  const refusals = () =>
    ctx.logs
      .map((line) => JSON.parse(line) as { msg?: string; reason?: string })
      .filter((entry) => entry.msg === 'SAML response refused')
      .map((entry) => entry.reason);

  test("the challenge sends an AuthnRequest to the tenant's IdP with the sign-in page as RelayState", async () => {
    const tenant = await tenantWithSaml();
    const { authorizationUrl, authnRequest } = await startSaml(tenant.user.email);
    expect(authorizationUrl.startsWith(`${idp.entryPoint}?`)).toBe(true);
    expect(authnRequest.relayState).toBe(ssoPage);
    expect(authnRequest.acsUrl).toBe(acsUrl);
    expect(authnRequest.xml).toContain(
      `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${spEntityId}</saml:Issuer>`,
    );
    // The account is named by its email address; how the IdP authenticates it (passwords, MFA) is the IdP's choice.
    expect(authnRequest.xml).toMatch(
      /<samlp:NameIDPolicy[^>]* Format="urn:oasis:names:tc:SAML:1\.1:nameid-format:emailAddress"/,
    );
    expect(authnRequest.xml).not.toContain('RequestedAuthnContext');
    // Without a key of its own this region does not sign the request.
    expect(new URL(authorizationUrl).searchParams.has('Signature')).toBe(false);
  });

  test('a signed response redirects with sessionId and a one-time code; the code verifies the saml factor once', async () => {
    const tenant = await tenantWithSaml();
    const { session, res } = await answer(tenant.user.email);
    const params = redirectOf(res);
    expect(params.sessionId).toBe(session.id);
    expect(params.code).toMatch(/^[\w-]{43}$/);
    const verified = await verify(ctx, session, { saml: { code: params.code } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: session.id, factors: { saml: 'verified' } });
    expect((await tenantsAs(ctx, verified.body.accessToken)).status).toBe(200);
    const again = await verify(
      ctx,
      { id: session.id, accessToken: verified.body.accessToken },
      { saml: { code: params.code } },
    );
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('AUTHORIZATION_CODE_NOT_FOUND');
  });

  test('an unsigned response answers error=saml_validation_failed', async () => {
    const tenant = await tenantWithSaml();
    expect(redirectOf((await answer(tenant.user.email, { sign: false })).res)).toEqual({
      error: 'saml_validation_failed',
    });
    expect(refusals().at(-1)).toBe('not valid');
  });

  test('an assertion that is not signed itself, inside a response signed by the trusted IdP, answers error=saml_validation_failed', async () => {
    const tenant = await tenantWithSaml();
    expect(redirectOf((await answer(tenant.user.email, { signResponseOnly: true })).res)).toEqual({
      error: 'saml_validation_failed',
    });
  });

  test('a response signed by a key the tenant does not trust answers error=saml_validation_failed', async () => {
    const tenant = await tenantWithSaml();
    expect(redirectOf((await answer(tenant.user.email, { signWith: stranger })).res)).toEqual({
      error: 'saml_validation_failed',
    });
  });

  test('a response for another audience answers error=saml_validation_failed', async () => {
    const tenant = await tenantWithSaml();
    expect(redirectOf((await answer(tenant.user.email, { audience: 'https://other-sp.example/saml' })).res)).toEqual({
      error: 'saml_validation_failed',
    });
  });

  test('an expired assertion answers error=saml_validation_failed', async () => {
    const tenant = await tenantWithSaml();
    expect(redirectOf((await answer(tenant.user.email, { validForMs: -120_000 })).res)).toEqual({
      error: 'saml_validation_failed',
    });
  });

  test('a response to a request this service never sent answers error=saml_validation_failed', async () => {
    const tenant = await tenantWithSaml();
    await startSaml(tenant.user.email);
    const saml = samlResponse(idp, {
      inResponseTo: '_never-sent',
      email: tenant.user.email,
      audience: spEntityId,
      acsUrl,
    });
    expect(redirectOf(await postAcs(saml))).toEqual({ error: 'saml_validation_failed' });
    expect(refusals().at(-1)).toBe('answers no sign-in of ours');
  });

  test('a replayed response is refused: error=saml_validation_failed, and no second code', async () => {
    const tenant = await tenantWithSaml();
    const { saml, res } = await answer(tenant.user.email);
    expect(redirectOf(res).code).toBeDefined();
    expect(redirectOf(await postAcs(saml))).toEqual({ error: 'saml_validation_failed' });
  });

  test('an asserted identity without an account answers error=user_not_found', async () => {
    const tenant = await tenantWithSaml();
    expect(redirectOf((await answer(tenant.user.email, {}, `nobody@${tenant.domain}`)).res)).toEqual({
      error: 'user_not_found',
    });
    expect(refusals().at(-1)).toBe('no such user');
  });

  test('a sign-in started for an address without an account goes to the IdP like any; its answer is error=user_not_found', async () => {
    const tenant = await tenantWithSaml();
    const nobody = `nobody@${tenant.domain}`;
    const { session, res } = await answer(nobody);
    expect(session.factors).toEqual({ saml: 'unverified' });
    expect(redirectOf(res)).toEqual({ error: 'user_not_found' });
  });

  test("an account at the organisation's domain that is a member of another organisation only answers error=unauthorized_organization", async () => {
    const tenant = await tenantWithSaml();
    const outsider = await insertUser(ctx.services, {
      email: `outsider-${Date.now()}@${tenant.domain}`,
      tenants: [await insertTenant(ctx.services)],
    });
    expect(redirectOf((await answer(tenant.user.email, {}, outsider.email)).res)).toEqual({
      error: 'unauthorized_organization',
    });
    expect(refusals().at(-1)).toBe('not a member of the organisation');
  });

  test("an address at a domain that is not the organisation's answers error=saml_validation_failed", async () => {
    const tenant = await tenantWithSaml();
    expect(redirectOf((await answer(tenant.user.email, {}, 'anna@elsewhere.test')).res)).toEqual({
      error: 'saml_validation_failed',
    });
    expect(refusals().at(-1)).toBe('the asserted address is not at a domain of the organisation');
  });

  test('a RelayState that is not an allowed page answers 400 BAD_REQUEST instead of redirecting', async () => {
    const tenant = await tenantWithSaml();
    const { authnRequest } = await startSaml(tenant.user.email);
    const saml = signedAnswer(authnRequest.id, tenant.user.email);
    const res = await postAcs(saml, 'https://evil.example/steal');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'RelayState is not an allowed target',
      issues: [{ where: 'body', path: '/RelayState', message: 'is not an allowed redirect target' }],
    });
  });

  test('a code used after 2 minutes answers 400 SSO_CHALLENGE_EXPIRED; an unknown code AUTHORIZATION_CODE_NOT_FOUND', async () => {
    const tenant = await tenantWithSaml();
    const { session, res } = await answer(tenant.user.email);
    const unknown = await verify(ctx, session, { saml: { code: 'not-the-code' } });
    expect(unknown.body.error).toMatchObject({
      code: 'AUTHORIZATION_CODE_NOT_FOUND',
      message: 'No SAML sign-in with this code is pending for the session',
    });
    clock.advance(3 * 60_000);
    const late = await verify(ctx, session, { saml: { code: redirectOf(res).code } });
    expect(late.status).toBe(400);
    expect(late.body.error).toMatchObject({
      code: 'SSO_CHALLENGE_EXPIRED',
      message: 'The sign-in took too long; start again',
    });
  });

  test('a response after the sign-in expired (10 minutes) answers error=saml_validation_failed, and says why in the log', async () => {
    const tenant = await tenantWithSaml();
    const { authnRequest } = await startSaml(tenant.user.email);
    clock.advance(10 * 60_000 + 1_000);
    const saml = signedAnswer(authnRequest.id, tenant.user.email);
    expect(redirectOf(await postAcs(saml))).toEqual({ error: 'saml_validation_failed' });
    expect(refusals().at(-1)).toBe('the sign-in expired');
  });

  test('the same response posted twice at once signs in once: one code, and the other is refused', async () => {
    const tenant = await tenantWithSaml();
    const { authnRequest } = await startSaml(tenant.user.email);
    const saml = signedAnswer(authnRequest.id, tenant.user.email);
    const before = refusals().length;
    const answers = (await Promise.all([postAcs(saml), postAcs(saml)])).map(redirectOf);
    expect(answers.filter((a) => a.code !== undefined)).toHaveLength(1);
    expect(answers.filter((a) => a.error === 'saml_validation_failed')).toHaveLength(1);
    expect(refusals().slice(before)).toEqual(['the sign-in was already answered']);
  });

  test('an assertion whose ID was seen before, in an answer to another sign-in, answers error=saml_validation_failed', async () => {
    const tenant = await tenantWithSaml();
    const assertionId = `_reused-${Date.now()}`;
    const first = await answer(tenant.user.email, { assertionId });
    expect(redirectOf(first.res).code).toBeDefined();
    const second = await answer(tenant.user.email, { assertionId });
    expect(redirectOf(second.res)).toEqual({ error: 'saml_validation_failed' });
    expect(refusals().at(-1)).toBe('the assertion was used before');
  });

  test('a response after the organisation removed its SAML settings answers error=saml_validation_failed', async () => {
    const tenant = await tenantWithSaml();
    const { authnRequest } = await startSaml(tenant.user.email);
    await ctx.services.db.deleteFrom('saml_settings').where('tenant_id', '=', tenant.tenantId).execute();
    const saml = signedAnswer(authnRequest.id, tenant.user.email);
    expect(redirectOf(await postAcs(saml))).toEqual({ error: 'saml_validation_failed' });
    expect(refusals().at(-1)).toBe('the organisation has no SAML settings');
  });

  test('an entry point that is no URL answers 400 INVALID_SSO_CONFIGURATION at the challenge', async () => {
    const tenant = await tenantWithSaml();
    await ctx.services.db
      .updateTable('saml_settings')
      .set({ entry_point: 'not a url' })
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    const session = await ssoSession(ctx, tenant.user.email);
    const res = await challenge(ctx, session, { saml: { redirectUri: ssoPage } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_SSO_CONFIGURATION',
      message: 'The SAML settings are not usable',
    });
  });

  test('a tenant without SAML settings answers 400 INVALID_SSO_CONFIGURATION, saying that none are set', async () => {
    const tenant = await ssoTenant(ctx.services, 'saml');
    const session = await ssoSession(ctx, tenant.user.email);
    const res = await challenge(ctx, session, { saml: { redirectUri: ssoPage } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_SSO_CONFIGURATION',
      message: 'The organisation has no SAML settings',
    });
  });

  test('the ACS takes no version header and no sign-in', async () => {
    const res = await request(ctx.app)
      .post('/core/saml/acs')
      .set(v1)
      .type('form')
      .send({ SAMLResponse: 'PHgvPg==', RelayState: ssoPage });
    expect(redirectOf(res)).toEqual({ error: 'saml_validation_failed' });
  });
});

describe('SAML sign-in from a region with a key of its own', () => {
  test("the AuthnRequest is signed (RSA-SHA256, HTTP-Redirect binding) with the region's own key", async () => {
    const sp = await createTestIdp('sp');
    const keyed = await createSsoTestContext({
      now: clock.now,
      env: { SAML_SP_PRIVATE_KEY: sp.privateKey, SAML_SP_CERTIFICATE: sp.certificate },
    });
    try {
      const tenant = await samlTenant(keyed.services, idp);
      const session = await ssoSession(keyed, tenant.user.email);
      const started = await challenge(keyed, session, { saml: { redirectUri: ssoPage } });
      expect(started.status).toBe(201);
      const query = new URL(started.body.authorizationUrl).search.slice(1);
      const raw = Object.fromEntries(query.split('&').map((pair) => pair.split('=') as [string, string]));
      expect(decodeURIComponent(raw.SigAlg)).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      // The redirect binding signs the query's own encoded parameters, in this order (SAML bindings, 3.4.4.1).
      const signed = `SAMLRequest=${raw.SAMLRequest}&RelayState=${raw.RelayState}&SigAlg=${raw.SigAlg}`;
      const signature = Buffer.from(decodeURIComponent(raw.Signature), 'base64');
      expect(createVerify('RSA-SHA256').update(signed).verify(sp.certificate, signature)).toBe(true);
    } finally {
      await keyed.close();
    }
  });
});
