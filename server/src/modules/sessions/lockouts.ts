// The sign-in lockouts: an attempt's keys (lockout-keys.ts), reserved before the secret is checked and given back
// after a success, in the statements of lockouts.repository.ts.
import { tooManyRequests } from '../../errors';
import { addressKey } from '../../shared/client-address';
import { keyedHash } from '../../security/hashing';
import { latest, rateLimitValues, rateLimitVerdict, type RatePolicy } from '../../security/throttle';
import type { SessionsDeps } from './sessions.deps';
import type { Executor } from '../../db/database';
import { lockoutKey, policyOfKey, signInPolicies, type LockoutPolicy } from './lockout-keys';
import { emailHashOf } from './challenges.repository';
import {
  clearIdentityFailures,
  giveBackAttempt,
  guardStatement,
  isFamiliarSource,
  lockedNow,
  type GiveBackValues,
  type LockoutAnswer,
  type LockoutValues,
} from './lockouts.repository';

/** What a statement's lockout check takes: rate limits to count, locks to respect, an attempt to reserve. */
export interface GuardOptions {
  consume?: [key: string, policy: RatePolicy][];
  lockoutKeys?: string[];
  attempt?: Attempt;
}

/**
 * A sign-in attempt's lockout keys, reserved (counted as a failure) in the guard's statement before the secret is
 * checked, so concurrent attempts never get more checks than the policy allows one after another. A key
 * `unlessFamiliar` is neither checked nor counted when the source is familiar to the identity (a completed
 * sign-in from it before). A key `stepUp` does not refuse the attempt while it is locked: the attempt goes on,
 * still counted, and the verdict says `stepUp` (the caller asks for more proof instead of answering 429). A key
 * whose policy has a `checkedCap` refuses every attempt once that many failures are on record in its window (right
 * or wrong password alike: nothing is checked), a step-up key too.
 */
export interface Attempt {
  keys: { key: string; policy: LockoutPolicy; unlessFamiliar?: boolean; stepUp?: boolean }[];
  familiar?: { emailHash: string; sourceHash: string };
}

export function lockoutValues(now: Date, options: GuardOptions): LockoutValues {
  const attempt = options.attempt?.keys ?? [];
  return {
    ...rateLimitValues(now, options.consume ?? []),
    // Stryker disable next-line ArrayDeclaration: equivalent; a key no row holds locks nothing.
    lockoutKeys: options.lockoutKeys ?? [],
    familiarHash: options.attempt?.familiar?.emailHash ?? null,
    sourceHash: options.attempt?.familiar?.sourceHash ?? null,
    attemptKeys: attempt.map((a) => a.key),
    attemptUnlessFamiliar: attempt.map((a) => a.unlessFamiliar ?? false),
    attemptStepUp: attempt.map((a) => a.stepUp ?? false),
    attemptFree: attempt.map((a) => a.policy.freeFailures),
    attemptWindowSecs: attempt.map((a) => a.policy.windowSeconds),
    attemptBaseSecs: attempt.map((a) => a.policy.baseSeconds),
    attemptMaxSecs: attempt.map((a) => a.policy.maxSeconds),
    attemptCap: attempt.map((a) => a.policy.checkedCap ?? 0),
  };
}

export interface Verdict {
  /** The attempt keys reserved (to give back on success). */
  reserved: string[];
  /** A step-up key is locked until then: the attempt goes on only with more proof (else 429 until then); or null. */
  stepUp: Date | null;
}

/** A concurrent attempt locked a key between this statement's look and its reservation: refused like a lock. */
export class LostRace extends Error {
  constructor(
    readonly reserved: string[],
    readonly until: Date,
  ) {
    // Stryker disable next-line StringLiteral: equivalent; verdict() catches it and answers 429, its message is never read.
    super('lost race');
  }
}

/**
 * Reads the lockout answer: throws 429 TOO_MANY_REQUESTS (with the wait) when refused, LostRace when a
 * concurrent attempt locked a key meanwhile (verdict gives back what was reserved), else what was reserved.
 */
