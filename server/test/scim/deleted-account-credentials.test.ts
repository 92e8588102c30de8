// Attack: an account removed by its directory (SCIM DELETE of its last membership) is provisioned again with the
// same address, and whoever knew its old password or held its old passkey signs in as the new person.
import request from 'supertest';
import type { TestContext } from '../support/context';
import { createTestContext } from '../support/context';
import { insertTenant, insertUser, signIn, v1 } from '../support/fixtures';
import { goodPassword, goodPasswordHash } from '../support/sign-in';
import { enrol, freshAddress, signInWithPasskey } from '../support/passkeys';
import { entraUser, scim, scimKey } from '../support/scim-client';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

async function directoryTenant() {
  const tenantId = await insertTenant(ctx.services);
  const admin = await insertUser(ctx.services, { tenants: [tenantId] });
  await ctx.services.db.updateTable('memberships').set({ is_admin: true }).where('user_id', '=', admin.id).execute();
  const adminToken = (await signIn(ctx.services, admin.id)).accessToken;
  return { tenantId, client: scim(ctx, await scimKey(ctx, { tenantId, adminToken })) };
}

const passwordSignIn = (email: string) =>
  request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .set('x-forwarded-for', freshAddress())
    .send({ grantType: 'password', email, password: goodPassword });

describe('a deleted account comes back with its credentials', () => {
  test('after SCIM DELETE and provisioning the same address again, the old password and the old passkey are both refused', async () => {
    const t = await directoryTenant();
    const email = `returning-${Date.now().toString(36)}@example.test`;
    const { body: user } = await t.client.post('/Users', entraUser(email));
    const userId = Number(user.id);
    await ctx.services.db
      .updateTable('users')
      .set({ password_hash: await goodPasswordHash() })
      .where('id', '=', userId)
      .execute();
    const session = await signIn(ctx.services, userId);
    const { res: added, authenticator } = await enrol(ctx, session);
    expect(added.status).toBe(201);
    // Both work before the delete: the attack needs them.
    expect((await passwordSignIn(email)).status).toBe(201);
    expect((await signInWithPasskey(ctx, authenticator)).status).toBe(201);

    expect((await t.client.delete(`/Users/${user.id}`)).status).toBe(204);
    const again = await t.client.post('/Users', entraUser(email));
    expect(again.status).toBe(201);

    const byPassword = await passwordSignIn(email);
    expect(byPassword.status).toBe(401);
    expect(byPassword.body.error.code).toBe('INVALID_CREDENTIALS');
    const byPasskey = await signInWithPasskey(ctx, authenticator);
    expect(byPasskey.status).toBe(401);
    expect(byPasskey.body.error.code).toBe('INVALID_CREDENTIALS');

    // It starts with none: no password, no passkey, no session or refresh token of the old account.
    const db = ctx.services.db;
    const account = await db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirst();
    expect(account?.password_hash ?? null).toBeNull();
    expect(await db.selectFrom('passkeys').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(await db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(
      await db
        .selectFrom('refresh_tokens')
        .select('token_hash')
        .where('session_id', 'in', [session.sessionId])
        .execute(),
    ).toEqual([]);
  });

  test('a delete that leaves another membership keeps the credentials (the account is still someone’s)', async () => {
    const a = await directoryTenant();
    const b = await directoryTenant();
    const email = `shared-${Date.now().toString(36)}@example.test`;
    const { body: user } = await a.client.post('/Users', entraUser(email));
    await ctx.services.db
      .insertInto('memberships')
      .values({ tenant_id: b.tenantId, user_id: Number(user.id), permissions: JSON.stringify({}) })
      .execute();
    await ctx.services.db
      .updateTable('users')
      .set({ password_hash: await goodPasswordHash() })
      .where('id', '=', Number(user.id))
      .execute();
    expect((await a.client.delete(`/Users/${user.id}`)).status).toBe(204);
    expect((await passwordSignIn(email)).status).toBe(201);
  });
});
