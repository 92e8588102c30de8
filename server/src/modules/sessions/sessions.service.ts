import { randomUUID } from 'node:crypto';
import { ApiError } from '../../errors';
import { checkPassword, claimProof } from '../../security/credentials';
import { emailHash, keyedHash } from '../../security/hashing';
import { policies } from '../../security/throttle';
import type { Services } from '../../services';
import {
  deleteOldRefreshTokens,
  findRefreshToken,
  findSessionForUpdate,
  accountByEmailHash,
  insertSessionWithToken,
  passwordFactors,
  sessionOnProof,
  revokeSessions,
  supersedeRefreshTokens,
  touchLastAccess,
  updateSession,
  type Factors,
  type SignInAccount,
} from './sessions.repository';
import { hashRefreshToken, issueTokens, newRefreshToken, refreshGraceMs, refreshTokenPrefix, sessionLifetimeMs, type SessionBody } from './tokens';

const accountKey = (hash: string) => `login:account:${hash}`;
const addressKey = (ip: string) => `login:address:${ip}`;

export async function startSession(services: Services, userId: number, factors: Factors): Promise<SessionBody> {
  const now = services.now();
  const id = randomUUID();
  const refreshToken = newRefreshToken();
  const expiresAt = new Date(now.getTime() + sessionLifetimeMs);
  await insertSessionWithToken(services.db, { id, userId, factors, now, expiresAt, refreshTokenHash: hashRefreshToken(services, refreshToken) });
  return sessionBody(services, { id, userId, refreshToken, factors });
}

async function sessionBody(services: Services, session: { id: string; userId: number; refreshToken: string; factors: Factors }): Promise<SessionBody> {
  const accessToken = await services.tokens.sign({ userId: session.userId, sessionId: session.id });
  return { id: session.id, accessToken, refreshToken: session.refreshToken, factors: session.factors as SessionBody['factors'] };
}

/**
 * Email + password. Unknown email, wrong password and no password set all answer INVALID_CREDENTIALS after the
 * same work; failures lock the identity hash and the client address out for growing times. After a successful
 * probe with the same credentials (the sign-in app's flow) the whole sign-in is one statement: lockouts, the
 * account, the probe's proof and the new session (sessionOnProof). Otherwise argon2 decides, as always.
 */
export async function createPasswordSession(services: Services, input: { email: string; password: string; ip: string }): Promise<SessionBody> {
  const hash = emailHash(input.email);
  const now = services.now();
  const session = { id: randomUUID(), refreshToken: newRefreshToken() };
  const { onRecord, alongside } = await services.throttle.guard({
    lockoutKeys: loginLockoutKeys(hash, input.ip),
    alongside: {
      account: accountByEmailHash.with(hash),
      proof: claimProof(services, hash, input.password),
      session: sessionOnProof.with(
        session.id,
        now.toISOString(),
        new Date(now.getTime() + sessionLifetimeMs).toISOString(),
        hashRefreshToken(services, session.refreshToken),
        accountKey(hash),
      ),
    },
  });
  const user = (alongside.account as SignInAccount | null) ?? undefined;
  if (user && alongside.session) return sessionBody(services, { ...session, userId: user.id, factors: passwordFactors(user) });
  const ok = await checkPassword(services, user, input.password);
  if (!ok || !user) {
    await recordLoginFailure(services, hash, input.ip);
    throw new ApiError('INVALID_CREDENTIALS', { message: 'Email or password is incorrect' });
  }
  if (onRecord.has(accountKey(hash))) await services.throttle.clear(accountKey(hash));
  return startSession(services, user.id, passwordFactors(user));
}

export async function recordLoginFailure(services: Services, hash: string | null, ip: string | null): Promise<void> {
  if (hash) await services.throttle.recordFailure(accountKey(hash), policies.loginPerAccount);
  if (ip) await services.throttle.recordFailure(addressKey(ip), policies.loginPerAddress);
}

/** The lockouts a sign-in or probe with this identity hash (if any) from this address must respect. */
export const loginLockoutKeys = (hash: string | null, ip: string) => [...(hash ? [accountKey(hash)] : []), addressKey(ip)];