export function lockoutVerdict(row: LockoutAnswer, now: Date, options: GuardOptions): Verdict {
  rateLimitVerdict(row, options.consume ?? []);
  if (row.held?.length) throw tooManyRequests(latest(row.held.map((r) => r.blocked_until)));
  const reserved = (row.reserved ?? []).map((r) => r.key);
  if (row.reservation_due && reserved.length < Number(row.attempt_keys)) {
    const attempt = options.attempt?.keys ?? [];
    throw new LostRace(
      reserved,
      new Date(now.getTime() + Math.min(...attempt.map((a) => a.policy.baseSeconds)) * 1000),
    );
  }
  const stepUp = row.stepped_up?.length ? latest(row.stepped_up.map((r) => r.blocked_until)) : null;
  return { reserved, stepUp };
}

/**
 * lockoutVerdict, and when a concurrent attempt lost the race, what this refused attempt reserved is given back
 * before the 429 (a refused attempt costs nothing).
 */
export async function verdict(
  services: Pick<SessionsDeps, 'db' | 'now'>,
  row: LockoutAnswer,
  now: Date,
  options: GuardOptions,
): Promise<Verdict> {
  try {
    return lockoutVerdict(row, now, options);
  } catch (error) {
    if (!(error instanceof LostRace)) throw error;
    await giveBack(services, notChecked(error.reserved));
    throw tooManyRequests(error.until);
  }
}

/**
 * Rate limits, lockout checks and an attempt's reservation (`attempt`, see Attempt) in one statement. Rate
 * limits are checked before lockouts.
 */
export async function guard(services: Pick<SessionsDeps, 'db' | 'now'>, options: GuardOptions): Promise<Verdict> {
  const now = services.now();
  const [row] = await guardStatement(services.db, lockoutValues(now, options));
  return verdict(services, row, now, options);
}

/**
 * The client as the sign-in limits and familiar sources know it: an IPv4 address, or an IPv6 address's network
 * prefix (CLIENT_IPV6_PREFIX, /64 by default), so one network's many addresses are one client.
 */
export const limitAddress = (services: SessionsDeps, ip: string) =>
  addressKey(ip, services.config.runtime.clientIpv6Prefix);

/** A keyed hash of the client address, as stored for familiar sources (the address itself is not kept). */
export const sourceHash = (services: Pick<SessionsDeps, 'secretKey'>, ip: string) =>
  keyedHash(services.secretKey, `sign-in-source\0${ip}`);

/**
 * The lockouts of a password check (sign-in, probe) or a one-time code, reserved before the check, for `ip` as
 * limitAddress gives it: per identity hash and address, always; per identity hash and per address, unless the
 * address is familiar to the identity. The per-identity ceiling is a step-up: while it is locked the attempt goes
 * on, counted, and a right password asks for an email code instead of a 429, until the ceiling's cap of checked
 * failures (signInPolicies.loginPerAccount.checkedCap): past it every password from an unfamiliar address answers
 * the same 429 until the window ends (a familiar address, a passkey or the emailed reset still let the user in). A one-time code also counts
 * towards the identity's second-factor ceiling (`code`), unless the address is familiar. Keyed by the identity
 * hash, so an unknown account moves exactly the same counters as a known one.
 */
export function loginAttempt(
  services: SessionsDeps,
  hash: string,
  ip: string,
  options: { code?: boolean } = {},
): Attempt {
  return {
    keys: [
      { key: lockoutKey.pair(hash, ip), policy: signInPolicies.loginPerPair },
      { key: lockoutKey.account(hash), policy: signInPolicies.loginPerAccount, unlessFamiliar: true, stepUp: true },
      { key: lockoutKey.address(ip), policy: signInPolicies.loginPerAddress, unlessFamiliar: true },
      ...(options.code
        ? [{ key: lockoutKey.code(hash), policy: signInPolicies.secondFactorPerIdentity, unlessFamiliar: true }]
        : []),
    ],
    familiar: { emailHash: hash, sourceHash: sourceHash(services, ip) },
  };
}

/**
 * The lockouts a sign-in without an identity hash must respect, for `ip` as limitAddress gives it (coAlert codes
 * and passkeys: the account is known only once the secret or signature is checked).
 */
export const addressAttempt = (ip: string): Attempt => ({
  keys: [{ key: lockoutKey.address(ip), policy: signInPolicies.loginPerAddress }],
});

