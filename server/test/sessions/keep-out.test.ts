// Attacks that keep the rightful user out or escape the sign-in limits: a probe budget anyone can spend, the
// per-identity ceiling held against a user on a new address, an IPv6 network that is a thousand clients, and
// refused attempts that still cost the account and the address. Requests come through a trusted loopback proxy,
// so each one names its client address in X-Forwarded-For (IPv4 and IPv6 alike).
import request from 'supertest';
import argon2 from 'argon2';
import { emailHash } from '../../src/security/hashing';
import { signInPolicies as policies } from '../../src/modules/sessions/lockout-keys';
import { clearSignInFailures } from '../../src/modules/sessions';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant, v1 } from '../support/fixtures';
import { codeFrom, goodPassword, insertUserWithPassword, latestOutboxMessage, movableClock } from '../support/sign-in';

let ctx: TestContext;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now, env: { TRUST_PROXY: '127.0.0.1,::1' } });
});
afterAll(() => ctx.close());

let next = 10;
/** A fresh IPv4 address for each use (documentation ranges), so scenarios share no per-address counter. */
const address = () => `198.18.${Math.floor(++next / 250)}.${(next % 250) + 2}`;
const wrong = 'Wrong-Password-1!';
const from = (ip: string) => ({ ...v1, 'x-forwarded-for': ip });
const login = (ip: string, email: string, password: string) =>
  request(ctx.app).post('/core/v1/sessions').set(from(ip)).send({ grantType: 'password', email, password });
const probe = (ip: string, hash: string, password: string) =>
  request(ctx.app).post(`/core/v1/probes/hash/${hash}`).set(from(ip)).send({ password });
const user = async (options: { otpEmail?: boolean } = {}) =>
  insertUserWithPassword(ctx.services, { tenants: [await insertTenant(ctx.services)], ...options });
const throttleRows = (pattern: string) =>
  ctx.services.db
    .selectFrom('throttles')
    .select(['key', 'count', 'window_ends_at', 'blocked_until'])
    .where('key', 'like', pattern)
    .orderBy('key')
    .execute();

/** Failures from fresh addresses until the per-identity ceiling for unfamiliar addresses refuses. */
async function reachCeiling(email: string) {
  for (let i = 0; i < policies.loginPerAccount.freeFailures + 5; i++) await login(address(), email, wrong);
  expect((await login(address(), email, wrong)).status).toBe(429);
}

describe('attack: the probe as a lockout anyone can trigger', () => {
  test('11 probes a minute from another address do not refuse the right password from the address the user signs in from', async () => {
    const victim = await user();
    const home = address();
    expect((await login(home, victim.email, goodPassword)).status).toBe(201);
    const attacker = address();
    for (let i = 0; i < 11; i++) await probe(attacker, emailHash(victim.email), wrong);
    const answer = await probe(home, emailHash(victim.email), goodPassword);
    expect(answer.status).toBe(200);
    expect(answer.body.available).toBe(true);
  });

  test('probes with any password from many addresses never refuse the right password from home', async () => {
    const victim = await user();
    const home = address();
    expect((await login(home, victim.email, goodPassword)).status).toBe(201);
    for (let i = 0; i < 40; i++) await probe(address(), emailHash(victim.email), `${wrong}${i}`);
    expect((await probe(home, emailHash(victim.email), goodPassword)).body.available).toBe(true);
    expect((await login(home, victim.email, goodPassword)).status).toBe(201);
  });
});

