// Shared steps of the account tests: signing in through the API from a chosen address and browser, and reading the
// security events the account's operations wrote.
import request from 'supertest';
import type { TestContext } from '../support/context';
import { v1 } from '../support/fixtures';
import { goodPassword } from '../support/sign-in';

export const firefoxOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
export const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

let nextHost = 1;
/** An IPv4 address of its own per call (its /24 is 203.0.113.0/24), so no lockout of one test meets another's. */
export const freshIpv4 = () => `203.0.113.${(nextHost++ % 250) + 1}`;

export interface ApiSession {
  id: string;
  accessToken: string;
  refreshToken: string;
}

/** POST /sessions with the password grant, from `ip` with `userAgent`: the session as answered (201). */
export async function signInFrom(
  ctx: TestContext,
  email: string,
  o: { ip?: string; userAgent?: string; password?: string } = {},
): Promise<ApiSession> {
  const res = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .set('x-forwarded-for', o.ip ?? freshIpv4())
    .set('user-agent', o.userAgent ?? firefoxOnWindows)
    .send({ grantType: 'password', email, password: o.password ?? goodPassword });
  expect(res.status).toBe(201);
  return res.body as ApiSession;
}

export const auth = (who: { accessToken: string }, tenantId?: number) => ({
  ...v1,
  authorization: `Bearer ${who.accessToken}`,
  ...(tenantId === undefined ? {} : { 'cosafe-tenant-id': String(tenantId) }),
});

/** The security events of the account's own operations about `userId` (its sign-ins' left out), oldest first. */
export const eventsOf = (ctx: TestContext, userId: number) =>
  ctx.services.db
    .selectFrom('security_events')
    .select(['kind', 'outcome', 'actor_type', 'actor_user_id', 'tenant_id', 'network', 'user_agent', 'details'])
    .where('user_id', '=', userId)
    .where('kind', 'in', ['sessions_ended', 'password_changed'])
    .orderBy('id')
    .execute();

/** How each session stands: its revoke reason, or `live`. */
export async function states(ctx: TestContext, ids: string[]) {
  const rows = await ctx.services.db
    .selectFrom('sessions')
    .select(['id', 'revoked_reason'])
    .where('id', 'in', ids)
    .execute();
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    return row ? (row.revoked_reason ?? 'live') : 'missing';
  });
}

/** Makes the user an administrator of the tenant (she must be a member). */
export async function makeAdministrator(ctx: TestContext, tenantId: number, userId: number) {
  await ctx.services.db
    .updateTable('memberships')
    .set({ is_admin: true })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}
