// Attacks on the sign-in lockouts: locking the rightful user out, telling accounts apart by the counters, and
// outrunning the lockout with concurrent guesses.
import type { Server } from 'node:http';
import { emailHash } from '../../src/security/hashing';
import { signInPolicies } from '../../src/modules/sessions/lockout-keys';
import { createTestContext, type TestContext } from '../support/context';
import { insertTenant } from '../support/fixtures';
import { goodPassword, insertUserWithPassword, movableClock } from '../support/sign-in';
import { listen, type Answer } from '../support/from-address';

let ctx: TestContext;
let server: Server;
let send: (from: string, method: string, path: string, body?: unknown) => Promise<Answer>;
const clock = movableClock();
beforeAll(async () => {
  ctx = await createTestContext({ now: clock.now });
  ({ server, send } = await listen(ctx.app));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

let next = 10;
/** A fresh loopback address for each scenario, so scenarios do not share per-address counters. */
const address = () => `127.0.${Math.floor(++next / 250)}.${(next % 250) + 2}`;
const login = (from: string, email: string, password: string) =>
  send(from, 'POST', '/core/v1/sessions', { grantType: 'password', email, password });
const probe = (from: string, hash: string, password: string) =>
  send(from, 'POST', `/core/v1/probes/hash/${hash}`, { password });
const wrong = 'Wrong-Password-1!';

async function user() {
  return insertUserWithPassword(ctx.services, { tenants: [await insertTenant(ctx.services)] });
}

describe('attack: keeping a known user locked out by failing against their account', () => {
  test('failures from other addresses never refuse the right password from the address the user signs in from', async () => {
    const victim = await user();
    const home = address();
    expect((await login(home, victim.email, goodPassword)).status).toBe(201);
    // An attacker spread over many addresses, well past every per-account limit.
    for (let i = 0; i < 40; i++) await login(address(), victim.email, wrong);
    expect((await login(address(), victim.email, wrong)).status).toBe(429);
    // The rightful user, from home, with the right password: in, at once.
    expect((await login(home, victim.email, goodPassword)).status).toBe(201);
    expect((await probe(home, emailHash(victim.email), goodPassword)).body.available).toBe(true);
  });

  test('one attacker address is bounded per account: after 5 failures the next guesses answer 429', async () => {
    const victim = await user();
    const attacker = address();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(attacker, victim.email, wrong)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  });

  test('the account-wide ceiling refuses unfamiliar addresses far below 100 failures; the right password there steps up to an email code', async () => {
    const victim = await user();
    let refused = 0;
    for (let i = 0; i < 30; i++) if ((await login(address(), victim.email, wrong)).status === 429) refused++;
    expect(refused).toBeGreaterThan(0);
    expect((await login(address(), victim.email, wrong)).status).toBe(429);
    const stepUp = await login(address(), victim.email, goodPassword);
    expect(stepUp.status).toBe(201);
    expect(stepUp.body.factors).toEqual({ password: 'verified', otpEmail: 'unverified' });
  });

  test('one typo after several ordinary sign-ins answers that the credentials do not match', async () => {
    const person = await user();
    const office = address();
    for (let i = 0; i < 7; i++) {
      expect((await probe(office, emailHash(person.email), goodPassword)).body.available).toBe(true);
      expect((await login(office, person.email, goodPassword)).status).toBe(201);
    }
    const typo = await probe(office, emailHash(person.email), wrong);
    expect(typo.status).toBe(200);
    expect(typo.body.available).toBe(false);
    expect((await login(office, person.email, wrong)).body.error.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('attack: credential stuffing from one address', () => {
  const budget = signInPolicies.loginPerAddress.freeFailures;

  test('one wrong password each for many accounts: past the address budget the next guesses answer 429', async () => {
    const attacker = address();
    const statuses: number[] = [];
    for (let i = 0; i < budget + 4; i++)
      statuses.push((await login(attacker, `stuffed-${next}-${i}@example.test`, wrong)).status);
    expect(statuses.slice(0, budget + 1)).toEqual(Array(budget + 1).fill(401));
    expect(statuses.slice(budget + 1)).toEqual([429, 429, 429]);
  });

  test('a stolen right password of an account the address never signed in to is refused once the address is past its budget', async () => {
    const victim = await user();
    const attacker = address();
    for (let i = 0; i <= budget; i++) await login(attacker, `stuffed-${next}-${i}@example.test`, wrong);
    expect((await login(attacker, victim.email, goodPassword)).status).toBe(429);
  });
});

describe('attack: telling known from unknown accounts by the counters', () => {
  async function counters(hashes: string[], from: string) {
    const answers: string[] = [];
    for (const hash of hashes) {
      const res = await probe(from, hash, wrong);
      answers.push(res.status === 200 ? `200:${res.body.available}` : String(res.status));
    }
    const rows = await ctx.services.db
      .selectFrom('throttles')
      .select(['key', 'count'])
      .where('key', 'like', `%${from}%`)
      .execute();
    return { answers, address: rows.map((r) => r.count).sort((x, y) => x - y) };
  }

  test('failed probes of existing and of missing accounts cost an address exactly the same', async () => {
    const known: string[] = [];
    for (let i = 0; i < 24; i++) known.push(emailHash((await user()).email));
    const unknown = Array.from({ length: 24 }, (_, i) => emailHash(`nobody-${i}-${Date.now()}@example.test`));
    const a = await counters(known, address());
    const b = await counters(unknown, address());
    expect(b).toEqual(a);
    expect(a.answers).toContain('429');
  });

  test('every counter of an unknown identity hash moves as for a known one', async () => {
    const known = emailHash((await user()).email);
    const unknown = emailHash(`nobody-${Date.now()}@example.test`);
    const from = address();
    for (let i = 0; i < 3; i++) {
      await probe(from, known, wrong);
      await probe(from, unknown, wrong);
    }
    const keysOf = async (hash: string) =>
      (
        await ctx.services.db
          .selectFrom('throttles')
          .select(['key', 'count'])
          .where('key', 'like', `%${hash}%`)
          .orderBy('key')
          .execute()
      ).map((r) => ({
        key: r.key.replace(hash, 'HASH'),
        count: r.count,
      }));
    expect(await keysOf(unknown)).toEqual(await keysOf(known));
  });
});

describe('attack: outrunning the lockout with concurrent guesses', () => {
  test('40 concurrent wrong passwords get no more password checks than 6 sent one after another', async () => {
    const victim = await user();
    const attacker = address();
    const answers = await Promise.all(Array.from({ length: 40 }, () => login(attacker, victim.email, wrong)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(6);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(34);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  test('40 concurrent wrong probes get no more password checks than 6 sent one after another', async () => {
    const victim = await user();
    const attacker = address();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => probe(attacker, emailHash(victim.email), wrong)),
    );
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(6);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(34);
  });

  test('40 concurrent wrong coAlert codes from one address get no more checks than the address allows', async () => {
    const attacker = address();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        send(attacker, 'POST', '/core/v1/sessions', { grantType: 'coAlertCode', code: `WRONG${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(21);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(19);
  });
});