describe('attack: holding the per-identity ceiling to keep a user on a new address out', () => {
  test('the right password from an unfamiliar address at the ceiling is a session waiting for an email code', async () => {
    const victim = await user();
    await reachCeiling(victim.email);
    const newPhone = address();
    const res = await login(newPhone, victim.email, goodPassword);
    expect(res.status).toBe(201);
    expect(res.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
    // Nothing but its own challenge until the code is verified.
    const auth = { authorization: `Bearer ${res.body.accessToken}` };
    expect((await request(ctx.app).get('/core/v1/tenants').set(from(newPhone)).set(auth)).status).toBe(403);
    const asked = await request(ctx.app)
      .post(`/core/v1/sessions/${res.body.id}/challenges`)
      .set(from(newPhone))
      .set(auth)
      .send({ otpEmail: true });
    expect(asked.status).toBe(201);
    const code = codeFrom((await latestOutboxMessage(ctx.services, victim.email))!.body);
    const verified = await request(ctx.app)
      .patch(`/core/v1/sessions/${res.body.id}`)
      .set(from(newPhone))
      .set(auth)
      .send({ otpEmail: { code } });
    expect(verified.status).toBe(200);
    expect(verified.body.factors).toEqual({ password: 'verified', otpEmail: 'verified' });
    // A completed sign-in: the new address is familiar now, and the right password there signs in at once.
    expect((await login(newPhone, victim.email, goodPassword)).body.factors).toEqual({ password: 'verified' });
  });

  test('the sign-in app flow (probe, then session) steps up the same way', async () => {
    const victim = await user();
    await reachCeiling(victim.email);
    const newPhone = address();
    const probed = await probe(newPhone, emailHash(victim.email), goodPassword);
    expect(probed.status).toBe(200);
    expect(probed.body.available).toBe(true);
    const res = await login(newPhone, victim.email, goodPassword);
    expect(res.status).toBe(201);
    expect(res.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
  });

  test('wrong passwords at the ceiling stay refused (429), by sign-in and by probe, known account or not', async () => {
    const victim = await user();
    await reachCeiling(victim.email);
    expect((await login(address(), victim.email, wrong)).status).toBe(429);
    expect((await probe(address(), emailHash(victim.email), wrong)).status).toBe(429);
    const nobody = `nobody-${Date.now()}@example.test`;
    await reachCeiling(nobody);
    expect((await login(address(), nobody, goodPassword)).status).toBe(429);
    expect((await probe(address(), emailHash(nobody), goodPassword)).status).toBe(429);
  });
});

describe('attack: guessing on past the per-identity ceiling from ever new addresses', () => {
  /** 199 wrong guesses spread over 40 fresh addresses (under 5 each: no address or pair locks on its own). */
  async function guessFromMany(email: string) {
    const attackers = Array.from({ length: 40 }, () => address());
    for (let i = 0; i < 199; i++) await login(attackers[i % 40], email, `${wrong}${i}`);
  }
  // Each guess up to the cap runs argon2: the test waits for 100 of them, whatever the machine's load.
  const argon2Bound = 300_000;

  test(
    '199 wrong guesses from 40 addresses: the account keeps counting, at most 100 are checked, and then the right password answers as a wrong one',
    async () => {
      const victim = await user();
      const home = address();
      expect((await login(home, victim.email, goodPassword)).status).toBe(201);
      const hash = emailHash(victim.email);
      const checks = jest.spyOn(argon2, 'verify');
      try {
        await guessFromMany(victim.email);
        expect(checks.mock.calls.length).toBeLessThanOrEqual(policies.loginPerAccount.checkedCap);
      } finally {
        checks.mockRestore();
      }
      const [account] = await throttleRows(`login:account:${hash}`);
      expect(account.count).toBe(policies.loginPerAccount.checkedCap);
      // Past the cap, from a new address, every password gets the same answer: the right one no longer tells.
      const right = await login(address(), victim.email, goodPassword);
      const guess = await login(address(), victim.email, wrong);
      expect(right.status).toBe(429);
      expect(right.body).toEqual(guess.body);
      expect((await probe(address(), hash, goodPassword)).body).toEqual(guess.body);
      // The address the user signs in from is not held by it.
      const again = await login(home, victim.email, goodPassword);
      expect(again.status).toBe(201);
      expect(again.body.factors).toEqual({ password: 'verified' });
    },
    argon2Bound,
  );

  test(
    'past the cap an unknown account answers as a known one, and the emailed reset lets the user in from anywhere',
    async () => {
      const victim = await user();
      const nobody = `nobody-${Date.now()}@example.test`;
      await guessFromMany(victim.email);
      await guessFromMany(nobody);
      const known = await login(address(), victim.email, goodPassword);
      const unknown = await login(address(), nobody, goodPassword);
      expect(known.status).toBe(429);
      expect(unknown.status).toBe(429);
      expect(Object.keys(unknown.body.error).sort()).toEqual(Object.keys(known.body.error).sort());
      await clearSignInFailures(ctx.services, emailHash(victim.email));
      expect((await login(address(), victim.email, goodPassword)).status).toBe(201);
    },
    argon2Bound,
  );
});

describe('attack: one IPv6 network as unlimited clients', () => {
  const inNetwork = (net: string, i: number) => `${net}:${(i + 1).toString(16)}:${(i * 7 + 3).toString(16)}::${i + 1}`;

  test('many addresses of one /64 share one per-address budget; another /64 has its own', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < policies.loginPerAddress.freeFailures + 3; i++)
      statuses.push(
        (await login(inNetwork('2001:db8:aa:1', i), `ghost-${i}-${Date.now()}@example.test`, wrong)).status,
      );
    expect(statuses.slice(0, policies.loginPerAddress.freeFailures)).toEqual(
      Array(policies.loginPerAddress.freeFailures).fill(401),
    );
    expect(statuses.at(-1)).toBe(429);
    expect((await login('2001:db8:aa:2::1', `ghost-x-${Date.now()}@example.test`, wrong)).status).toBe(401);
  });

  test('one identity guessed from many addresses of one /64 is held to one pair budget', async () => {
    const victim = await user();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(inNetwork('2001:db8:bb:1', i), victim.email, wrong)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  });

  test('a familiar address is still held to its own pair budget: past the free failures its wrong passwords are refused', async () => {
    const victim = await user();
    const home = address();
    expect((await login(home, victim.email, goodPassword)).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < policies.loginPerPair.freeFailures + 3; i++)
      statuses.push((await login(home, victim.email, wrong)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  });

  test('a user whose IPv6 address rotated within its /64 is still at a familiar address', async () => {
    const victim = await user();
    expect((await login('2001:db8:cc:1::10', victim.email, goodPassword)).status).toBe(201);
    await reachCeiling(victim.email);
    const res = await login('2001:db8:cc:1:8f3a:22ff:fe01:9c', victim.email, goodPassword);
    expect(res.status).toBe(201);
    expect(res.body.factors).toEqual({ password: 'verified' });
  });
});

describe('attack: refused attempts that still cost the account and the address', () => {
  test('probes and sign-ins refused with 429 leave every counter of the identity and the address as it was', async () => {
    const victim = await user();
    const attacker = address();
    for (let i = 0; i < 6; i++) await login(attacker, victim.email, wrong);
    expect((await login(attacker, victim.email, wrong)).status).toBe(429);
    const before = [...(await throttleRows(`%${emailHash(victim.email)}%`)), ...(await throttleRows(`%:${attacker}`))];
    for (let i = 0; i < 5; i++) {
      expect((await probe(attacker, emailHash(victim.email), wrong)).status).toBe(429);
      expect((await login(attacker, victim.email, wrong)).status).toBe(429);
    }
    const after = [...(await throttleRows(`%${emailHash(victim.email)}%`)), ...(await throttleRows(`%:${attacker}`))];
    expect(after).toEqual(before);
  });

  test('40 concurrent wrong passwords from one address cost the account only the checks that ran', async () => {
    const victim = await user();
    const attacker = address();
    const answers = await Promise.all(Array.from({ length: 40 }, () => login(attacker, victim.email, wrong)));
    const checked = answers.filter((a) => a.status === 401).length;
    const [account] = await throttleRows(`login:account:${emailHash(victim.email)}`);
    const [perAddress] = await throttleRows(`login:address:${attacker}`);
    expect(account.count).toBe(checked);
    expect(perAddress.count).toBe(checked);
  });
});
