// 405 Method Not Allowed always carries Allow, the methods the path has (RFC 9110 section 15.5.6), on /core/v1,
// SCIM and SAML paths alike.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { v1 } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

test.each([
  ['delete', '/core/v1/tenants', 'GET', 'application/json'],
  ['put', '/core/v1/contacts', 'GET, POST', 'application/json'],
  ['post', '/core/v1/users/1', 'GET, PATCH', 'application/json'],
  ['delete', '/core/v1/scim/v2/ServiceProviderConfig', 'GET', 'application/scim+json'],
  ['put', '/core/v1/scim/v2/Groups', 'GET, POST', 'application/scim+json'],
  ['get', '/core/saml/acs', 'POST', 'application/json'],
] as const)('%s %s answers 405 with Allow: %s', async (method, path, allow, type) => {
  const res = await request(ctx.app)[method](path).set(v1);
  expect(res.status).toBe(405);
  expect(res.headers.allow).toBe(allow);
  expect(res.headers['content-type']).toMatch(new RegExp(`^${type.replace('+', '\\+')}`));
});
