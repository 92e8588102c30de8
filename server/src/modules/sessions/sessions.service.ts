import { randomUUID } from 'node:crypto';
import { ApiError, tooManyRequests } from '../../errors';
import { emailHash, keyedHash } from '../../security/hashing';
import type { SessionsDeps } from './sessions.deps';
import type { Executor, Trx } from '../../db/database';
import { hasPendingFactor } from '../../http/auth';
import { unknownClient, type SignInClient } from '../../shared/client-address';
import { recordSecurityEvent, regionOnly, type EventClient } from '../security-events';
import { checkPassword, proofKey } from './credentials';
import {
  addressAttempt,
  giveBack,
  giveBackValues,
  guard,
  limitAddress,
  lockoutValues,
  loginAttempt,
  notChecked,
  succeeded,
  verdict,
  type GiveBack,
} from './lockouts';
import {
  findSessionForUpdate,
  forgetCredentials,
  insertSessionWithToken,
  removeAllPasskeys,
  refreshFallback,
  revokeSessions,
  rotateRefreshToken,
  signInWithPassword,
  type Factors,
  type StartingFactors,
  noSignInEvent,
  type WrittenSession,
  findCoalertCode,
  sessionOwner,
  useCoalertCode,
} from './sessions.repository';
import { refreshHistoryMs } from './lifetimes';
import { bindSessionToUser } from './sso-binding.repository';
import { signInEventValues, signInRefused, signInFailed, countSignInEvent, type SignInEvent } from './sign-in-events';
import {
  hashRefreshToken,
  newRefreshToken,
  refreshGraceMs,
  refreshTokenPrefix,
  sessionLifetimeMs,
  sessionBody,
  successorRefreshToken,
  type SessionBody,
} from './tokens';

/** A completed sign-in by a second factor (a code, a passkey): failures ended, the address given back and made familiar. */
export async function secondFactorSucceeded(services: SessionsDeps, hash: string, ip: string, reserved: string[]) {
  await giveBack(services, succeeded(services, { hash, ip, reserved, complete: true }));
}

/** A checked attempt that compared nothing (no code to compare): what it reserved is given back. */
export async function attemptNotChecked(services: SessionsDeps, reserved: string[]): Promise<void> {
  await giveBack(services, notChecked(reserved));
}

/**
 * `after`: what a checked attempt gives back (lockouts.ts: succeeded), written with the session; `db`: the
 * transaction the session belongs to (a passkey sign-in writes it with the challenge it used up).
 */
export function startSession(
  services: SessionsDeps,
  userId: number,
  factors: StartingFactors,
  after?: GiveBack,
  db: Executor = services.db,
  event?: SignInEvent,
): Promise<SessionBody> {
  return openSession(services, { userId }, factors, after, db, event);
}

/**
 * A single sign-on session for the tenant whose identity provider it waits for, bound to no user: whoever the
 * provider asserts is bound to it when the factor is verified. Its factor is unverified, so it lives minutes, cannot
 * be refreshed and may only answer its own challenge or end itself.
 */
export function startSsoSession(
  services: SessionsDeps,
  ssoTenantId: number,
  factors: Factors,
  client: SignInClient = unknownClient,
): Promise<SessionBody> {
  return openSession(services, { userId: null, ssoTenantId }, factors, undefined, services.db, undefined, client);
}

/** The session as written: its factors and its lifetime are the SQL rule's (sessions.repository.ts), not recomputed. */
async function openSession(
  services: SessionsDeps,
  owner: { userId: number } | { userId: null; ssoTenantId: number },
  factors: StartingFactors,
  after?: GiveBack,
  db: Executor = services.db,
  event?: SignInEvent,
  // The session keeps the sign-in's client (the account page shows it); a single sign-on session, bound to nobody
  // and with no event yet, is given it.
  client: SignInClient = event ? { userAgent: event.client.userAgent, network: event.client.network } : unknownClient,
): Promise<SessionBody> {
  const now = services.now();
  const id = randomUUID();
  const refreshToken = newRefreshToken();
  const written = await insertSessionWithToken(
    db,
    {
      id,
      ...owner,
      factors,
      expiresAt: new Date(now.getTime() + sessionLifetimeMs),
      refreshTokenHash: hashRefreshToken(services, refreshToken),
      client,
    },
    giveBackValues(now, after),
    event && owner.userId !== null ? { ...signInEventValues(event), stepUp: event.stepUp } : noSignInEvent,
  );
  if (event) countSignInEvent(written.factors, event.stepUp);
  return sessionBody(services, { id, userId: owner.userId, refreshToken, factors: written.factors });
}

