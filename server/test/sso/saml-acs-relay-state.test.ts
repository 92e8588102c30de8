// A browser posting to the assertion consumer service without RelayState (an identity provider that drops it, an
// IdP-initiated post, a crafted form) must land on the sign-in app's error page like every other ACS failure,
// not on a JSON document.
import request from 'supertest';
import type { TestContext } from '../support/context';
import { createSsoTestContext } from '../support/enterprise-fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createSsoTestContext({ env: { SIGN_IN_APP_URL: 'http://127.0.0.1:5173' } });
});
afterAll(() => ctx.close());

const errorPage = 'http://127.0.0.1:5173/login/sso?error=saml_validation_failed';

describe('POST /core/saml/acs without RelayState', () => {
  test.each([
    ['no RelayState', { SAMLResponse: 'PHgvPg==' }],
    ['an empty RelayState', { SAMLResponse: 'PHgvPg==', RelayState: '' }],
  ])("%s redirects the browser to the sign-in app's error page", async (_, form) => {
    const before = ctx.logs.length;
    const res = await request(ctx.app).post('/core/saml/acs').type('form').send(form);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(errorPage);
    // Operators see why: the refusal is logged as a warning like every other refused response.
    const warnings = ctx.logs
      .slice(before)
      .map((line) => JSON.parse(line) as { level: number; msg?: string; reason?: string })
      .filter((entry) => entry.level === 40);
    expect(warnings).toEqual([expect.objectContaining({ msg: 'SAML response refused', reason: 'no RelayState' })]);
  });

  test('a RelayState that is not an allowed page still answers 400 (never an open redirect)', async () => {
    const res = await request(ctx.app)
      .post('/core/saml/acs')
      .type('form')
      .send({ SAMLResponse: 'PHgvPg==', RelayState: 'https://evil.example/' });
    expect(res.status).toBe(400);
  });
});
