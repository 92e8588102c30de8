// Ending sessions, by whom and how many: a caller ends only a session of its own (a single sign-on session still
// waiting for its identity provider is bound to no user, and owns only itself), and a password reset or a
// directory's deactivation ends every live session of that user and nobody else's.
import { ApiError } from '../../src/errors';
import { revokeSessionsOf, startSession, startSsoSession } from '../../src/modules/sessions';
import { endSession } from '../../src/modules/sessions/sessions.service';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser } from '../support/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const signedIn = async (userId: number) => (await startSession(ctx.services, userId, { password: 'verified' })).id;
const waitingForProvider = async (tenantId: number) =>
  (await startSsoSession(ctx.services, tenantId, { oidc: 'unverified' })).id;

const states = async (ids: string[]) => {
  const rows = await ctx.services.db
    .selectFrom('sessions')
    .select(['id', 'revoked_reason'])
    .where('id', 'in', ids)
    .execute();
  return Object.fromEntries(ids.map((id) => [id, rows.find((row) => row.id === id)?.revoked_reason ?? 'live']));
};

const unknownSession = expect.objectContaining({ code: 'INVALID_SESSION_ID', message: 'Unknown session' });

describe('a caller bound to no user yet (single sign-on waiting for its provider)', () => {
  test('ends its own session, and no one else’s: neither a user’s nor another waiting one', async () => {
    const tenant = await insertTenant(ctx.services);
    const user = await insertUser(ctx.services, { tenants: [tenant] });
    const [own, other, users] = [
      await waitingForProvider(tenant),
      await waitingForProvider(tenant),
      await signedIn(user.id),
    ];
    const caller = { userId: null, sessionId: own };
    for (const sessionId of [other, users]) {
      const refusal = await endSession(ctx.services, { caller, sessionId }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ApiError);
      expect(refusal).toEqual(unknownSession);
    }
    expect(await states([own, other, users])).toEqual({ [own]: 'live', [other]: 'live', [users]: 'live' });
    await endSession(ctx.services, { caller, sessionId: own });
    expect(await states([own, other, users])).toEqual({ [own]: 'logout', [other]: 'live', [users]: 'live' });
  });

  test('a session that does not exist is unknown, even named as its own', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    await expect(
      endSession(ctx.services, { caller: { userId: null, sessionId: missing }, sessionId: missing }),
    ).rejects.toEqual(unknownSession);
  });
});

test('a user ends any session of their own, the one they call from or another, and not another user’s', async () => {
  const tenant = await insertTenant(ctx.services);
  const [ada, bob] = [
    await insertUser(ctx.services, { tenants: [tenant] }),
    await insertUser(ctx.services, { tenants: [tenant] }),
  ];
  const [phone, laptop, bobs] = [await signedIn(ada.id), await signedIn(ada.id), await signedIn(bob.id)];
  const caller = { userId: ada.id, sessionId: phone };
  await expect(endSession(ctx.services, { caller, sessionId: bobs })).rejects.toEqual(unknownSession);
  // From the phone, the laptop's session: a lost device signed out from another.
  await endSession(ctx.services, { caller, sessionId: laptop });
  expect(await states([phone, laptop, bobs])).toEqual({ [phone]: 'live', [laptop]: 'ended_by_user', [bobs]: 'live' });
  await endSession(ctx.services, { caller, sessionId: phone });
  expect(await states([phone, laptop, bobs])).toEqual({ [phone]: 'logout', [laptop]: 'ended_by_user', [bobs]: 'live' });
});

test('a password reset ends every live session of the user, with its reason, and nobody else’s', async () => {
  const tenant = await insertTenant(ctx.services);
  const [ada, bob] = [
    await insertUser(ctx.services, { tenants: [tenant] }),
    await insertUser(ctx.services, { tenants: [tenant] }),
  ];
  const adas = [await signedIn(ada.id), await signedIn(ada.id)];
  const bobs = await signedIn(bob.id);
  await revokeSessionsOf(ctx.services.db, ada.id, 'password_reset', new Date());
  expect(await states([...adas, bobs])).toEqual({
    [adas[0]]: 'password_reset',
    [adas[1]]: 'password_reset',
    [bobs]: 'live',
  });
});
