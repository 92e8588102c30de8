// Changes to a tenant's members by a directory (SCIM) and by the operator tool: events of that tenant only, in the
// transaction of the change, seen by its administrators and by no other tenant's.
import request from 'supertest';
import { buildPermissions } from '../../src/modules/users';
import { adminRunner } from '../admin/admin-fixtures';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import type { TestContext } from '../support/context';
import { insertTenant, insertUser, v1 } from '../support/fixtures';
import { entraUser, scim, scimKey } from '../support/scim-client';

let ctx: TestContext;
let admin: ReturnType<typeof adminRunner>;
beforeAll(async () => {
  ctx = await createSsoTestContext({ env: { TRUST_PROXY: '1' } });
  admin = adminRunner(ctx);
});
afterAll(() => ctx.close());

const eventsOf = (userId: number) =>
  ctx.services.db
    .selectFrom('security_events')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'asc')
    .execute();

describe('directory (SCIM) events', () => {
  test('member_provisioned, member_updated, member_deactivated, member_updated (reactivated), member_removed', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const directory = scim(ctx, await scimKey(ctx, tenant));
    const created = await directory
      .post('/Users', entraUser(`eve@${tenant.domain}`))
      .set('x-forwarded-for', '192.0.2.9');
    expect(created.status).toBe(201);
    const userId = Number(created.body.id);
    expect((await directory.patch(`/Users/${userId}`, [{ op: 'replace', path: 'title', value: 'Nurse' }])).status).toBe(
      200,
    );
    expect((await directory.patch(`/Users/${userId}`, [{ op: 'replace', path: 'active', value: false }])).status).toBe(
      200,
    );
    expect((await directory.patch(`/Users/${userId}`, [{ op: 'replace', path: 'active', value: true }])).status).toBe(
      200,
    );
    expect((await directory.delete(`/Users/${userId}`)).status).toBe(204);
    const events = await eventsOf(userId);
    expect(events.map((e) => [e.kind, e.actor_type, e.tenant_id, e.details.reason ?? null])).toEqual([
      ['member_provisioned', 'scim', tenant.tenantId, null],
      ['member_updated', 'scim', tenant.tenantId, null],
      ['member_deactivated', 'scim', tenant.tenantId, null],
      ['member_updated', 'scim', tenant.tenantId, 'reactivated'],
      ['member_removed', 'scim', tenant.tenantId, null],
    ]);
    expect(events[0]!.network).toBe('192.0.2.0/24');
  });

  test("a directory's refused change (a duplicate userName) leaves no event", async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const directory = scim(ctx, await scimKey(ctx, tenant));
    const before = await ctx.services.db
      .selectFrom('security_events')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect((await directory.post('/Users', entraUser(tenant.user.email))).status).toBe(409);
    const after = await ctx.services.db
      .selectFrom('security_events')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  test("the tenant's administrator sees its directory's events; another tenant's administrator does not", async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const other = await ssoTenant(ctx.services, 'oidc');
    const directory = scim(ctx, await scimKey(ctx, tenant));
    const created = await directory.post('/Users', entraUser(`finn@${tenant.domain}`));
    const userId = Number(created.body.id);
    const list = (who: { tenantId: number; adminToken: string }) =>
      request(ctx.app)
        .get(`/core/v1/security-events?userId=${userId}`)
        .set(v1)
        .set('authorization', `Bearer ${who.adminToken}`)
        .set('cosafe-tenant-id', String(who.tenantId));
    expect((await list(tenant)).body.data.map((e: { kind: string }) => e.kind)).toEqual(['member_provisioned']);
    expect((await list(other)).body.data).toEqual([]);
  });
});

describe('operator tool events', () => {
  test('permission_granted and permission_revoked: one per flag that changed, by the operator, in the tenant', async () => {
    const tenant = await insertTenant(ctx.services, 'Event School');
    const user = await insertUser(ctx.services, { tenants: [tenant], permissions: buildPermissions(false) });
    const t = ['--tenant', String(tenant), '--user', user.email];
    expect((await admin(['permission', 'grant', 'cec.maySend', ...t])).code).toBe(0);
    // Already on: nothing changes, nothing is recorded.
    expect((await admin(['permission', 'grant', 'cec.maySend', ...t])).code).toBe(0);
    expect((await admin(['permission', 'revoke', 'cec.maySend', ...t])).code).toBe(0);
    const events = await eventsOf(user.id);
    expect(events.map((e) => [e.kind, e.actor_type, e.tenant_id, e.details.permission])).toEqual([
      ['permission_granted', 'operator', tenant, 'cec.maySend'],
      ['permission_revoked', 'operator', tenant, 'cec.maySend'],
    ]);
    expect(events[0]).toMatchObject({ network: null, user_agent: null, actor_user_id: null });
  });

  test('member_provisioned: an operator invitation that adds a member', async () => {
    const tenant = await insertTenant(ctx.services, 'Invite School');
    const run = await admin([
      'user',
      'invite',
      '--tenant',
      String(tenant),
      '--email',
      'gus@invite.example',
      '--name',
      'Gus',
    ]);
    expect(run.code).toBe(0);
    const user = await ctx.services.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'gus@invite.example')
      .executeTakeFirstOrThrow();
    expect((await eventsOf(user.id)).map((e) => [e.kind, e.actor_type, e.tenant_id, e.details.reason])).toEqual([
      ['member_provisioned', 'operator', tenant, 'invited'],
    ]);
    // Inviting again adds no membership: no second event.
    await admin(['user', 'invite', '--tenant', String(tenant), '--email', 'gus@invite.example', '--name', 'Gus']);
    expect(await eventsOf(user.id)).toHaveLength(1);
  });
});
