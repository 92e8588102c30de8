// Sessions bound to no user (single sign-on before the identity provider answers): the migration rolls back on a
// database holding such sessions (they start again) and applies again, giving sign-ins pending at that moment the
// tenant of their user's domain so they go on.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import * as pendingSsoSessions from '../../src/db/migrations/2026-11-24T1000-pending-sso-sessions';
import { upsertSsoDomain } from '../../src/modules/sso/sso.repository';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, pendingSsoSignIn, signIn } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

test('pending SSO sessions without a user roll back (removed) and come back; sign-ins pending meanwhile keep their tenant', async () => {
  const db = ctx.services.db;
  const tenantId = await insertTenant(ctx.services);
  const domain = `rollback-${randomUUID().slice(0, 8)}.test`;
  await upsertSsoDomain(db, { domain, tenantId, kind: 'oidc' });
  const member = await insertUser(ctx.services, { email: `Anna@${domain.toUpperCase()}`, tenants: [tenantId] });
  const complete = await signIn(ctx.services, member.id);
  const unbound = await pendingSsoSignIn(ctx.services, tenantId, 'oidc');
  const columns = async () =>
    (
      await sql<{
        column_name: string;
        is_nullable: string;
      }>`select column_name, is_nullable from information_schema.columns where table_name = 'sessions' and column_name in ('user_id', 'sso_tenant_id') order by column_name`.execute(
        db,
      )
    ).rows;
  const sessionIds = async () => (await db.selectFrom('sessions').select('id').execute()).map((r) => r.id as string);

  await pendingSsoSessions.down(db);
  expect(await columns()).toEqual([{ column_name: 'user_id', is_nullable: 'NO' }]);
  expect(await sessionIds()).toContain(complete.sessionId);
  expect(await sessionIds()).not.toContain(unbound.sessionId);

  // Sessions as the previous version opened them: an SSO sign-in bound to the typed member, a password sign-in
  // waiting for its one-time code, and an SSO sign-in already verified.
  const now = new Date();
  const oldStyle = async (factors: Record<string, string>) => {
    const id = randomUUID();
    await sql`insert into sessions (id, user_id, factors, last_refreshed_at, expires_at)
      values (${id}, ${member.id}, ${JSON.stringify(factors)}::jsonb, ${now}, ${new Date(now.getTime() + 15 * 60_000)})`.execute(
      db,
    );
    return id;
  };
  const waitingForIdp = await oldStyle({ oidc: 'unverified' });
  const waitingForCode = await oldStyle({ password: 'verified', otpEmail: 'unverified' });
  const verified = await oldStyle({ oidc: 'verified' });

  await pendingSsoSessions.up(db);
  expect(await columns()).toEqual([
    { column_name: 'sso_tenant_id', is_nullable: 'YES' },
    { column_name: 'user_id', is_nullable: 'YES' },
  ]);
  const tenantOf = async (id: string) =>
    (await db.selectFrom('sessions').select('sso_tenant_id').where('id', '=', id).executeTakeFirstOrThrow())
      .sso_tenant_id;
  expect(await tenantOf(waitingForIdp)).toBe(tenantId);
  expect(await tenantOf(waitingForCode)).toBeNull();
  expect(await tenantOf(verified)).toBeNull();
  expect(await tenantOf(complete.sessionId)).toBeNull();
  // A session belongs to a user or waits for a tenant's identity provider, never neither.
  await expect(
    sql`insert into sessions (id, factors, last_refreshed_at, expires_at) values (${randomUUID()}, '{}'::jsonb, ${now}, ${now})`.execute(
      db,
    ),
  ).rejects.toThrow(/sessions_user_or_sso_tenant/);
  expect((await pendingSsoSignIn(ctx.services, tenantId, 'oidc')).sessionId).toBeTruthy();
});
