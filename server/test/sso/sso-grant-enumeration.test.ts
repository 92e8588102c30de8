// Attack: telling who works at an organisation by the `sso` grant. Anyone may start single sign-on for any address
// at a domain that signs in with SSO; the answer, the statements the server runs and every counter must be the same
// whether the address belongs to an active member of the domain's tenant or not. The session the grant opens is
// bound to no user until the identity provider answers, and may do nothing but that sign-in and end itself.
import type { Server } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { PreparedStatements } from '../../src/db/pglite-prepared';
import { emailHash } from '../../src/security/hashing';
import type { TestContext } from '../support/context';
import { createSsoTestContext, ssoTenant } from '../support/enterprise-fixtures';
import { insertTenant, insertUser, signIn } from '../support/fixtures';
import { listen, type Answer } from '../support/from-address';

let ctx: TestContext;
let server: Server;
let send: (
  from: string,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Answer>;
beforeAll(async () => {
  ctx = await createSsoTestContext();
  ({ server, send } = await listen(ctx.app));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

let next = 10;
/** A fresh loopback address for each request that must not share per-address counters with another. */
const address = () => `127.1.${Math.floor(++next / 250)}.${(next % 250) + 2}`;
const grant = (from: string, email: string) => send(from, 'POST', '/core/v1/sessions', { grantType: 'sso', email });
const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
const claimsOf = (accessToken: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString());

/** An SSO domain's tenant with an active member, and addresses at the domain that are no active member of it. */
async function organisation() {
  const tenant = await ssoTenant(ctx.services, 'oidc');
  const elsewhere = await insertUser(ctx.services, {
    email: `elsewhere@${tenant.domain}`,
    tenants: [await insertTenant(ctx.services)],
  });
  const leaver = await insertUser(ctx.services, { email: `leaver@${tenant.domain}`, tenants: [tenant.tenantId] });
  await ctx.services.db
    .updateTable('memberships')
    .set({ active: false })
    .where('user_id', '=', leaver.id)
    .where('tenant_id', '=', tenant.tenantId)
    .execute();
  return {
    tenant,
    member: tenant.user.email,
    nonMembers: [`ghost-${next}@${tenant.domain}`, elsewhere.email, leaver.email],
  };
}

/** Every statement text sent to the database while `action` runs, in sorted order (values are not compared). */
async function statementsOf(action: () => Promise<unknown>): Promise<string[]> {
  const spies = [
    jest.spyOn(PreparedStatements.prototype, 'run'),
    jest.spyOn(PGlite.prototype, 'query'),
    jest.spyOn(Client.prototype, 'query'),
  ];
  try {
    await action();
    const [prepared, pglite, pg] = spies.map((spy) => spy.mock.calls as unknown[][]);
    return [
      ...prepared.map((call) => String(call[1])),
      ...pglite.map((call) => String(call[0])),
      ...pg.map((call) => (typeof call[0] === 'string' ? call[0] : String((call[0] as { text?: string }).text))),
    ].sort();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** The throttle rows whose key names `from` or one of `hashes`, with both replaced by placeholders. */
async function countersOf(from: string, hashes: string[]) {
  const rows = await ctx.services.db.selectFrom('throttles').select(['key', 'count', 'blocked_until']).execute();
  const named = rows.filter((r) => r.key.includes(from) || hashes.some((h) => r.key.includes(h)));
  return named
    .map((r) => ({
      key: hashes.reduce((key, h) => key.replaceAll(h, 'HASH'), r.key.replaceAll(from, 'ADDRESS')),
      count: r.count,
      blocked: r.blocked_until !== null,
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

describe('attack: telling members of an SSO domain from non-members by the sso grant', () => {
  test('a member and every kind of non-member get the same answer: a pending session bound to nobody yet', async () => {
    const { tenant, member, nonMembers } = await organisation();
    const shapes = [];
    for (const email of [member, ...nonMembers]) {
      const res = await grant(address(), email);
      expect({ email, status: res.status }).toEqual({ email, status: 201 });
      expect(res.body.factors).toEqual({ oidc: 'unverified' });
      const row = await ctx.services.db
        .selectFrom('sessions')
        .select(['user_id', 'sso_tenant_id', 'expires_at', 'created_at'])
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      expect(row.user_id).toBeNull();
      expect(row.sso_tenant_id).toBe(tenant.tenantId);
      // Pending: minutes, as any session waiting for a factor.
      expect(row.expires_at.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
      const claims = claimsOf(res.body.accessToken);
      expect(claims.sub).toBeUndefined();
      shapes.push({
        keys: Object.keys(res.body).sort(),
        claims: Object.keys(claims).sort(),
        factors: res.body.factors,
        tokenLength: res.body.accessToken.length,
      });
    }
    for (const shape of shapes.slice(1)) expect(shape).toEqual(shapes[0]);
  });

  test('an address typed with capitals finds its domain as written in lower case', async () => {
    const { tenant } = await organisation();
    const res = await grant(address(), `Anna.Berg@${tenant.domain.toUpperCase()}`);
    expect(res.status).toBe(201);
    const row = await ctx.services.db
      .selectFrom('sessions')
      .select('sso_tenant_id')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.sso_tenant_id).toBe(tenant.tenantId);
  });

  test('an address at a domain that does not sign in with SSO opens no session, whoever holds it', async () => {
    const { tenant } = await organisation();
    const other = `anna@plain-${next}.test`;
    await insertUser(ctx.services, { email: other, tenants: [tenant.tenantId] });
    for (const email of [other, `ghost@plain-${next}.test`, `anna@hr.${tenant.domain}`]) {
      const res = await grant(address(), email);
      expect({ email, status: res.status, error: res.body.error }).toEqual({
        email,
        status: 400,
        error: expect.objectContaining({
          code: 'INVALID_SSO_CONFIGURATION',
          message: 'This email domain does not sign in with single sign-on here',
        }),
      });
    }
  });

  test('the server runs exactly the same statements for a member as for a non-member', async () => {
    const { member, nonMembers } = await organisation();
    // The first grant compiles and prepares what later ones reuse; compare warm runs only.
    await grant(address(), `warm-up@${member.split('@')[1]}`);
    const ofMember = await statementsOf(() => grant(address(), member));
    expect(ofMember.length).toBeGreaterThan(0);
    for (const email of nonMembers) expect(await statementsOf(() => grant(address(), email))).toEqual(ofMember);
  });

  test('every counter moves the same for a member as for a non-member, and none is given back', async () => {
    const { member, nonMembers } = await organisation();
    const moved = [];
    for (const email of [member, ...nonMembers]) {
      const from = address();
      for (let i = 0; i < 3; i++) expect((await grant(from, email)).status).toBe(201);
      moved.push(await countersOf(from, [emailHash(email)]));
    }
    expect(moved[0].length).toBeGreaterThan(0);
    for (const counters of moved.slice(1)) expect(counters).toEqual(moved[0]);
    // No identity's sign-in failures are touched: the grant proves nothing about anyone.
    for (const email of [member, ...nonMembers]) {
      const hash = emailHash(email);
      const own = await ctx.services.db
        .selectFrom('throttles')
        .select('key')
        .where('key', 'like', `%${hash}%`)
        .execute();
      expect(own).toEqual([]);
    }
  });
});

describe('attack: using a pending SSO session, bound to no user, for anything but its sign-in', () => {
  test('it reads nothing, refreshes nothing, asks for no code and starts no other kind of sign-in', async () => {
    const { tenant, member } = await organisation();
    const { body: session } = await grant(address(), member);
    const as = bearer(session.accessToken);
    const tenants = await send(address(), 'GET', '/core/v1/tenants', undefined, as);
    expect([tenants.status, tenants.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const user = await send(address(), 'GET', `/core/v1/users/${tenant.user.id}`, undefined, {
      ...as,
      'cosafe-tenant-id': String(tenant.tenantId),
    });
    expect([user.status, user.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const refreshed = await send(
      address(),
      'PUT',
      `/core/v1/sessions/${session.id}`,
      undefined,
      bearer(session.refreshToken),
    );
    expect([refreshed.status, refreshed.body.error.code]).toEqual([401, 'INVALID_SESSION']);
    const code = await send(address(), 'POST', `/core/v1/sessions/${session.id}/challenges`, { otpEmail: true }, as);
    expect([code.status, code.body.error.code]).toEqual([400, 'MFA_REQUIRED_BUT_NOT_ENABLED']);
    const saml = await send(
      address(),
      'POST',
      `/core/v1/sessions/${session.id}/challenges`,
      { saml: { redirectUri: 'http://127.0.0.1:5173/login/sso' } },
      as,
    );
    expect([saml.status, saml.body.error.code, saml.body.error.message]).toEqual([
      400,
      'INVALID_SSO_CONFIGURATION',
      'This session does not sign in with saml',
    ]);
  });

  test('it ends itself, and no other session (not even another pending one)', async () => {
    const { member, nonMembers } = await organisation();
    const { body: mine } = await grant(address(), nonMembers[0]);
    const { body: theirs } = await grant(address(), member);
    const other = await send(
      address(),
      'DELETE',
      `/core/v1/sessions/${theirs.id}`,
      undefined,
      bearer(mine.accessToken),
    );
    expect([other.status, other.body.error.code]).toEqual([401, 'INVALID_SESSION_ID']);
    expect(
      (await ctx.services.db.selectFrom('sessions').select('revoked_at').where('id', '=', theirs.id).executeTakeFirst())
        ?.revoked_at,
    ).toBeNull();
    const own = await send(address(), 'DELETE', `/core/v1/sessions/${mine.id}`, undefined, bearer(mine.accessToken));
    expect(own.status).toBe(204);
    const after = await send(address(), 'GET', '/core/v1/tenants', undefined, bearer(mine.accessToken));
    expect([after.status, after.body.error.code]).toEqual([401, 'INVALID_SESSION']);
  });

  test("a token bound to no user opens no user's session, and a user's token opens no pending one", async () => {
    const { tenant, member } = await organisation();
    const bound = await signIn(ctx.services, tenant.user.id);
    const forged = await ctx.services.tokens.sign({ userId: null, sessionId: bound.sessionId, pending: true });
    const res = await send(address(), 'GET', '/core/v1/tenants', undefined, bearer(forged));
    expect([res.status, res.body.error.code]).toEqual([401, 'INVALID_SESSION']);
    const { body: pending } = await grant(address(), member);
    const claimed = await ctx.services.tokens.sign({ userId: tenant.user.id, sessionId: pending.id, pending: true });
    const challenge = await send(
      address(),
      'POST',
      `/core/v1/sessions/${pending.id}/challenges`,
      { otpEmail: true },
      bearer(claimed),
    );
    expect([challenge.status, challenge.body.error.code]).toEqual([401, 'INVALID_SESSION']);
  });
});
