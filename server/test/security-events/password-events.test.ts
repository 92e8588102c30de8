// Password events and the rule every event keeps: written in the transaction of what it records, so a change that
// fails after its event leaves neither, and an event that cannot be written leaves no change.
import { sql } from 'kysely';
import request from 'supertest';
import { createPasswordToken } from '../../src/modules/passwords/passwords.service';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { enrol, signedInUser } from '../support/passkeys';
import { goodPasswordHash, insertUserWithPassword } from '../support/sign-in';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const newPassword = 'Brand-New-Pass-42!';
const reset = (userId: number, token: string) =>
  request(ctx.app)
    .post(`/core/v1/users/${userId}/password-reset`)
    .set(v1)
    .set('x-forwarded-for', '2001:db8:aa:bb::1')
    .send({ token, newPassword });
const eventsOf = (userId: number) =>
  ctx.services.db
    .selectFrom('security_events')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'asc')
    .execute();
const hashOf = async (userId: number) =>
  (await ctx.services.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow())
    .password_hash;

describe('password events', () => {
  test('password_reset through the emailed link, with the passkeys it removed; the network is the IPv6 /48', async () => {
    const who = await signedInUser(ctx, { passwordHash: await goodPasswordHash() });
    expect((await enrol(ctx, who)).res.status).toBe(201);
    const token = await createPasswordToken(ctx.services, who.userId, 'reset');
    expect((await reset(who.userId, token)).status).toBe(204);
    const events = await eventsOf(who.userId);
    expect(events.map((e) => [e.kind, e.actor_type, e.details])).toEqual([
      ['passkey_added', 'self', expect.any(Object)],
      ['password_reset', 'self', { reason: 'emailed_link' }],
      ['passkey_removed', 'system', { reason: 'password_reset', count: 1 }],
    ]);
    expect(events[1]!.network).toBe('2001:db8:aa::/48');
    expect(JSON.stringify(events)).not.toContain(newPassword);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  test('a first password set through an invitation link is recorded as password_changed (first_password)', async () => {
    const user = await insertUserWithPassword(ctx.services, {
      tenants: [await insertTenant(ctx.services)],
      passwordHash: null,
    });
    const token = await createPasswordToken(ctx.services, user.id, 'set');
    const res = await request(ctx.app)
      .post(`/core/v1/users/${user.id}/password-set`)
      .set(v1)
      .send({ token, password: newPassword });
    expect(res.status).toBe(204);
    expect((await eventsOf(user.id)).map((e) => [e.kind, e.details.reason])).toEqual([
      ['password_changed', 'first_password'],
    ]);
  });
});

describe('attack: a change without its event, or an event without its change', () => {
  afterEach(async () => {
    await sql`drop trigger if exists refuse_event on security_events`.execute(ctx.services.db);
    await sql`drop trigger if exists refuse_at_commit on users`.execute(ctx.services.db);
  });

  test('when the event cannot be written, the reset is not made either (the old password stays, the link stays unused)', async () => {
    const user = await insertUserWithPassword(ctx.services, { tenants: [await insertTenant(ctx.services)] });
    const before = await hashOf(user.id);
    const token = await createPasswordToken(ctx.services, user.id, 'reset');
    await sql`create or replace function refuse_security_event() returns trigger language plpgsql as $$
      begin raise exception 'no events today'; end $$`.execute(ctx.services.db);
    await sql`create trigger refuse_event before insert on security_events for each row execute function refuse_security_event()`.execute(
      ctx.services.db,
    );
    const res = await reset(user.id, token);
    expect(res.status).toBe(500);
    expect(res.body.status).toBe('error');
    expect(await hashOf(user.id)).toBe(before);
    const row = await ctx.services.db
      .selectFrom('password_tokens')
      .select('used_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.used_at).toBeNull();
  });

  test('when the change fails after its event was inserted (at commit), neither the change nor the event stays', async () => {
    const user = await insertUserWithPassword(ctx.services, { tenants: [await insertTenant(ctx.services)] });
    const before = await hashOf(user.id);
    const token = await createPasswordToken(ctx.services, user.id, 'reset');
    await sql`create or replace function refuse_user_change() returns trigger language plpgsql as $$
      begin raise exception 'the change fails at commit'; end $$`.execute(ctx.services.db);
    await sql`create constraint trigger refuse_at_commit after update on users deferrable initially deferred
      for each row execute function refuse_user_change()`.execute(ctx.services.db);
    const res = await reset(user.id, token);
    expect(res.status).toBe(500);
    expect(await hashOf(user.id)).toBe(before);
    expect(await eventsOf(user.id)).toEqual([]);
  });
});
