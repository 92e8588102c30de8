// The edges of the sign-in lockouts that a sign-in from the outside reaches only by chance or through another
// module: ending an identity's failures (a password set through a reset link does it) and an attempt that lost the
// race for its reservation to a concurrent one.
import { ApiError } from '../../src/errors';
import { clearSignInFailures } from '../../src/modules/sessions';
import { lockoutKey, policyOfKey, signInPolicies } from '../../src/modules/sessions/lockout-keys';
import { giveBackValues, verdict } from '../../src/modules/sessions/lockouts';
import type { LockoutAnswer } from '../../src/modules/sessions/lockouts.repository';
import { emailHash } from '../../src/security/hashing';
import { rateLimitVerdict, type RatePolicy } from '../../src/security/throttle';
import { createTestContext, type TestContext } from '../support/context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
beforeEach(() => ctx.services.db.deleteFrom('throttles').execute());

/** Failures on record under these keys, three each, none locked. */
async function failures(keys: string[]) {
  const windowEnds = new Date(Date.now() + 3_600_000).toISOString();
  await ctx.services.db
    .insertInto('throttles')
    .values(keys.map((key) => ({ key, count: 3, window_ends_at: windowEnds, blocked_until: null })))
    .execute();
}

const counts = async () =>
  Object.fromEntries(
    (await ctx.services.db.selectFrom('throttles').select(['key', 'count']).orderBy('key').execute()).map((row) => [
      row.key,
      Number(row.count),
    ]),
  );

describe("ending an identity's sign-in failures", () => {
  const ada = emailHash('ada@example.test');
  const bob = emailHash('bob@example.test');
  const adaKeys = [
    lockoutKey.account(ada),
    lockoutKey.code(ada),
    lockoutKey.pair(ada, '127.0.0.2'),
    lockoutKey.pair(ada, '2001:db8::'),
  ];
  const bobKeys = [lockoutKey.account(bob), lockoutKey.code(bob), lockoutKey.pair(bob, '127.0.0.2')];
  // An address's own counter is the address's, whoever signed in from it.
  const addressKeys = [lockoutKey.address('127.0.0.2')];

  test('ends its account-wide, second-factor and every address failures, and nobody else’s', async () => {
    await failures([...adaKeys, ...bobKeys, ...addressKeys]);
    await clearSignInFailures(ctx.services, ada);
    expect(Object.keys(await counts())).toEqual([...bobKeys, ...addressKeys].sort());
  });

  test.each([
    ['a LIKE wildcard', '%'],
    ['64 single-character wildcards', '_'.repeat(64)],
    ['a hash cut short', ada.slice(0, 63)],
    ['a hash in capitals', ada.toUpperCase()],
    ['a hash with a wildcard after it', `${ada}%`],
    ['a wildcard before a hash', `%${ada}`],
    ['nothing', ''],
  ])('a key that is not an identity hash (%s) ends nothing', async (_name, hash) => {
    await failures([...adaKeys, ...bobKeys, ...addressKeys]);
    const before = await counts();
    await clearSignInFailures(ctx.services, hash);
    expect(await counts()).toEqual(before);
  });
});

describe('an attempt whose reservation a concurrent attempt took first', () => {
  const hash = emailHash('carol@example.test');
  const pair = lockoutKey.pair(hash, '127.0.0.3');
  const account = lockoutKey.account(hash);
  const options = {
    attempt: {
      keys: [
        { key: pair, policy: signInPolicies.loginPerPair },
        { key: account, policy: signInPolicies.loginPerAccount },
      ],
    },
  };
  const answer = (reserved: string[], due = true): LockoutAnswer => ({
    limited: null,
    consumed: null,
    held: null,
    stepped_up: null,
    reserved: reserved.map((key) => ({ key })),
    attempt_keys: '2',
    reservation_due: due,
  });

  test('is refused for the shortest lock of its keys, and what it did reserve is given back', async () => {
    await failures([pair, account]);
    const now = new Date();
    const refusal = await verdict(ctx.services, answer([pair]), now, options).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).code).toBe('TOO_MANY_REQUESTS');
    expect((refusal as ApiError).unavailableUntil).toEqual(
      new Date(now.getTime() + signInPolicies.loginPerPair.baseSeconds * 1000),
    );
    // Its reservation of the pair is given back; the account's, which it did not get, is not touched.
    expect(await counts()).toEqual({ [account]: 3, [pair]: 2 });
  });

  test('one that reserved every key goes on, and one with nothing due is not a lost race', async () => {
    await failures([pair, account]);
    const now = new Date();
    expect(await verdict(ctx.services, answer([pair, account]), now, options)).toEqual({
      reserved: [pair, account],
      stepUp: null,
    });
    expect(await verdict(ctx.services, answer([], false), now, options)).toEqual({
      reserved: [],
      stepUp: null,
    });
    expect(await counts()).toEqual({ [account]: 3, [pair]: 3 });
  });
});

