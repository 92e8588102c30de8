import { randomUUID } from 'node:crypto';
import { ApiError, tooManyRequests } from '../../errors';
import { addressKey } from '../../shared/client-address';
import { checkPassword, proofKey, type Refund } from '../../security/credentials';
import { emailHash, keyedHash } from '../../security/hashing';
import { lockoutValues, policies, type Attempt } from '../../security/throttle';
import type { Services } from '../../services';
import type { Executor } from '../../db/database';
import { hasPendingFactor } from '../../http/auth';
import {
  insertSessionWithToken,
  passwordFactors,
  refreshFallback,
  revokeSessions,
  rotateRefreshToken,
  signInWithPassword,
  type Factors,
} from './sessions.repository';
import { refreshHistoryMs } from './lifetimes';
import {
  hashRefreshToken,
  newRefreshToken,
  pendingSessionLifetimeMs,
  refreshGraceMs,
  refreshTokenPrefix,
  sessionLifetimeMs,
  successorRefreshToken,
  type SessionBody,
} from './tokens';

const pairKey = (hash: string, ip: string) => `login:pair:${hash}:${ip}`;
const accountKey = (hash: string) => `login:account:${hash}`;
const addressLimitKey = (ip: string) => `login:address:${ip}`;
const codeKey = (hash: string) => `login:code:${hash}`;

/**
 * The client as the sign-in limits and familiar sources know it: an IPv4 address, or an IPv6 address's network
 * prefix (CLIENT_IPV6_PREFIX, /64 by default), so one network's many addresses are one client.
 */
export const limitAddress = (services: Services, ip: string) =>
  addressKey(ip, services.config.runtime.clientIpv6Prefix);

/** A keyed hash of the client address, as stored for familiar sources (the address itself is not kept). */
export const sourceHash = (services: Services, ip: string) => keyedHash(services.secretKey, `sign-in-source\0${ip}`);

/**
 * The lockouts of a password check (sign-in, probe) or a one-time code, reserved before the check, for `ip` as
 * limitAddress gives it: per identity hash and address, always; per identity hash and per address, unless the
 * address is familiar to the identity. The per-identity ceiling is a step-up: while it is locked the attempt goes
 * on, uncounted, and a right password asks for an email code instead of a 429. A one-time code also counts
 * towards the identity's second-factor ceiling (`code`), unless the address is familiar. Keyed by the identity
 * hash, so an unknown account moves exactly the same counters as a known one.
 */
export function loginAttempt(services: Services, hash: string, ip: string, options: { code?: boolean } = {}): Attempt {
  return {
    keys: [
      { key: pairKey(hash, ip), policy: policies.loginPerPair },
      { key: accountKey(hash), policy: policies.loginPerAccount, unlessFamiliar: true, stepUp: true },
      { key: addressLimitKey(ip), policy: policies.loginPerAddress, unlessFamiliar: true },
      ...(options.code ? [{ key: codeKey(hash), policy: policies.secondFactorPerIdentity, unlessFamiliar: true }] : []),
    ],
    familiar: { emailHash: hash, sourceHash: sourceHash(services, ip) },
  };
}

const policyOf = (key: string) =>
  key.startsWith('login:pair:')
    ? policies.loginPerPair
    : key.startsWith('login:account:')
      ? policies.loginPerAccount
      : key.startsWith('login:code:')
        ? policies.secondFactorPerIdentity
        : policies.loginPerAddress;

/**
 * What a successful check gives back. A completed sign-in (every factor verified) ends the identity's consecutive
 * failures (pair, account, second factor) and gives the address back its attempt. A right password whose
 * session still waits for a factor only gives back what it reserved: failures, wrong codes included, stay on
 * record until a sign-in completes.
 */
