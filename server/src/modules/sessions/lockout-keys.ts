// The sign-in lockouts' keys and policies, in one file: every format of a lockout key is spelled here and nowhere
// else.

/**
 * After `freeFailures` failures (counted until `windowSeconds` pass without one), every further failure locks
 * the key for `baseSeconds`, doubling each time, at most `maxSeconds`.
 */
export interface LockoutPolicy {
  freeFailures: number;
  windowSeconds: number;
  baseSeconds: number;
  maxSeconds: number;
  /**
   * At most this many failures are checked (the secret compared) within a window: past it the key refuses every
   * attempt, right or wrong, until its window ends (0: no cap).
   */
  checkedCap?: number;
}

/** The numbers, in one place (documented in docs/decisions/). */
export const signInPolicies = {
  /**
   * Failed logins, probes and one-time codes per identity hash and source address (the same whether or not the
   * account exists): bounds the guessing of one source against one account.
   */
  loginPerPair: { freeFailures: 5, windowSeconds: 86_400, baseSeconds: 30, maxSeconds: 3600 },
  /**
   * The account-wide ceiling: failures per identity hash from sources not familiar to it (a familiar source is
   * one the account completed a sign-in from within 90 days; the right password from there is never refused
   * because of failures from elsewhere). While it is locked, the right password from an unfamiliar source is a
   * step-up (a session waiting for an email code), never a 429. The ceiling keeps counting while it is locked, and
   * at most `checkedCap` failures a window are checked (NIST SP 800-63B §5.2.2: 100 at most; docs/decisions/):
   * past them every password from an unfamiliar source answers the same 429 until the window ends.
   */
  loginPerAccount: { freeFailures: 20, windowSeconds: 86_400, baseSeconds: 60, maxSeconds: 3600, checkedCap: 100 },
  /**
   * Failed logins, probes and coAlert codes per client address (an IPv4 address, an IPv6 network prefix: see
   * shared/client-address.ts) (familiar sources are not held back by it).
   */
  loginPerAddress: { freeFailures: 20, windowSeconds: 3600, baseSeconds: 60, maxSeconds: 3600 },
  /**
   * Consecutive wrong one-time codes per identity, across its pending sessions, from sources not familiar to it:
   * the 30th locks the second factor there (a year, in effect until a password reset or a completed sign-in,
   * which clear it; a familiar source can still complete one). Below NIST SP 800-63B's 100: docs/decisions/.
   */
  secondFactorPerIdentity: {
    freeFailures: 29,
    windowSeconds: 365 * 86_400,
    baseSeconds: 365 * 86_400,
    maxSeconds: 365 * 86_400,
  },
} satisfies Record<string, LockoutPolicy>;

const kinds = {
  pair: signInPolicies.loginPerPair,
  account: signInPolicies.loginPerAccount,
  address: signInPolicies.loginPerAddress,
  code: signInPolicies.secondFactorPerIdentity,
} as const;

type Kind = keyof typeof kinds;

/** The one key builder: `login:<kind>:<identity hash and/or client address>`. */
export const lockoutKey = {
  /** One identity hash from one client address. */
  pair: (hash: string, ip: string) => `login:pair:${hash}:${ip}`,
  /** One identity hash from anywhere (the per-identity ceiling). */
  account: (hash: string) => `login:account:${hash}`,
  /** One client address, whoever it signs in as. */
  address: (ip: string) => `login:address:${ip}`,
  /** One identity's wrong second-factor answers. */
  code: (hash: string) => `login:code:${hash}`,
};

/** The policy of a lockout key (by its kind, the second part of the key). */
export function policyOfKey(key: string): LockoutPolicy {
  const kind = key.split(':')[1] as Kind;
  if (!key.startsWith('login:') || !(kind in kinds)) throw new Error(`not a sign-in lockout key: ${key}`);
  return kinds[kind];
}

/** An identity's every lockout key: the exact ones and the pattern of its per-address ones (SQL LIKE). */
export function identityKeyPattern(hash: string): { exact: string[]; pattern: string } {
  // Stryker disable next-line StringLiteral: equivalent; with no exact keys the caller returns before the pattern is used.
  if (!/^[0-9a-f]{64}$/.test(hash)) return { exact: [], pattern: '\u0000' };
  return { exact: [lockoutKey.account(hash), lockoutKey.code(hash)], pattern: `${lockoutKey.pair(hash, '%')}` };
}