/**
 * Email + password. Unknown email, wrong password and no password set all answer INVALID_CREDENTIALS after the
 * same work; failures lock the identity hash and the client address out for growing times. After a successful
 * probe with the same credentials (the sign-in app's flow) the whole sign-in is one statement: lockouts, the
 * account, the probe's proof and the new session (signInWithPassword). Otherwise argon2 decides, as always.
 * At the per-identity ceiling, from an address not familiar to the identity, the right password is a step-up (a
 * session waiting for an email code) and a wrong one answers 429 as the ceiling always did. Either way the
 * session's factors and lifetime are those the statement wrote.
 */
export async function createPasswordSession(
  services: SessionsDeps,
  input: { email: string; password: string; ip: string; event?: SignInEvent },
): Promise<SessionBody> {
  const hash = emailHash(input.email);
  const event = input.event ?? null;
  const ip = limitAddress(services, input.ip);
  const now = services.now();
  const session = { id: randomUUID(), refreshToken: newRefreshToken() };
  // Counted before argon2 runs, unless the probe's proof starts the session in this very statement.
  const options = { attempt: loginAttempt(services, hash, ip) };
  // Nothing reserved when the proof starts the session: a complete one ends the failures and makes the source familiar.
  const back = giveBackValues(now, succeeded(services, { hash, ip, reserved: [] }));
  const row = await signInWithPassword(services.db, {
    ...lockoutValues(now, options),
    emailHash: hash,
    proofKey: proofKey(services, hash, input.password),
    sessionId: session.id,
    expiresAt: new Date(now.getTime() + sessionLifetimeMs).toISOString(),
    refreshTokenHash: hashRefreshToken(services, session.refreshToken),
    clear: back.clear,
    refund: back.refund,
    free: back.free,
    ...(event ? signInEventValues(event) : noSignInEvent),
  });
  const user = row.account ?? undefined;
  const { reserved, stepUp } = await signInRefused(services, event, user?.id, () =>
    verdict(services, row, now, options),
  );
  if (user && row.session) {
    if (event) countSignInEvent(row.session.factors, stepUp !== null);
    return writtenBody(services, { ...session, userId: user.id }, row.session);
  }
  const ok = await checkPassword(services, user, input.password);
  // A failure was counted before the check; its event (a known account's) is one more statement.
  if (!ok || !user) {
    if (user && event) await signInFailed(services, event, user.id);
    if (stepUp) throw tooManyRequests(stepUp);
    throw new ApiError('INVALID_CREDENTIALS', { message: 'Email or password is incorrect' });
  }
  // The session, the attempt given back and (once complete) the source made familiar: one statement, which says
  // from the factors it writes whether the sign-in is complete.
  const second = {
    email: user.otp_email_enabled || stepUp !== null,
    sms: user.otp_sms_enabled,
    passkey: user.has_passkey,
  };
  return startSession(
    services,
    user.id,
    { password: second },
    succeeded(services, { hash, ip, reserved }),
    services.db,
    event ? { ...event, stepUp: stepUp !== null } : undefined,
  );
}

const writtenBody = (
  services: SessionsDeps,
  session: { id: string; userId: number; refreshToken: string },
  written: WrittenSession,
) => sessionBody(services, { ...session, factors: written.factors });

