// A SCIM client for the tests: an api key of the tenant, made through the api-keys API, and requests sent the
// way provisioning clients send them (application/scim+json, no version header).
import request from 'supertest';
import type { TestContext } from './context';
import { v1 } from './fixtures';

export const scimBase = '/core/v1/scim/v2';

export async function scimKey(ctx: TestContext, tenant: { tenantId: number; adminToken: string }): Promise<string> {
  const res = await request(ctx.app)
    .post('/core/v1/api-keys')
    .set(v1)
    .set('cosafe-tenant-id', String(tenant.tenantId))
    .set('authorization', `Bearer ${tenant.adminToken}`)
    .send({ name: 'Entra ID provisioning' });
  if (res.status !== 201) throw new Error(`api key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key;
}

export function scim(ctx: TestContext, key: string) {
  const auth = (r: request.Test) => r.set('authorization', `Bearer ${key}`).set('accept', 'application/scim+json');
  const body = (r: request.Test, payload: object) =>
    auth(r).set('content-type', 'application/scim+json').send(JSON.stringify(payload));
  return {
    get: (path: string) => auth(request(ctx.app).get(`${scimBase}${path}`)),
    post: (path: string, payload: object) => body(request(ctx.app).post(`${scimBase}${path}`), payload),
    put: (path: string, payload: object) => body(request(ctx.app).put(`${scimBase}${path}`), payload),
    patch: (path: string, operations: object[]) =>
      body(request(ctx.app).patch(`${scimBase}${path}`), {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: operations,
      }),
    delete: (path: string) => auth(request(ctx.app).delete(`${scimBase}${path}`)),
  };
}

export const entraUser = (email: string, externalId = `ext-${email}`) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId,
  userName: email,
  active: true,
  displayName: 'Anna Andersson',
  emails: [{ primary: true, type: 'work', value: email }],
  name: { formatted: 'Anna Andersson', familyName: 'Andersson', givenName: 'Anna' },
  title: 'Teacher',
  phoneNumbers: [{ type: 'mobile', value: '+46 70 123 45 67' }],
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Science' },
});
