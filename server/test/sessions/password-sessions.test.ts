import request from 'supertest';
import argon2 from 'argon2';
import { emailHash } from '../../src/security/hashing';
import { currentHashPrefix, needsRehash, passwordHashOptions } from '../../src/security/passwords';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, insertUser, v1 } from '../support/fixtures';
import { goodPassword, insertUserWithPassword, movableClock } from '../support/sign-in';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now, env: { TRUST_PROXY: '1' } });
});
afterAll(() => ctx.close());

const login = (email: string, password: string, ip = '10.0.0.1') =>
  request(ctx.app)
    .post('/core/v1/sessions')
    .set(v1)
    .set('x-forwarded-for', ip)
    .send({ grantType: 'password', email, password });

describe('POST /core/v1/sessions (grantType password)', () => {
  test('with the right password and no second factor, answers 201 with tokens and the password factor verified', async () => {
    const tenant = await insertTenant(ctx.services);
    const user = await insertUserWithPassword(ctx.services, { tenants: [tenant] });
    const res = await login(user.email.toUpperCase(), goodPassword);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      accessToken: expect.any(String),
      refreshToken: expect.stringMatching(/^rt_[A-Za-z0-9_-]{43}$/),
      factors: { password: 'verified' },
    });
    const stored = await ctx.services.db
      .selectFrom('sessions')
      .select('refresh_token_hash')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.refresh_token_hash).toEqual(expect.any(String));
    expect(stored.refresh_token_hash).not.toContain(res.body.refreshToken.slice(3));
    // The access token works for the session's own operations.
    const logout = await request(ctx.app)
      .delete(`/core/v1/sessions/${res.body.id}`)
      .set(v1)
      .set('authorization', `Bearer ${res.body.accessToken}`);
    expect(logout.status).toBe(204);
  });

  test('when the user has an email second factor, it is listed unverified', async () => {
    const user = await insertUserWithPassword(ctx.services, { otpEmail: true });
    const res = await login(user.email, goodPassword);
    expect(res.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
  });

  test('when the user has email and SMS second factors, both are listed unverified', async () => {
    const user = await insertUserWithPassword(ctx.services, { otpEmail: true, otpSms: true, phone: '+46700000001' });
    const res = await login(user.email, goodPassword);
    expect(res.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified', otpSms: 'unverified' });
  });

  test("every second factor at once is listed in the contract's order: email, SMS, then passkey", async () => {
    const user = await insertUserWithPassword(ctx.services, { otpEmail: true, otpSms: true, phone: '+46700000003' });
    await ctx.services.db
      .insertInto('passkeys')
      .values({
        id: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
        user_id: user.id,
        credential_id: 'factor-order-credential',
        public_key: Buffer.from('not used here'),
        aaguid: '00000000-0000-0000-0000-000000000000',
        device_type: 'multiDevice',
        name: 'Laptop',
      })
      .execute();
    const res = await login(user.email, goodPassword);
    expect(Object.entries(res.body.factors)).toEqual([
      ['password', 'verified'],
      ['otpEmail', 'unverified'],
      ['otpSms', 'unverified'],
      ['passkey', 'unverified'],
    ]);
  });

  test('unknown email, wrong password and no password set answer the identical 401 INVALID_CREDENTIALS', async () => {
    const withPassword = await insertUserWithPassword(ctx.services);
    const withoutPassword = await insertUser(ctx.services, { passwordHash: null });
    const answers = await Promise.all([
      login('nobody-here@example.test', goodPassword, '10.0.1.1'),
      login(withPassword.email, 'Wrong-Password-1!', '10.0.1.2'),
      login(withoutPassword.email, goodPassword, '10.0.1.3'),
    ]);
    for (const res of answers) expect(res.status).toBe(401);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(answers[2].body).toEqual(answers[0].body);
    expect(answers[0].body.error).toEqual({
      httpStatus: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'Email or password is incorrect',
    });
  });

  test('an unknown email costs one argon2 verification, like a known one', async () => {
    const spy = jest.spyOn(argon2, 'verify');
    await login('nobody-else@example.test', goodPassword, '10.0.2.1');
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  test('after 5 failures from one address the account is locked there with growing waits, even for the right password', async () => {
    const user = await insertUserWithPassword(ctx.services);
    for (let i = 0; i < 6; i++) expect((await login(user.email, 'Wrong-Password-1!', '10.0.3.1')).status).toBe(401);
    const blocked = await login(user.email, goodPassword, '10.0.3.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('TOO_MANY_REQUESTS');
    const until = new Date(blocked.body.error.unavailableUntil).getTime();
    expect(until - clock.now().getTime()).toBeGreaterThan(20_000);
    expect(until - clock.now().getTime()).toBeLessThanOrEqual(30_000);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    clock.advance(31_000);
    expect((await login(user.email, 'Wrong-Password-1!', '10.0.3.1')).status).toBe(401);
    const second = await login(user.email, goodPassword, '10.0.3.1');
    expect(second.status).toBe(429);
    expect(new Date(second.body.error.unavailableUntil).getTime() - clock.now().getTime()).toBeGreaterThan(50_000);

    clock.advance(61_000);
    expect((await login(user.email, goodPassword, '10.0.3.1')).status).toBe(201);
  });

  test('failures from one address lock that address out across accounts', async () => {
    for (let i = 0; i < 21; i++) await login(`spray-${i}@example.test`, 'Wrong-Password-1!', '10.9.9.9');
    const user = await insertUserWithPassword(ctx.services);
    const res = await login(user.email, goodPassword, '10.9.9.9');
    expect(res.status).toBe(429);
    expect((await login(user.email, goodPassword, '10.9.9.10')).status).toBe(201);
  });

  test('passwords are hashed with argon2id at m=19456, t=2, p=1, and older hashes are upgraded at login', async () => {
    const weak = await argon2.hash(goodPassword, {
      type: argon2.argon2id,
      memoryCost: 4096,
      timeCost: 1,
      parallelism: 1,
    });
    const user = await insertUser(ctx.services, { passwordHash: weak });
    expect((await login(user.email, goodPassword, '10.0.4.1')).status).toBe(201);
    const row = await ctx.services.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$/);
    expect(row.password_hash!.split('$')[3].split(',').sort()).toEqual(['m=19456', 'p=1', 't=2']);
    expect(await argon2.verify(row.password_hash!, goodPassword)).toBe(true);
  });

  test('a probe followed by a sign-in with the same credentials pays argon2 once', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const spy = jest.spyOn(argon2, 'verify');
    const probe = await request(ctx.app)
      .post(`/core/v1/probes/hash/${emailHash(user.email)}`)
      .set(v1)
      .set('x-forwarded-for', '10.0.5.1')
      .send({ password: goodPassword });
    expect(probe.body.available).toBe(true);
    expect((await login(user.email, goodPassword, '10.0.5.1')).status).toBe(201);
    expect(spy).toHaveBeenCalledTimes(1);
    // The proof is single-use: another sign-in verifies again.
    expect((await login(user.email, goodPassword, '10.0.5.1')).status).toBe(201);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  const probe = (email: string, password: string, ip: string) =>
    request(ctx.app)
      .post(`/core/v1/probes/hash/${emailHash(email)}`)
      .set(v1)
      .set('x-forwarded-for', ip)
      .send({ password });

  test('a proof is worthless once the password changed: the old password no longer signs in', async () => {
    const user = await insertUserWithPassword(ctx.services);
    expect((await probe(user.email, goodPassword, '10.0.7.1')).body.available).toBe(true);
    const newHash = await argon2.hash('Another-Password-2!', {
      type: argon2.argon2id,
      memoryCost: 19456,
      timeCost: 2,
      parallelism: 1,
    });
    await ctx.services.db.updateTable('users').set({ password_hash: newHash }).where('id', '=', user.id).execute();
    const spy = jest.spyOn(argon2, 'verify');
    expect((await login(user.email, goodPassword, '10.0.7.1')).status).toBe(401);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    // The proof was claimed by that attempt: it is gone.
    expect(await ctx.services.db.selectFrom('verified_credentials').selectAll().execute()).toEqual([]);
  });

  test('a proof lasts a minute: after that the sign-in verifies the password again', async () => {
    const user = await insertUserWithPassword(ctx.services);
    expect((await probe(user.email, goodPassword, '10.0.8.1')).body.available).toBe(true);
    clock.advance(61_000);
    const spy = jest.spyOn(argon2, 'verify');
    expect((await login(user.email, goodPassword, '10.0.8.1')).status).toBe(201);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  test('a proof does not get past a lockout, and a proof of one account does not sign in another', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const other = await insertUserWithPassword(ctx.services);
    expect((await probe(user.email, goodPassword, '10.0.9.1')).body.available).toBe(true);
    const spy = jest.spyOn(argon2, 'verify');
    // Same password, another account: its own argon2 verify decides.
    expect((await login(other.email, goodPassword, '10.0.9.2')).status).toBe(201);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    for (let i = 0; i < 6; i++) await login(user.email, 'Wrong-Password-1!', '10.0.9.1');
    const locked = await login(user.email, goodPassword, '10.0.9.1');
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('TOO_MANY_REQUESTS');
  });

  test('a probe with a wrong password leaves no proof', async () => {
    const user = await insertUserWithPassword(ctx.services);
    await request(ctx.app)
      .post(`/core/v1/probes/hash/${emailHash(user.email)}`)
      .set(v1)
      .set('x-forwarded-for', '10.0.6.1')
      .send({ password: 'Wrong-Password-1!' });
    expect((await login(user.email, 'Wrong-Password-1!', '10.0.6.1')).status).toBe(401);
  });
});

describe('rehash on login when the parameters change', () => {
  const storedHash = async (id: number) =>
    (await ctx.services.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow())
      .password_hash!;

  test("a hash made with older parameters is replaced by one with today's at the next successful login, and still signs in", async () => {
    const old = await argon2.hash(goodPassword, {
      type: argon2.argon2id,
      memoryCost: 8192,
      timeCost: 1,
      parallelism: 1,
    });
    const user = await insertUser(ctx.services, { passwordHash: old });
    expect(needsRehash(old)).toBe(true);
    expect((await login(user.email, 'Wrong-Password-1!', '10.0.9.1')).status).toBe(401);
    expect(await storedHash(user.id)).toBe(old); // a failed login changes nothing
    expect((await login(user.email, goodPassword, '10.0.9.2')).status).toBe(201);
    const renewed = await storedHash(user.id);
    expect(renewed.startsWith(currentHashPrefix)).toBe(true);
    expect(await argon2.verify(renewed, goodPassword)).toBe(true);
    expect((await login(user.email, goodPassword, '10.0.9.3')).status).toBe(201);
  });

  test("a hash with today's parameters is left as it is; the quick check agrees with argon2's own", async () => {
    const user = await insertUserWithPassword(ctx.services);
    const current = await storedHash(user.id);
    expect(current.startsWith(currentHashPrefix)).toBe(true);
    expect(needsRehash(current)).toBe(false);
    expect(argon2.needsRehash(current, passwordHashOptions)).toBe(false);
    expect((await login(user.email, goodPassword, '10.0.9.4')).status).toBe(201);
    expect(await storedHash(user.id)).toBe(current);
    // Same memory and passes, more lanes: not today's parameters.
    expect(needsRehash(await argon2.hash(goodPassword, { ...passwordHashOptions, parallelism: 2 }))).toBe(true);
  });
});

describe('sign-in after a probe: the proof, the checks and the new session in one statement', () => {
  const probeThen = (email: string, ip: string) =>
    request(ctx.app)
      .post(`/core/v1/probes/hash/${emailHash(email)}`)
      .set(v1)
      .set('x-forwarded-for', ip)
      .send({ password: goodPassword });
  const sessionsOf = (userId: number) =>
    ctx.services.db
      .selectFrom('sessions')
      .select(['id', 'factors', 'revoked_at'])
      .where('user_id', '=', userId)
      .execute();

  test('writes the session with the factors it answers, its refresh token and the last access, without argon2', async () => {
    const user = await insertUserWithPassword(ctx.services, { otpEmail: true, otpSms: true, phone: '+46700000002' });
    expect((await probeThen(user.email, '10.0.10.1')).body.available).toBe(true);
    const before = clock.now();
    const spy = jest.spyOn(argon2, 'verify');
    const res = await login(user.email, goodPassword, '10.0.10.1');
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.factors)).toEqual(['password', 'otpEmail', 'otpSms']);
    expect(await sessionsOf(user.id)).toEqual([{ id: res.body.id, factors: res.body.factors, revoked_at: null }]);
    const tokens = await ctx.services.db
      .selectFrom('sessions')
      .select('refresh_token_hash')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(tokens.refresh_token_hash).toEqual(expect.any(String));
    const { last_access_at } = await ctx.services.db
      .selectFrom('users')
      .select('last_access_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(last_access_at!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    // The tokens work: the access token authenticates; the refresh token waits for the second factor.
    const rotated = await request(ctx.app)
      .put(`/core/v1/sessions/${res.body.id}`)
      .set(v1)
      .set('authorization', `Bearer ${res.body.refreshToken}`);
    expect(rotated.status).toBe(401);
    const otp = await request(ctx.app)
      .post(`/core/v1/sessions/${res.body.id}/challenges`)
      .set(v1)
      .set('authorization', `Bearer ${res.body.accessToken}`)
      .send({ otpEmail: true });
    expect(otp.status).toBe(201);
  });

  test('clears the failures on record for the account, as a sign-in with argon2 does', async () => {
    const user = await insertUserWithPassword(ctx.services);
    const key = `login:account:${emailHash(user.email)}`;
    for (let i = 0; i < 2; i++) expect((await login(user.email, 'Wrong-Password-1!', `10.0.11.${i}`)).status).toBe(401);
    expect(
      await ctx.services.db.selectFrom('throttles').select('count').where('key', '=', key).executeTakeFirst(),
    ).toEqual({ count: 2 });
    expect((await probeThen(user.email, '10.0.11.9')).body.available).toBe(true);
    expect((await login(user.email, goodPassword, '10.0.11.9')).status).toBe(201);
    expect(
      await ctx.services.db.selectFrom('throttles').select('count').where('key', '=', key).executeTakeFirst(),
    ).toBeUndefined();
  });

  test('writes nothing when a lockout refuses the request, even with a good proof', async () => {
    const user = await insertUserWithPassword(ctx.services);
    expect((await probeThen(user.email, '10.0.12.1')).body.available).toBe(true);
    const lock = {
      count: 30,
      window_ends_at: new Date(clock.now().getTime() + 3_600_000),
      blocked_until: new Date(clock.now().getTime() + 60_000),
    };
    await ctx.services.db
      .insertInto('throttles')
      .values({ key: 'login:address:10.0.12.1', ...lock })
      .onConflict((oc) => oc.column('key').doUpdateSet(lock))
      .execute();
    const res = await login(user.email, goodPassword, '10.0.12.1');
    expect(res.status).toBe(429);
    expect(await sessionsOf(user.id)).toEqual([]);
  });

  test('a probe that rehashes the password binds its proof to the new hash: the session needs no second verify', async () => {
    const old = await argon2.hash(goodPassword, {
      type: argon2.argon2id,
      memoryCost: 8192,
      timeCost: 1,
      parallelism: 1,
    });
    const user = await insertUser(ctx.services, { passwordHash: old });
    expect((await probeThen(user.email, '10.0.14.1')).body.available).toBe(true);
    const { password_hash } = await ctx.services.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(password_hash!.startsWith(currentHashPrefix)).toBe(true);
    const spy = jest.spyOn(argon2, 'verify');
    expect((await login(user.email, goodPassword, '10.0.14.1')).status).toBe(201);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  test('a proof left for an account that was deactivated since does not sign in', async () => {
    const user = await insertUserWithPassword(ctx.services);
    expect((await probeThen(user.email, '10.0.13.1')).body.available).toBe(true);
    await ctx.services.db.updateTable('users').set({ deactivated_at: clock.now() }).where('id', '=', user.id).execute();
    expect((await login(user.email, goodPassword, '10.0.13.1')).status).toBe(401);
    expect(await sessionsOf(user.id)).toEqual([]);
  });
});