export const loginRefund = (hash: string, ip: string, reserved: string[], complete: boolean): Refund =>
  complete
    ? {
        clear: [pairKey(hash, ip), accountKey(hash), codeKey(hash)],
        refund: reserved.includes(addressLimitKey(ip))
          ? [[addressLimitKey(ip), policies.loginPerAddress.freeFailures]]
          : [],
      }
    : { clear: [], refund: reserved.map((key) => [key, policyOf(key).freeFailures]) };

/** A completed sign-in by a one-time code: failures ended, the address given back and made familiar. */
export async function loginSucceeded(services: Services, hash: string, ip: string, reserved: string[]): Promise<void> {
  const refund = loginRefund(hash, ip, reserved, true);
  await services.throttle.refund({
    clear: refund.clear,
    refund: refund.refund.map(([key]) => [key, policyOf(key)]),
    familiar: { emailHash: hash, sourceHash: sourceHash(services, ip) },
  });
}

/** A checked attempt that compared nothing (no code to compare): what it reserved is given back. */
export async function loginNotChecked(services: Services, reserved: string[]): Promise<void> {
  await services.throttle.refund({ clear: [], refund: reserved.map((key) => [key, policyOf(key)]) });
}

/**
 * `after`: what a checked attempt gives back and the source it makes familiar, written with the session; `db`: the
 * transaction the session belongs to (a passkey sign-in writes it with the challenge it used up).
 */
export function startSession(
  services: Services,
  userId: number,
  factors: Factors,
  after: Parameters<typeof insertSessionWithToken>[2] = {},
  db: Executor = services.db,
): Promise<SessionBody> {
  return openSession(services, { userId }, factors, after, db);
}

/**
 * A single sign-on session for the tenant whose identity provider it waits for, bound to no user: whoever the
 * provider asserts is bound to it when the factor is verified. Its factor is unverified, so it lives minutes, cannot
 * be refreshed and may only answer its own challenge or end itself.
 */
export function startSsoSession(services: Services, ssoTenantId: number, factors: Factors): Promise<SessionBody> {
  return openSession(services, { userId: null, ssoTenantId }, factors);
}

async function openSession(
  services: Services,
  owner: { userId: number } | { userId: null; ssoTenantId: number },
  factors: Factors,
  after: Parameters<typeof insertSessionWithToken>[2] = {},
  db: Executor = services.db,
): Promise<SessionBody> {
  const now = services.now();
  const id = randomUUID();
  const refreshToken = newRefreshToken();
  // A session waiting for a factor lives only minutes and cannot be refreshed.
  const expiresAt = new Date(
    now.getTime() + (hasPendingFactor(factors) ? pendingSessionLifetimeMs : sessionLifetimeMs),
  );
  await insertSessionWithToken(
    db,
    { id, ...owner, factors, now, expiresAt, refreshTokenHash: hashRefreshToken(services, refreshToken) },
    after,
  );
  return sessionBody(services, { id, userId: owner.userId, refreshToken, factors });
}

async function sessionBody(
  services: Services,
  session: { id: string; userId: number | null; refreshToken: string; factors: Factors },
): Promise<SessionBody> {
  const accessToken = await services.tokens.sign({
    userId: session.userId,
    sessionId: session.id,
    pending: hasPendingFactor(session.factors),
  });
  return {
    id: session.id,
    accessToken,
    refreshToken: session.refreshToken,
    factors: session.factors as SessionBody['factors'],
  };
}

/**
 * Email + password. Unknown email, wrong password and no password set all answer INVALID_CREDENTIALS after the
 * same work; failures lock the identity hash and the client address out for growing times. After a successful
 * probe with the same credentials (the sign-in app's flow) the whole sign-in is one statement: lockouts, the
 * account, the probe's proof and the new session (signInWithPassword). Otherwise argon2 decides, as always.
 * At the per-identity ceiling, from an address not familiar to the identity, the right password is a step-up (a
 * session waiting for an email code) and a wrong one answers 429 as the ceiling always did.
 */
