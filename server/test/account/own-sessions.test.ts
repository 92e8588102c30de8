// A user sees where she is signed in and ends what she does not recognise (issue 44): her live sessions with a coarse
// device and network, hers marked; "end" on one, "end all others"; never another user's session, never a full
// address. Each ending she makes of another session is a security event by her.
import request from 'supertest';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { insertUserWithPassword, refreshSession } from '../support/sign-in';
import { startSession } from '../../src/modules/sessions';
import { auth, eventsOf, firefoxOnWindows, freshIpv4, safariOnIphone, signInFrom, states } from './support';
import { authenticationOptions, userWithPasskey } from '../support/passkeys';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

async function member() {
  const tenant = await insertTenant(ctx.services);
  return insertUserWithPassword(ctx.services, { tenants: [tenant] });
}

const list = (who: { accessToken: string }, query = '') =>
  request(ctx.app).get(`/core/v1/sessions${query}`).set(auth(who));

test('lists her live sessions, the most recently used first: device and coarse network from the sign-in, how it signed in, hers marked', async () => {
  const user = await member();
  const laptop = await signInFrom(ctx, user.email, { ip: '198.51.100.77', userAgent: firefoxOnWindows });
  const phone = await signInFrom(ctx, user.email, { ip: '2001:db8:4a2b:17:1:2:3:4', userAgent: safariOnIphone });
  const res = await list(laptop);
  expect(res.status).toBe(200);
  expect(res.body.pagination).toEqual({ totalCount: 2, offset: 0, limit: 10 });
  const byId = Object.fromEntries(res.body.data.map((s: { id: string }) => [s.id, s]));
  expect(byId[laptop.id]).toMatchObject({
    current: true,
    signedInWith: ['password'],
    device: { type: 'desktop', browser: 'Firefox', os: 'Windows' },
    network: '198.51.100.0/24',
  });
  expect(byId[phone.id]).toMatchObject({
    current: false,
    device: { type: 'mobile', browser: 'Safari', os: 'iOS' },
    network: '2001:db8:4a2b::/48',
  });
  // Never the full address, in any field.
  expect(JSON.stringify(res.body)).not.toMatch(/198\.51\.100\.77|2001:db8:4a2b:17/);
  // The phone signed in last, so it was used last.
  expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([phone.id, laptop.id]);
});

test('leaves out sessions that ended, expired or still wait for a factor, and other users’ sessions', async () => {
  const user = await member();
  const other = await member();
  const current = await signInFrom(ctx, user.email);
  const ended = await signInFrom(ctx, user.email);
  await request(ctx.app).delete(`/core/v1/sessions/${ended.id}`).set(auth(ended)).expect(204);
  await startSession(ctx.services, user.id, { password: 'verified', otpEmail: 'unverified' });
  const expired = await startSession(ctx.services, user.id, { password: 'verified' });
  await ctx.services.db
    .updateTable('sessions')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('id', '=', expired.id)
    .execute();
  await signInFrom(ctx, other.email);
  const res = await list(current);
  expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([current.id]);
  expect(res.body.pagination.totalCount).toBe(1);
});

test('a session started without a known client (before this was recorded) shows an unknown device and no network', async () => {
  const user = await member();
  const current = await signInFrom(ctx, user.email);
  const older = await startSession(ctx.services, user.id, { coalert: 'verified' });
  const res = await list(current);
  const row = res.body.data.find((s: { id: string }) => s.id === older.id);
  expect(row).toMatchObject({
    signedInWith: ['coalert'],
    device: { type: 'unknown', browser: null, os: null },
    network: null,
  });
});

test('a passkey sign-in keeps its device and network too, and says it signed in with a passkey', async () => {
  const holder = await userWithPasskey(ctx);
  const options = await authenticationOptions(ctx);
  const res = await request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .set('x-forwarded-for', '192.0.2.200')
    .set('user-agent', safariOnIphone)
    .send({ grantType: 'passkey', credential: holder.authenticator.authenticate(options.body) });
  expect(res.status).toBe(201);
  const listed = await list(res.body);
  expect(listed.body.data.find((s: { id: string }) => s.id === res.body.id)).toMatchObject({
    current: true,
    signedInWith: ['passkey'],
    device: { type: 'mobile', browser: 'Safari', os: 'iOS' },
    network: '192.0.2.0/24',
  });
});

test('pages with limit and offset, the total over all pages', async () => {
  const user = await member();
  const current = await signInFrom(ctx, user.email);
  for (let i = 0; i < 3; i++) await signInFrom(ctx, user.email);
  const res = await list(current, '?limit=2&offset=1');
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(2);
  expect(res.body.pagination).toEqual({ totalCount: 4, offset: 1, limit: 2 });
});

