// SAML answers that must be refused although they are signed by the organisation's own identity provider: an
// answer carried back to another page than the sign-in named, an answer at the instant the sign-in expires, a
// response that holds no assertion, a code used at the instant it expires or on a sign-in of another organisation.
// And which of the asserted values is taken as the address: only a whole address, from the known claims.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { challengeLifetimeMs } from '../../src/modules/sso/sso-sessions';
import type { TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';
import {
  challenge,
  createSsoTestContext,
  samlTenant,
  ssoPage,
  ssoSession,
  verify,
} from '../support/enterprise-fixtures';
import { createTestIdp, readAuthnRequest, samlResponse, signedXml, type TestIdp } from '../support/saml-idp';

/** Another page of the sign-in app the region may send browsers to. */
const otherPage = 'http://127.0.0.1:5173/login/other';
const spEntityId = 'http://127.0.0.1:4000/core/saml/sp';
const acsUrl = 'http://127.0.0.1:4000/core/saml/acs';
const emailClaim = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

let ctx: TestContext;
let idp: TestIdp;
/** The service's clock runs with the wall clock until a test stops it at an instant of its choosing. */
let stoppedAt: Date | undefined;

beforeAll(async () => {
  idp = await createTestIdp('idp');
  ctx = await createSsoTestContext({
    now: () => stoppedAt ?? new Date(),
    env: { REDIRECT_ALLOW_LIST: `${ssoPage},${otherPage}` },
  });
});
afterAll(() => ctx.close());
afterEach(() => {
  stoppedAt = undefined;
});

const tenantWithSaml = () => samlTenant(ctx.services, idp);

async function startSaml(email: string) {
  const session = await ssoSession(ctx, email);
  const started = await challenge(ctx, session, { saml: { redirectUri: ssoPage } });
  expect(started.status).toBe(201);
  return { session, requestId: readAuthnRequest(started.body.authorizationUrl).id };
}

const postAcs = (SAMLResponse: string, RelayState = ssoPage) =>
  request(ctx.app).post('/core/saml/acs').type('form').send({ SAMLResponse, RelayState });

function redirectOf(res: request.Response, page = ssoPage) {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.location);
  expect(location.origin + location.pathname).toBe(page);
  return Object.fromEntries(location.searchParams);
}

const signedAnswer = (inResponseTo: string, email: string) =>
  samlResponse(idp, { inResponseTo, email, audience: spEntityId, acsUrl });

/** The reason logged for the latest refused SAML response. */
const lastRefusal = () =>
  ctx.logs
    .map((line) => JSON.parse(line) as { msg?: string; reason?: string })
    .filter((entry) => entry.msg === 'SAML response refused')
    .at(-1)?.reason;

const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
const xmlId = () => `_${randomBytes(16).toString('hex')}`;

/** `xml` with an enveloped signature of the trusted IdP over its element `signed`, base64 as posted. */
const signedBy = (xml: string, signed: 'Response' | 'Assertion') => signedXml(xml, idp, signed);

const responseOpen = (inResponseTo: string) =>
  `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${xmlId()}" Version="2.0" IssueInstant="${iso(0)}" Destination="${acsUrl}" InResponseTo="${inResponseTo}">` +
  `<saml:Issuer>${idp.issuer}</saml:Issuer>`;

/** A signed answer whose subject is `nameId` (of `nameIdFormat`) and whose attributes are `attributes`. */
function signedAssertion(
  inResponseTo: string,
  nameId: string,
  attributes: Record<string, string>,
  nameIdFormat = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
) {
  const attributeXml = Object.entries(attributes)
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${name}"><saml:AttributeValue>${value}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  const xml =
    responseOpen(inResponseTo) +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${xmlId()}" Version="2.0" IssueInstant="${iso(0)}">` +
    `<saml:Issuer>${idp.issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${nameIdFormat}">${nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${inResponseTo}" NotOnOrAfter="${iso(5 * 60_000)}" Recipient="${acsUrl}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${iso(5 * 60_000)}"><saml:AudienceRestriction><saml:Audience>${spEntityId}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${xmlId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributeXml}</saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`;
  return signedBy(xml, 'Assertion');
}