export async function createPasswordSession(
  services: Services,
  input: { email: string; password: string; ip: string },
): Promise<SessionBody> {
  const hash = emailHash(input.email);
  const ip = limitAddress(services, input.ip);
  const now = services.now();
  const session = { id: randomUUID(), refreshToken: newRefreshToken() };
  // Counted before argon2 runs, unless the probe's proof starts the session in this very statement.
  const guard = { attempt: loginAttempt(services, hash, ip) };
  const row = await signInWithPassword(services.db, {
    ...lockoutValues(now, guard),
    emailHash: hash,
    proofKey: proofKey(services, hash, input.password),
    sessionId: session.id,
    expiresAt: new Date(now.getTime() + sessionLifetimeMs).toISOString(),
    refreshTokenHash: hashRefreshToken(services, session.refreshToken),
    clearKeys: loginRefund(hash, ip, [], true).clear,
  });
  const { reserved, stepUp } = await services.throttle.verdict(row, now, guard);
  const user = row.account ?? undefined;
  if (user && row.session_id)
    return sessionBody(services, { ...session, userId: user.id, factors: passwordFactors(user, stepUp !== null) });
  const ok = await checkPassword(services, user, input.password);
  // A failure was counted before the check; nothing more to write.
  if (!ok || !user) {
    if (stepUp) throw tooManyRequests(stepUp);
    throw new ApiError('INVALID_CREDENTIALS', { message: 'Email or password is incorrect' });
  }
  const factors = passwordFactors(user, stepUp !== null);
  const complete = !hasPendingFactor(factors);
  // The session, the attempt given back and (once complete) the source made familiar: one statement.
  return startSession(services, user.id, factors, {
    refund: loginRefund(hash, ip, reserved, complete),
    familiar: complete ? { emailHash: hash, sourceHash: sourceHash(services, ip) } : undefined,
  });
}

/**
 * The lockouts a sign-in without an identity hash must respect, for `ip` as limitAddress gives it (coAlert codes
 * and passkeys: the account is known only once the secret or signature is checked).
 */
export const addressAttempt = (ip: string): Attempt => ({
  keys: [{ key: addressLimitKey(ip), policy: policies.loginPerAddress }],
});

/** A coAlert code signs in as the code's user, verified by the code, as often as its usage limit allows. */
export async function createCoalertSession(
  services: Services,
  input: { code: string; ip: string },
): Promise<SessionBody> {
  // Counted before the code is looked up, so concurrent guesses get no more checks than sequential ones.
  const ip = limitAddress(services, input.ip);
  const { reserved } = await services.throttle.guard({ lockoutKeys: [], attempt: addressAttempt(ip) });
  const codeHash = keyedHash(services.secretKey, `coalert\0${input.code.trim().toUpperCase()}`);
  const now = services.now();
  const code = await services.db
    .selectFrom('coalert_codes')
    .innerJoin('users', 'users.id', 'coalert_codes.user_id')
    .select(['coalert_codes.expires_at'])
    .where('coalert_codes.code_hash', '=', codeHash)
    // A user deactivated by every tenant's directory (SCIM) cannot sign in by code either.
    .where('users.deactivated_at', 'is', null)
    .executeTakeFirst();
  if (!code || (code.expires_at && code.expires_at <= now))
    throw new ApiError('INVALID_CREDENTIALS', { message: 'The code is not valid' });
  await services.throttle.refund({ clear: [], refund: reserved.map((key) => [key, policies.loginPerAddress]) });
  const used = await services.db
    .updateTable('coalert_codes')
    .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
    .where('code_hash', '=', codeHash)
    .whereRef('usage_count', '<', 'usage_limit')
    .returning('user_id')
    .executeTakeFirst();
  if (!used)
    throw new ApiError('COALERT_CODE_USAGE_LIMIT_REACHED', { message: 'The code has reached its usage limit' });
  return startSession(services, used.user_id, { coalert: 'verified' });
}