export async function assertLoginAllowed(services: Services, hash: string | null, ip: string): Promise<Set<string>> {
  return services.throttle.assertNotBlocked(...loginLockoutKeys(hash, ip));
}

/** A coAlert code signs in as the code's user, verified by the code, as often as its usage limit allows. */
export async function createCoalertSession(services: Services, input: { code: string; ip: string }): Promise<SessionBody> {
  await assertLoginAllowed(services, null, input.ip);
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
  if (!code || (code.expires_at && code.expires_at <= now)) {
    await recordLoginFailure(services, null, input.ip);
    throw new ApiError('INVALID_CREDENTIALS', { message: 'The code is not valid' });
  }
  const used = await services.db
    .updateTable('coalert_codes')
    .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
    .where('code_hash', '=', codeHash)
    .whereRef('usage_count', '<', 'usage_limit')
    .returning('user_id')
    .executeTakeFirst();
  if (!used) throw new ApiError('COALERT_CODE_USAGE_LIMIT_REACHED', { message: 'The code has reached its usage limit' });
  return startSession(services, used.user_id, { coalert: 'verified' });
}

/**
 * Rotates the refresh token. The token just replaced stays usable for a grace window (concurrent tabs, retried
 * requests); presenting an older one means it leaked, so the whole session is revoked.
 */
export async function refreshSession(services: Services, input: { sessionId: string; refreshToken: string }): Promise<SessionBody> {
  if (!input.refreshToken.startsWith(refreshTokenPrefix)) throw new ApiError('INVALID_REFRESH_TOKEN', { message: 'The refresh token is not valid' });
  const tokenHash = hashRefreshToken(services, input.refreshToken);
  const now = services.now();
  const outcome = await services.db.transaction().execute(async (trx) => {
    const session = await findSessionForUpdate(trx, input.sessionId);
    if (!session) return { error: 'INVALID_SESSION_ID' as const };
    const token = await findRefreshToken(trx, tokenHash);
    if (!token) return { error: 'INVALID_REFRESH_TOKEN' as const };
    if (token.session_id !== session.id) return { error: 'INVALID_SESSION_ID' as const };
    if (session.revoked_at) return { error: 'INVALID_SESSION' as const };
    if (session.expires_at <= now) return { error: 'EXPIRED_REFRESH_TOKEN' as const };
    if (token.superseded_at && now.getTime() - token.superseded_at.getTime() > refreshGraceMs) {
      await revokeSessions(trx, { sessionId: session.id }, 'refresh_token_reuse', now);
      return { error: 'INVALID_REFRESH_TOKEN' as const, revoked: true };
    }
    if (!token.superseded_at) await supersedeRefreshTokens(trx, session.id, now);
    await deleteOldRefreshTokens(trx, session.id, new Date(now.getTime() - 7 * 86_400_000));
    await updateSession(trx, session.id, { lastRefreshedAt: now, expiresAt: new Date(now.getTime() + sessionLifetimeMs) });
    await touchLastAccess(trx, session.user_id, now);
    return { session: await issueTokens(services, trx, { id: session.id, userId: session.user_id, factors: session.factors }) };
  });
  if ('error' in outcome && outcome.error) {
    if (outcome.revoked) services.logger.warn({ sessionId: input.sessionId }, 'refresh token reused after its grace window: session revoked');
    const messages = {
      INVALID_SESSION_ID: 'Unknown session',
      INVALID_REFRESH_TOKEN: 'The refresh token is not valid',
      INVALID_SESSION: 'The session has ended',
      EXPIRED_REFRESH_TOKEN: 'The refresh token has expired',
    };
    throw new ApiError(outcome.error, { message: messages[outcome.error] });
  }
  return outcome.session!;
}

/** Logs out one of the caller's own sessions. */
export async function endSession(services: Services, input: { userId: number; sessionId: string }): Promise<void> {
  const session = await services.db.selectFrom('sessions').select(['user_id']).where('id', '=', input.sessionId).executeTakeFirst();
  if (!session || session.user_id !== input.userId) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
  await services.db.transaction().execute((trx) => revokeSessions(trx, { sessionId: input.sessionId }, 'logout', services.now()));
}
