// An administrator sees and ends a member's sessions (issue 44; ASVS 7.4.5 / 7.5.2). A session is the user's and acts
// in every tenant she belongs to, so an administrator ends it only where she administers each of those tenants;
// another tenant's administrator, or a member who is no administrator, sees and ends nothing.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';
import { insertUserWithPassword } from '../support/sign-in';
import { auth, eventsOf, makeAdministrator, signInFrom, states } from './support';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

/** A tenant with an administrator and a member, each signed in (the member twice). */
async function tenantWithMember() {
  const tenant = await insertTenant(ctx.services);
  const admin = await insertUserWithPassword(ctx.services, { tenants: [tenant] });
  await makeAdministrator(ctx, tenant, admin.id);
  const member = await insertUserWithPassword(ctx.services, { tenants: [tenant] });
  return {
    tenant,
    admin,
    member,
    adminSession: await signInFrom(ctx, admin.email),
    memberSessions: [await signInFrom(ctx, member.email), await signInFrom(ctx, member.email)],
  };
}

const listOf = (who: { accessToken: string }, tenant: number, userId: number) =>
  request(ctx.app).get(`/core/v1/users/${userId}/sessions`).set(auth(who, tenant));
const endAll = (who: { accessToken: string }, tenant: number, userId: number) =>
  request(ctx.app).delete(`/core/v1/users/${userId}/sessions`).set(auth(who, tenant));
const endOne = (who: { accessToken: string }, tenant: number, userId: number, sessionId: string) =>
  request(ctx.app).delete(`/core/v1/users/${userId}/sessions/${sessionId}`).set(auth(who, tenant));

test("the tenant's administrator lists a member's live sessions", async () => {
  const t = await tenantWithMember();
  const res = await listOf(t.adminSession, t.tenant, t.member.id);
  expect(res.status).toBe(200);
  expect(res.body.data.map((s: { id: string }) => s.id).sort()).toEqual(t.memberSessions.map((s) => s.id).sort());
  expect(res.body.data.every((s: { current: boolean }) => !s.current)).toBe(true);
});

test("the tenant's administrator ends all of a member's sessions: they stop at once, the event names her", async () => {
  const t = await tenantWithMember();
  const res = await endAll(t.adminSession, t.tenant, t.member.id).set('x-forwarded-for', '192.0.2.9');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ ended: 2 });
  expect(await states(ctx, [...t.memberSessions.map((s) => s.id), t.adminSession.id])).toEqual([
    'ended_by_administrator',
    'ended_by_administrator',
    'live',
  ]);
  expect((await request(ctx.app).get('/core/v1/sessions').set(auth(t.memberSessions[0]))).status).toBe(401);
  expect(await eventsOf(ctx, t.member.id)).toEqual([
    expect.objectContaining({
      kind: 'sessions_ended',
      actor_type: 'user',
      actor_user_id: t.admin.id,
      network: '192.0.2.0/24',
      details: { count: 2, reason: 'administrator' },
    }),
  ]);
});

test("the tenant's administrator ends one session of a member; a session that is not the member's is 404", async () => {
  const t = await tenantWithMember();
  const [first, second] = t.memberSessions;
  expect((await endOne(t.adminSession, t.tenant, t.member.id, first.id)).status).toBe(204);
  expect(await states(ctx, [first.id, second.id])).toEqual(['ended_by_administrator', 'live']);
  // Ended already: the same answer.
  expect((await endOne(t.adminSession, t.tenant, t.member.id, first.id)).status).toBe(204);
  // The administrator's own session named as the member's, and an unknown id: not the member's.
  for (const id of [t.adminSession.id, '00000000-0000-4000-8000-000000000000']) {
    const res = await endOne(t.adminSession, t.tenant, t.member.id, id);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  }
  expect(await states(ctx, [t.adminSession.id, second.id])).toEqual(['live', 'live']);
});

describe("attack: another tenant's administrator ends a member's sessions", () => {
  test('in her own tenant the member is unknown (404); in the member’s tenant she is no member (403); nothing ends, nothing is shown', async () => {
    const victim = await tenantWithMember();
    const attacker = await tenantWithMember();
    for (const [tenant, status] of [
      [attacker.tenant, 404],
      [victim.tenant, 403],
    ] as const) {
      const listed = await listOf(attacker.adminSession, tenant, victim.member.id);
      expect(listed.status).toBe(status);
      expect(listed.body.status).toBe('error');
      expect(listed.body.data).toBeUndefined();
      expect((await endAll(attacker.adminSession, tenant, victim.member.id)).status).toBe(status);
      expect((await endOne(attacker.adminSession, tenant, victim.member.id, victim.memberSessions[0].id)).status).toBe(
        status,
      );
    }
    expect(
      await states(
        ctx,
        victim.memberSessions.map((s) => s.id),
      ),
    ).toEqual(['live', 'live']);
    expect(await eventsOf(ctx, victim.member.id)).toEqual([]);
  });

  test('a member who is no administrator of the tenant sees and ends no one’s sessions (403)', async () => {
    const t = await tenantWithMember();
    const colleague = await insertUserWithPassword(ctx.services, { tenants: [t.tenant] });
    const session = await signInFrom(ctx, colleague.email);
    expect((await listOf(session, t.tenant, t.member.id)).status).toBe(403);
    const res = await endAll(session, t.tenant, t.member.id);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(
      await states(
        ctx,
        t.memberSessions.map((s) => s.id),
      ),
    ).toEqual(['live', 'live']);
  });
});

describe('a member of several tenants', () => {
  test('an administrator of only one of them sees her sessions but ends none (403): they act in the other tenant too', async () => {
    const t = await tenantWithMember();
    const elsewhere = await insertTenant(ctx.services);
    await ctx.services.db
      .insertInto('memberships')
      .values({ tenant_id: elsewhere, user_id: t.member.id, permissions: JSON.stringify({}) })
      .execute();
    expect((await listOf(t.adminSession, t.tenant, t.member.id)).status).toBe(200);
    const all = await endAll(t.adminSession, t.tenant, t.member.id);
    expect(all.status).toBe(403);
    expect(all.body.error.message).toBe('The member also belongs to a tenant you do not administer');
    expect((await endOne(t.adminSession, t.tenant, t.member.id, t.memberSessions[0].id)).status).toBe(403);
    expect(
      await states(
        ctx,
        t.memberSessions.map((s) => s.id),
      ),
    ).toEqual(['live', 'live']);
    expect(await eventsOf(ctx, t.member.id)).toEqual([]);
  });

  test('an administrator of each of them ends her sessions; a membership deactivated there does not count', async () => {
    const t = await tenantWithMember();
    const [second, former] = [await insertTenant(ctx.services), await insertTenant(ctx.services)];
    for (const tenant of [second, former]) {
      await ctx.services.db
        .insertInto('memberships')
        .values({ tenant_id: tenant, user_id: t.member.id, permissions: JSON.stringify({}) })
        .execute();
    }
    await ctx.services.db
      .insertInto('memberships')
      .values({ tenant_id: second, user_id: t.admin.id, permissions: JSON.stringify({}), is_admin: true })
      .execute();
    await ctx.services.db
      .updateTable('memberships')
      .set({ active: false })
      .where('tenant_id', '=', former)
      .where('user_id', '=', t.member.id)
      .execute();
    const res = await endAll(t.adminSession, t.tenant, t.member.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 2 });
  });
});
