// Passkeys' security events: added and removed (in the transaction of the change), and passkey sign-ins.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import {
  bearer,
  enrol,
  passkeyGrant,
  authenticationOptions,
  signedInUser,
  signInWithPasskey,
} from '../support/passkeys';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const eventsOf = (userId: number) =>
  ctx.services.db
    .selectFrom('security_events')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'asc')
    .execute();

describe('passkey events', () => {
  test("passkey_added and passkey_removed: by the user, with the passkey's name and her client", async () => {
    const who = await signedInUser(ctx);
    const { res } = await enrol(ctx, who, undefined, { name: 'Work key' });
    expect(res.status).toBe(201);
    const removed = await request(ctx.app)
      .delete(`/core/v1/passkeys/${res.body.id}`)
      .set(bearer(who))
      .set('user-agent', 'Laptop/3');
    expect(removed.status).toBe(204);
    const events = await eventsOf(who.userId);
    expect(events.map((e) => [e.kind, e.actor_type, e.details.passkeyName])).toEqual([
      ['passkey_added', 'self', 'Work key'],
      ['passkey_removed', 'self', 'Work key'],
    ]);
    expect(events[1]!.user_agent).toBe('Laptop/3');
  });

  test('removing a passkey that is not hers records nothing', async () => {
    const owner = await signedInUser(ctx);
    const { res } = await enrol(ctx, owner);
    const other = await signedInUser(ctx);
    expect((await request(ctx.app).delete(`/core/v1/passkeys/${res.body.id}`).set(bearer(other))).status).toBe(404);
    expect(await eventsOf(other.userId)).toEqual([]);
    expect((await eventsOf(owner.userId)).map((e) => e.kind)).toEqual(['passkey_added']);
  });

  test('sign_in_succeeded by passkey, written with the session; sign_in_failed for an assertion that does not verify', async () => {
    const who = await signedInUser(ctx);
    const { authenticator } = await enrol(ctx, who);
    expect((await signInWithPasskey(ctx, authenticator)).status).toBe(201);
    const options = await authenticationOptions(ctx);
    const bad = await passkeyGrant(ctx, authenticator.authenticate(options.body, { uv: false }));
    expect(bad.status).toBe(401);
    expect((await eventsOf(who.userId)).map((e) => [e.kind, e.details.method ?? null])).toEqual([
      ['passkey_added', null],
      ['sign_in_succeeded', 'passkey'],
      ['sign_in_failed', 'passkey'],
    ]);
  });
});