describe('SAML answers that are refused', () => {
  test('an answer carried back to another allowed page than the sign-in named is no answer to that sign-in', async () => {
    const tenant = await tenantWithSaml();
    const { requestId } = await startSaml(tenant.user.email);
    const res = await postAcs(signedAnswer(requestId, tenant.user.email), otherPage);
    expect(redirectOf(res, otherPage)).toEqual({ error: 'saml_validation_failed' });
    expect(lastRefusal()).toBe('answers no sign-in of ours');
  });

  test('an answer at the very instant the sign-in expires is refused', async () => {
    const tenant = await tenantWithSaml();
    const startedAt = new Date();
    stoppedAt = startedAt;
    const { requestId } = await startSaml(tenant.user.email);
    stoppedAt = new Date(startedAt.getTime() + challengeLifetimeMs);
    expect(redirectOf(await postAcs(signedAnswer(requestId, tenant.user.email)))).toEqual({
      error: 'saml_validation_failed',
    });
    expect(lastRefusal()).toBe('the sign-in expired');
  });

  test('a signed response without an assertion (the IdP could not sign in passively) signs in nobody', async () => {
    const tenant = await tenantWithSaml();
    const { requestId } = await startSaml(tenant.user.email);
    const xml =
      responseOpen(requestId) +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">` +
      `<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:NoPassive"/></samlp:StatusCode></samlp:Status>` +
      `</samlp:Response>`;
    expect(redirectOf(await postAcs(signedBy(xml, 'Response')))).toEqual({ error: 'saml_validation_failed' });
    expect(lastRefusal()).toBe('no assertion');
  });
});

describe('the asserted address', () => {
  test('is read from the email address claim when the subject is no address', async () => {
    const tenant = await tenantWithSaml();
    const { session, requestId } = await startSaml(tenant.user.email);
    const saml = signedAssertion(
      requestId,
      'opaque-subject-1',
      { [emailClaim]: tenant.user.email },
      'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    );
    const params = redirectOf(await postAcs(saml));
    expect(params.sessionId).toBe(session.id);
    expect(params.code).toBeDefined();
  });

  test.each([
    ['ends in', (address: string) => `someone ${address}`],
    ['begins with', (address: string) => `${address} (work)`],
  ])('is a whole value: a claim that merely %s an address is passed over for the subject', async (_, claim) => {
    const tenant = await tenantWithSaml();
    const { session, requestId } = await startSaml(tenant.user.email);
    const saml = signedAssertion(requestId, tenant.user.email, { [emailClaim]: claim(tenant.user.email) });
    const params = redirectOf(await postAcs(saml));
    expect(params.sessionId).toBe(session.id);
    expect(params.code).toBeDefined();
  });
});

describe('the one-time code', () => {
  test('used at the very instant it expires (2 minutes) answers 400 SSO_CHALLENGE_EXPIRED', async () => {
    const tenant = await tenantWithSaml();
    const answeredAt = new Date();
    stoppedAt = answeredAt;
    const { session, requestId } = await startSaml(tenant.user.email);
    const { code } = redirectOf(await postAcs(signedAnswer(requestId, tenant.user.email)));
    expect(code).toBeDefined();
    stoppedAt = new Date(answeredAt.getTime() + 2 * 60_000);
    const res = await verify(ctx, session, { saml: { code } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'SSO_CHALLENGE_EXPIRED',
      message: 'The sign-in took too long; start again',
    });
  });

  test('of a sign-in kept for another organisation answers 400 AUTHORIZATION_CODE_NOT_FOUND', async () => {
    const tenant = await tenantWithSaml();
    const { session, requestId } = await startSaml(tenant.user.email);
    const { code } = redirectOf(await postAcs(signedAnswer(requestId, tenant.user.email)));
    expect(code).toBeDefined();
    await ctx.services.db
      .updateTable('sso_challenges')
      .set({ tenant_id: await insertTenant(ctx.services) })
      .where('session_id', '=', session.id)
      .execute();
    const res = await verify(ctx, session, { saml: { code } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'AUTHORIZATION_CODE_NOT_FOUND',
      message: 'No SAML sign-in with this code is pending for the session',
    });
  });
});