describe('reading the answer of a refused statement', () => {
  const early = '2026-11-27T10:00:00.000Z';
  const late = '2026-11-27T12:00:00.000Z';
  const refusal = (read: () => unknown) => {
    try {
      read();
    } catch (error) {
      return error as ApiError;
    }
    throw new Error('not refused');
  };

  test('a refusal for several keys waits for the last of them, in whichever order they come', () => {
    const limit: [string, RatePolicy][] = [
      ['a', { limit: 5, windowSeconds: 60 }],
      ['b', { limit: 5, windowSeconds: 60 }],
    ];
    for (const times of [
      [early, late],
      [late, early],
    ]) {
      const limited = times.map((window_ends_at, i) => ({ key: ['a', 'b'][i], window_ends_at }));
      const refused = refusal(() => rateLimitVerdict({ limited, consumed: null }, limit));
      expect({ code: refused.code, until: refused.unavailableUntil }).toEqual({
        code: 'TOO_MANY_REQUESTS',
        until: new Date(late),
      });
    }
  });

  test('a key counted past its limit by a concurrent request is refused until its window ends; at the limit it is not', () => {
    const limit: [string, RatePolicy][] = [['a', { limit: 5, windowSeconds: 60 }]];
    const refused = refusal(() =>
      rateLimitVerdict({ limited: null, consumed: [{ key: 'a', count: 6, window_ends_at: late }] }, limit),
    );
    expect({ code: refused.code, until: refused.unavailableUntil }).toEqual({
      code: 'TOO_MANY_REQUESTS',
      until: new Date(late),
    });
    expect(() =>
      rateLimitVerdict({ limited: null, consumed: [{ key: 'a', count: 5, window_ends_at: late }] }, limit),
    ).not.toThrow();
  });

  test('each key counted is held to its own limit', () => {
    const limits: [string, RatePolicy][] = [
      ['a', { limit: 5, windowSeconds: 60 }],
      ['b', { limit: 10, windowSeconds: 60 }],
    ];
    expect(() =>
      rateLimitVerdict({ limited: null, consumed: [{ key: 'b', count: 6, window_ends_at: late }] }, limits),
    ).not.toThrow();
    expect(
      refusal(() =>
        rateLimitVerdict({ limited: null, consumed: [{ key: 'b', count: 11, window_ends_at: late }] }, limits),
      ).code,
    ).toBe('TOO_MANY_REQUESTS');
  });
});

test('a session written without a checked attempt gives nothing back', () => {
  const now = new Date();
  expect(giveBackValues(now)).toEqual({
    now: now.toISOString(),
    clear: [],
    refund: [],
    free: [],
    familiarHash: null,
    sourceHash: null,
  });
});

test('a lockout key has the policy of its kind, and a key that is not a sign-in lockout key has none', () => {
  const hash = emailHash('dan@example.test');
  expect(policyOfKey(lockoutKey.pair(hash, '127.0.0.4'))).toBe(signInPolicies.loginPerPair);
  expect(policyOfKey(lockoutKey.account(hash))).toBe(signInPolicies.loginPerAccount);
  expect(policyOfKey(lockoutKey.address('127.0.0.4'))).toBe(signInPolicies.loginPerAddress);
  expect(policyOfKey(lockoutKey.code(hash))).toBe(signInPolicies.secondFactorPerIdentity);
  for (const key of ['login:nothing:abc', `probe:pair:${hash}`, 'login'])
    expect(() => policyOfKey(key)).toThrow(`not a sign-in lockout key: ${key}`);
});