/**
 * The lockouts of a passkey sign-in, for `ip` as limitAddress gives it: the per-address key, as a step-up. A locked
 * address does not refuse the attempt up front: the assertion is checked (a signature, no secret to guess), and only
 * a verified one from a source familiar to its account goes through (passkeySourceFamiliar); everything else there
 * answers 429 until the lock ends. So bad assertions from anyone behind an address lock out no one who signs in
 * from it.
 */
export const passkeyAttempt = (ip: string): Attempt => ({
  keys: [{ key: lockoutKey.address(ip), policy: signInPolicies.loginPerAddress, stepUp: true }],
});

/** True when `ip` (as limitAddress gives it) is a familiar source of the identity `hash`. */
export const passkeySourceFamiliar = (
  services: Pick<SessionsDeps, 'secretKey' | 'now'>,
  db: Executor,
  hash: string,
  ip: string,
) => isFamiliarSource(db, { now: services.now().toISOString(), emailHash: hash, sourceHash: sourceHash(services, ip) });

/** What a successful attempt gives back: keys to clear, keys to refund one attempt, a source made familiar. */
export interface GiveBack {
  clear: string[];
  refund: [key: string, freeFailures: number][];
  familiar?: { emailHash: string; sourceHash: string };
}

/** A checked attempt that compared nothing (no code to compare): what it reserved is given back. */
export const notChecked = (reserved: string[]): GiveBack => ({
  // Stryker disable next-line ArrayDeclaration: equivalent; clearing a key no row holds changes nothing.
  clear: [],
  refund: reserved.map((key) => [key, policyOfKey(key).freeFailures]),
});

/**
 * What a successful check gives back (the one helper for every sign-in step). A completed sign-in (every factor
 * verified) ends the identity's consecutive failures (pair, account, second factor), gives the address back its
 * attempt and, unless `familiar` is false (a probe: the session that follows does it), makes the source familiar.
 * A right password whose session still waits for a factor only gives back what it reserved: failures, wrong codes
 * included, stay on record until a sign-in completes. Whether it is complete is said by `complete`, or, when left
 * out, by the statement that writes the session (lockouts.repository.ts: giveBack), from the factors it wrote.
 */
export function succeeded(
  services: Pick<SessionsDeps, 'secretKey'>,
  attempt: { hash: string; ip: string; reserved: string[]; complete?: boolean; familiar?: boolean },
): GiveBack {
  const { hash, ip, reserved } = attempt;
  if (attempt.complete === false) return notChecked(reserved);
  return {
    clear: [lockoutKey.pair(hash, ip), lockoutKey.account(hash), lockoutKey.code(hash)],
    refund: notChecked(reserved).refund,
    familiar: attempt.familiar === false ? undefined : { emailHash: hash, sourceHash: sourceHash(services, ip) },
  };
}

/** The named values of a give-back (lockouts.repository.ts: giveBack). */
export const giveBackValues = (now: Date, back: GiveBack = { clear: [], refund: [] }): GiveBackValues => ({
  now: now.toISOString(),
  clear: back.clear,
  refund: back.refund.map(([key]) => key),
  free: back.refund.map(([, free]) => free),
  familiarHash: back.familiar?.emailHash ?? null,
  sourceHash: back.familiar?.sourceHash ?? null,
});

/** A give-back on its own statement. */
export async function giveBack(services: Pick<SessionsDeps, 'db' | 'now'>, back: GiveBack, db: Executor = services.db) {
  await giveBackAttempt(db, giveBackValues(services.now(), back));
}

/** Ends an identity's sign-in failures on record (a password reset): every lockout keyed by its identity hash. */
export const clearSignInFailures = (services: Pick<SessionsDeps, 'db'>, emailHash: string) =>
  clearIdentityFailures(services.db, emailHash);

/** The key of a user's sign-in lockouts (the identity hash of their e-mail address), if the user exists. */
export function lockoutIdentityOf(db: Executor, userId: number): Promise<string | undefined> {
  return emailHashOf(db, userId);
}

/**
 * Whether a client's address lockout is locked now (`clientKey` as limitAddress gives it): a sign-in or probe from
 * it is then refused by its own statement before argon2, unless the source is familiar to the identity it names.
 * One statement on the key's row; the door (http/admission.ts) asks it so such a request takes no place in the
 * hashing line.
 */
export const addressLockedOut = (services: Pick<SessionsDeps, 'db' | 'now'>, clientKey: string) =>
  lockedNow(services.db, lockoutKey.address(clientKey), services.now());