describe('ending one session', () => {
  test('she ends another session of hers (a lost phone): its tokens stop at once, and the event says she did', async () => {
    const user = await member();
    const laptop = await signInFrom(ctx, user.email);
    const phone = await signInFrom(ctx, user.email, { userAgent: safariOnIphone });
    const res = await request(ctx.app)
      .delete(`/core/v1/sessions/${phone.id}`)
      .set(auth(laptop))
      .set('x-forwarded-for', '192.0.2.44')
      .set('user-agent', firefoxOnWindows);
    expect(res.status).toBe(204);
    expect(await states(ctx, [laptop.id, phone.id])).toEqual(['live', 'ended_by_user']);
    expect((await list(phone)).status).toBe(401);
    expect((await refreshSession(ctx, phone.id, phone.refreshToken)).status).toBe(401);
    expect(await eventsOf(ctx, user.id)).toContainEqual(
      expect.objectContaining({
        kind: 'sessions_ended',
        actor_type: 'self',
        actor_user_id: user.id,
        network: '192.0.2.0/24',
        details: { count: 1, reason: 'one' },
      }),
    );
    // Again: it has ended already, the same answer, no second event.
    expect((await request(ctx.app).delete(`/core/v1/sessions/${phone.id}`).set(auth(laptop))).status).toBe(204);
    expect((await eventsOf(ctx, user.id)).filter((e) => e.kind === 'sessions_ended')).toHaveLength(1);
  });

  test('attack: another user’s session id is ended by no one but its owner (401 INVALID_SESSION_ID, as an unknown id)', async () => {
    const attacker = await member();
    const victim = await member();
    const mine = await signInFrom(ctx, attacker.email);
    const theirs = await signInFrom(ctx, victim.email);
    const res = await request(ctx.app).delete(`/core/v1/sessions/${theirs.id}`).set(auth(mine));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION_ID');
    const unknown = await request(ctx.app)
      .delete('/core/v1/sessions/00000000-0000-4000-8000-000000000000')
      .set(auth(mine));
    expect(unknown.body).toEqual(res.body);
    expect(await states(ctx, [theirs.id])).toEqual(['live']);
    expect(await eventsOf(ctx, victim.id)).toEqual([]);
  });

  test('a logout (her own session) is no security event', async () => {
    const user = await member();
    const session = await signInFrom(ctx, user.email);
    await request(ctx.app).delete(`/core/v1/sessions/${session.id}`).set(auth(session)).expect(204);
    expect(await states(ctx, [session.id])).toEqual(['logout']);
    expect(await eventsOf(ctx, user.id)).toEqual([]);
  });
});

describe('ending all others', () => {
  test('ends every other session of hers (one still waiting for a factor too), keeps hers, says how many, one event', async () => {
    const user = await member();
    const other = await member();
    const current = await signInFrom(ctx, user.email);
    const a = await signInFrom(ctx, user.email);
    const b = await signInFrom(ctx, user.email);
    const waiting = await startSession(ctx.services, user.id, { password: 'verified', otpEmail: 'unverified' });
    const bystander = await signInFrom(ctx, other.email);
    const res = await request(ctx.app)
      .delete('/core/v1/sessions?others=true')
      .set(auth(current))
      .set('x-forwarded-for', freshIpv4());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: 3 });
    expect(await states(ctx, [current.id, a.id, b.id, waiting.id, bystander.id])).toEqual([
      'live',
      'ended_by_user',
      'ended_by_user',
      'ended_by_user',
      'live',
    ]);
    expect((await list(current)).body.data.map((s: { id: string }) => s.id)).toEqual([current.id]);
    expect(await eventsOf(ctx, user.id)).toEqual([
      expect.objectContaining({ kind: 'sessions_ended', actor_type: 'self', details: { count: 3, reason: 'others' } }),
    ]);
    // Nothing left to end: 0, and no event.
    expect((await request(ctx.app).delete('/core/v1/sessions?others=true').set(auth(current))).body).toEqual({
      ended: 0,
    });
    expect(await eventsOf(ctx, user.id)).toHaveLength(1);
  });

  test('a bare DELETE /sessions ends nothing (400 BAD_REQUEST): "others" must be said', async () => {
    const user = await member();
    const current = await signInFrom(ctx, user.email);
    const other = await signInFrom(ctx, user.email);
    for (const query of ['', '?others=false']) {
      const res = await request(ctx.app).delete(`/core/v1/sessions${query}`).set(auth(current));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
    expect(await states(ctx, [current.id, other.id])).toEqual(['live', 'live']);
  });

  test('without a session it is refused (401), and a session waiting for its second factor may not (403)', async () => {
    expect((await request(ctx.app).delete('/core/v1/sessions?others=true').set(v1)).status).toBe(401);
    const user = await member();
    const pending = await startSession(ctx.services, user.id, { password: 'verified', otpEmail: 'unverified' });
    const res = await request(ctx.app).delete('/core/v1/sessions?others=true').set(auth(pending));
    expect(res.status).toBe(403);
    expect((await request(ctx.app).get('/core/v1/sessions').set(auth(pending))).status).toBe(403);
  });
});
