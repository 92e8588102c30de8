// The shared steps of every single sign-on: whose session a challenge or answer may name, what a pending session may
// still start, and the moment the verified answer binds the session to the asserted user, which must be while the
// session still lives.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../src/errors';
import { emailHash } from '../../src/security/hashing';
import type { SessionCaller } from '../../src/shared/caller';
import { completeSsoSession, ssoTargetOf } from '../../src/modules/sso/sso-sessions';
import { findUserIdByEmailHash } from '../../src/modules/sso/sso.repository';
import type { TestContext } from '../support/context';
import { insertTenant, insertUser } from '../support/fixtures';
import {
  challenge,
  createSsoTestContext,
  pkce,
  ssoPage,
  ssoSession,
  ssoTenant,
  verify,
} from '../support/enterprise-fixtures';

let ctx: TestContext;
/** The server's clock: the real time unless a test holds it at an instant. */
let heldAt: Date | undefined;

beforeAll(async () => {
  ctx = await createSsoTestContext({ now: () => heldAt ?? new Date() });
});
afterEach(() => {
  heldAt = undefined;
});
afterAll(async () => {
  await ctx.close();
});

const oidcChallenge = (redirectUri = ssoPage) => ({
  oidc: { codeChallenge: pkce().challenge, codeChallengeMethod: 'S256', redirectUri, state: 'state' },
});

const sessionRow = (id: string) =>
  ctx.services.db
    .selectFrom('sessions')
    .select(['user_id', 'factors', 'expires_at', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('a challenge or an answer naming a session', () => {
  test("another pending session's id in the path: 401 INVALID_SESSION_ID, Unknown session", async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const mine = await ssoSession(ctx, tenant.user.email);
    const theirs = await ssoSession(ctx, tenant.admin.email);
    const asMine = { id: theirs.id, accessToken: mine.accessToken };
    for (const res of [
      await challenge(ctx, asMine, oidcChallenge()),
      await verify(ctx, asMine, { oidc: { authorizationCode: 'code', codeVerifier: pkce().verifier, state: 's' } }),
    ]) {
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
        401,
        'INVALID_SESSION_ID',
        'Unknown session',
      ]);
    }
    expect(
      await ctx.services.db.selectFrom('sso_challenges').select('id').where('session_id', '=', theirs.id).execute(),
    ).toEqual([]);
  });

  test('a redirect URI off the allow-list: 400 INVALID_REDIRECT_URI, with why', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const session = await ssoSession(ctx, tenant.user.email);
    const res = await challenge(ctx, session, oidcChallenge('http://127.0.0.1:5173/login/other'));
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      400,
      'INVALID_REDIRECT_URI',
      'The redirect URI is not allowed',
    ]);
  });

  test('a kind of sign-in the session does not wait for: 400 INVALID_SSO_CONFIGURATION, naming the kind', async () => {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const session = await ssoSession(ctx, tenant.user.email);
    const res = await challenge(ctx, session, { skolon: oidcChallenge().oidc });
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      400,
      'INVALID_SSO_CONFIGURATION',
      'This session does not sign in with skolon',
    ]);
  });

  test('a session whose factor is verified already starts no second sign-in of that kind', async () => {
    const tenantId = await insertTenant(ctx.services);
    const auth: SessionCaller = {
      userId: null,
      sessionId: randomUUID(),
      factors: { oidc: 'verified' },
      permissions: null,
      ssoTenantId: tenantId,
    };
    const refused = ssoTargetOf(ctx.services, auth, auth.sessionId, 'oidc', ssoPage);
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      code: 'AUTHORIZATION_CODE_NOT_FOUND',
      message: 'This session has already signed in with oidc',
    });
    const waiting = { ...auth, factors: { oidc: 'unverified' as const } };
    await expect(ssoTargetOf(ctx.services, waiting, auth.sessionId, 'oidc', ssoPage)).resolves.toEqual({
      tenantId,
      kind: 'oidc',
    });
  });
});

describe("binding the session to the asserted user, at the answer's instant", () => {
  async function pending() {
    const tenant = await ssoTenant(ctx.services, 'oidc');
    const session = await ssoSession(ctx, tenant.user.email);
    return { tenant, session, expiresAt: (await sessionRow(session.id)).expires_at };
  }

  const ended = { code: 'INVALID_SESSION', message: 'The session has ended' };

  test('the last millisecond before the session expires, it is bound and verified', async () => {
    const { tenant, session, expiresAt } = await pending();
    heldAt = new Date(expiresAt.getTime() - 1);
    const body = await completeSsoSession(ctx.services, session.id, 'oidc', tenant.user.id);
    expect(body).toMatchObject({ id: session.id, factors: { oidc: 'verified' } });
    expect(await sessionRow(session.id)).toMatchObject({ user_id: tenant.user.id, factors: { oidc: 'verified' } });
  });

  test.each([
    ['at the exact instant it expires', 0],
    ['after it expired', 60_000],
  ])('%s: refused, The session has ended, nobody bound', async (_, late) => {
    const { tenant, session, expiresAt } = await pending();
    heldAt = new Date(expiresAt.getTime() + late);
    await expect(completeSsoSession(ctx.services, session.id, 'oidc', tenant.user.id)).rejects.toMatchObject(ended);
    expect(await sessionRow(session.id)).toMatchObject({ user_id: null, factors: { oidc: 'unverified' } });
  });

  test('a session ended (logged out) meanwhile: refused, nobody bound', async () => {
    const { tenant, session } = await pending();
    await ctx.services.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', session.id)
      .execute();
    await expect(completeSsoSession(ctx.services, session.id, 'oidc', tenant.user.id)).rejects.toMatchObject(ended);
    expect(await sessionRow(session.id)).toMatchObject({ user_id: null, factors: { oidc: 'unverified' } });
  });

  test('a session that does not exist: refused', async () => {
    const { tenant } = await pending();
    await expect(completeSsoSession(ctx.services, randomUUID(), 'oidc', tenant.user.id)).rejects.toMatchObject(ended);
  });
});

describe('looking up an asserted address', () => {
  test("the account's id for an address anyone holds, nothing for one nobody holds", async () => {
    const user = await insertUser(ctx.services, { tenants: [await insertTenant(ctx.services)] });
    expect(await findUserIdByEmailHash(ctx.services.db, emailHash(user.email))).toEqual({ id: user.id });
    expect(await findUserIdByEmailHash(ctx.services.db, emailHash(`nobody-${user.email}`))).toBeUndefined();
  });
});
