// SCIM filters as provisioning clients and attackers send them: a broken escape must answer SCIM's 400 (it
// answered 500), RFC 7644 clients' `+` for spaces and raw `@` must be read (they were refused), and the error
// names each supported attribute once.
import request from 'supertest';
import type { TestContext } from '../support/context';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import { entraUser, scim, scimBase, scimKey } from '../support/scim-client';

let ctx: TestContext;
let key: string;
let userId: string;

beforeAll(async () => {
  ctx = await createSsoTestContext();
  const tenant = await ssoTenant(ctx.services, 'saml');
  key = await scimKey(ctx, tenant);
  const created = await scim(ctx, key).post('/Users', entraUser('anna.andersson@scim-filter.test', 'ext anna 1'));
  expect(created.status).toBe(201);
  userId = created.body.id;
});
afterAll(() => ctx.close());

/** GET with the query string exactly as written (supertest would encode it). */
const rawGet = (pathAndQuery: string) =>
  request(ctx.app)
    .get(`${scimBase}${pathAndQuery}`)
    .set('authorization', `Bearer ${key}`)
    .set('accept', 'application/scim+json');

const invalidFilter = {
  schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
  status: '400',
  scimType: 'invalidFilter',
  detail: expect.any(String),
};

describe('SCIM filters', () => {
  test.each([
    ['a bad escape', 'userName eq "a\\x"'],
    ['a unicode escape cut short', 'userName eq "a\\u12"'],
    ['a trailing backslash', 'userName eq "a\\\\\\"'],
  ])('%s answers SCIM 400 invalidFilter, not 500', async (_, filter) => {
    const res = await rawGet(`/Users?filter=${encodeURIComponent(filter)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidFilter);
  });

  test('`+` for spaces and a raw `@` are read as RFC 7644 clients send them', async () => {
    const res = await rawGet('/Users?filter=userName+eq+"anna.andersson@scim-filter.test"');
    expect(res.status).toBe(200);
    expect(res.body.Resources.map((u: { id: string }) => u.id)).toEqual([userId]);
    const byExternalId = await rawGet('/Users?filter=externalId%20eq%20%22ext+anna+1%22');
    expect(byExternalId.status).toBe(200);
    expect(byExternalId.body.totalResults).toBe(1);
  });

  test('the error text names each supported attribute once', async () => {
    const res = await rawGet(`/Users?filter=${encodeURIComponent('title eq "x"')}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(
      'Unsupported filter; use one of userName, externalId, id, emails.value, displayName eq "value"',
    );
    const groups = await rawGet(`/Groups?filter=${encodeURIComponent('members eq "x"')}`);
    expect(groups.body.detail).toBe('Unsupported filter; use one of displayName, externalId, id eq "value"');
  });
});