/** A coAlert code signs in as the code's user, verified by the code, as often as its usage limit allows. */
export async function createCoalertSession(
  services: SessionsDeps,
  input: { code: string; ip: string; event?: SignInEvent },
): Promise<SessionBody> {
  // Counted before the code is looked up, so concurrent guesses get no more checks than sequential ones.
  const ip = limitAddress(services, input.ip);
  const { reserved } = await guard(services, { attempt: addressAttempt(ip) });
  const codeHash = keyedHash(services.secretKey, `coalert\0${input.code.trim().toUpperCase()}`);
  const now = services.now();
  const code = await findCoalertCode(services.db, codeHash);
  if (!code || (code.expires_at && code.expires_at <= now))
    throw new ApiError('INVALID_CREDENTIALS', { message: 'The code is not valid' });
  await giveBack(services, notChecked(reserved));
  const used = await useCoalertCode(services.db, codeHash);
  if (!used)
    throw new ApiError('COALERT_CODE_USAGE_LIMIT_REACHED', { message: 'The code has reached its usage limit' });
  return startSession(services, used.user_id, { coalert: 'verified' }, undefined, services.db, input.event);
}

/**
 * Rotates the refresh token: one chain per session. The current token yields its successor (one statement);
 * the immediate predecessor, within the grace window, yields the current token again (concurrent tabs,
 * retries: no second live chain); any other superseded token of the session means it leaked, and the whole
 * session is revoked. At most two statements, whatever the session's history.
 */
export async function refreshSession(
  services: SessionsDeps,
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
  services: SessionsDeps,
  input: { caller: { userId: number | null; sessionId: string }; sessionId: string; client?: EventClient },
): Promise<void> {
  const { caller } = input;
  const session = await sessionOwner(services.db, input.sessionId);
  const own = caller.userId === null ? input.sessionId === caller.sessionId : session?.user_id === caller.userId;
  if (!session || !own) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
  // A logout is the caller's own session ending; another of her sessions (a lost phone) is a security event.
  const userId = caller.userId;
  if (input.sessionId === caller.sessionId || userId === null) {
    await revokeSessions(services.db, { sessionId: input.sessionId }, 'logout', services.now());
    return;
  }
  await services.db.transaction().execute(async (trx) => {
    const ended = await revokeSessions(trx, { sessionId: input.sessionId }, 'ended_by_user', services.now());
    if (ended > 0)
      await recordSecurityEvent(trx, {
        kind: 'sessions_ended',
        userId,
        client: input.client ?? regionOnly(services.config.region),
        details: { count: ended, reason: 'one' },
      });
  });
}

/**
 * Holds a session for the rest of the transaction (its row locked): a second factor being answered or a challenge
 * replaced settles it once, however many requests race. Answers the session as it stands.
 */
export function holdSession(trx: Trx, sessionId: string) {
  return findSessionForUpdate(trx, sessionId);
}

/**
 * A single sign-on session answered: bound to the user its identity provider asserted, with the verified factor, in
 * the caller's transaction (the session held by holdSession).
 */
export function bindSsoSession(
  trx: Trx,
  session: { id: string; userId: number; factors: Record<string, 'verified'> },
  now: Date,
) {
  return bindSessionToUser(trx, session.id, session.userId, session.factors, now);
}

/** Ends every live session of a user: a password reset, a directory's deactivation. */
export function revokeSessionsOf(db: Executor, userId: number, reason: 'password_reset' | 'deactivated', now: Date) {
  return revokeSessions(db, { userId }, reason, now);
}

/**
 * The account's last membership is gone (its directory deleted it): every credential goes with it, in the caller's
 * transaction (password, passkeys, coAlert codes, sessions and their refresh tokens).
 */
export async function forgetCredentialsOf(db: Executor, userId: number): Promise<void> {
  await forgetCredentials(db, userId);
}

/** A password reset: every passkey of the account goes (in the reset's transaction); answers how many. */
export async function removePasskeysOnReset(db: Executor, userId: number): Promise<number> {
  return (await removeAllPasskeys(db, userId)).length;
}