/**
 * Rotates the refresh token: one chain per session. The current token yields its successor (one statement);
 * the immediate predecessor, within the grace window, yields the current token again (concurrent tabs,
 * retries: no second live chain); any other superseded token of the session means it leaked, and the whole
 * session is revoked. At most two statements, whatever the session's history.
 */
export async function refreshSession(
  services: Services,
  input: { sessionId: string; refreshToken: string },
): Promise<SessionBody> {
  if (!input.refreshToken.startsWith(refreshTokenPrefix))
    throw new ApiError('INVALID_REFRESH_TOKEN', { message: 'The refresh token is not valid' });
  const tokenHash = hashRefreshToken(services, input.refreshToken);
  const successor = successorRefreshToken(services, input.refreshToken);
  const successorHash = hashRefreshToken(services, successor);
  const now = services.now();
  const [rotated] = await rotateRefreshToken(services.db, {
    sessionId: input.sessionId,
    tokenHash,
    nextHash: successorHash,
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + sessionLifetimeMs).toISOString(),
    historyStart: new Date(now.getTime() - refreshHistoryMs).toISOString(),
  });
  if (rotated)
    return sessionBody(services, {
      id: rotated.id,
      userId: Number(rotated.user_id),
      refreshToken: successor,
      factors: rotated.factors,
    });
  const [why] = await refreshFallback(services.db, {
    sessionId: input.sessionId,
    tokenHash,
    successorHash,
    now: now.toISOString(),
    graceStart: new Date(now.getTime() - refreshGraceMs).toISOString(),
  });
  const fail = (code: 'INVALID_SESSION_ID' | 'INVALID_REFRESH_TOKEN' | 'INVALID_SESSION' | 'EXPIRED_REFRESH_TOKEN') => {
    const messages = {
      INVALID_SESSION_ID: 'Unknown session',
      INVALID_REFRESH_TOKEN: 'The refresh token is not valid',
      INVALID_SESSION: 'The session has ended',
      EXPIRED_REFRESH_TOKEN: 'The refresh token has expired',
    };
    return new ApiError(code, { message: messages[code] });
  };
  if (!why.session_id) throw fail('INVALID_SESSION_ID');
  if (!why.token_session) throw fail('INVALID_REFRESH_TOKEN');
  if (why.token_session !== why.session_id) throw fail('INVALID_SESSION_ID');
  if (why.revoked_now) {
    services.logger.warn({ sessionId: input.sessionId }, 'superseded refresh token presented: session revoked');
    throw fail('INVALID_REFRESH_TOKEN');
  }
  if (why.revoked_at) throw fail('INVALID_SESSION');
  if (why.expires_at! <= now) throw fail('EXPIRED_REFRESH_TOKEN');
  if (hasPendingFactor(why.factors!) || why.user_id === null)
    throw new ApiError('INVALID_SESSION', { message: 'A session waiting for its second factor cannot be refreshed' });
  // The grace-window predecessor: the chain's current token again, nothing written.
  if (why.is_grace_predecessor)
    return sessionBody(services, {
      id: why.session_id,
      userId: Number(why.user_id),
      refreshToken: successor,
      factors: why.factors!,
    });
  // The current token whose rotation lost a race to a change of the session (revoked or expired meanwhile).
  throw fail('INVALID_SESSION');
}

/**
 * Logs out one of the caller's own sessions. A caller bound to no user yet (single sign-on before the identity
 * provider answered) owns only the session it is.
 */
export async function endSession(
  services: Services,
  input: { caller: { userId: number | null; sessionId: string }; sessionId: string },
): Promise<void> {
  const { caller } = input;
  const session = await services.db
    .selectFrom('sessions')
    .select(['user_id'])
    .where('id', '=', input.sessionId)
    .executeTakeFirst();
  const own = caller.userId === null ? input.sessionId === caller.sessionId : session?.user_id === caller.userId;
  if (!session || !own) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
  await services.db
    .transaction()
    .execute((trx) => revokeSessions(trx, { sessionId: input.sessionId }, 'logout', services.now()));
}
