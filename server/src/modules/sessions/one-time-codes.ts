// Second factor by one-time code (email or SMS): 6 random digits, stored as a keyed hash, valid 10 minutes,
// at most 5 tries, a new one at most every 30 seconds and 10 an hour.
import { randomUUID } from 'node:crypto';
import { ApiError, tooManyRequests } from '../../errors';
import type { AuthContext } from '../../http/auth';
import { keyedHash, randomDigits, safeEqual } from '../../security/hashing';
import { policies } from '../../security/throttle';
import type { Services } from '../../services';
import { findSessionForUpdate, findUserById, supersedeRefreshTokens, updateSession, type Factors } from './sessions.repository';
import { issueTokens, type SessionBody } from './tokens';

export type OtpKind = 'otpEmail' | 'otpSms';

export const codeLength = 6;
export const codeLifetimeMs = 10 * 60_000;
export const resendCooldownMs = 30_000;
export const maxAttempts = 5;

const hashCode = (services: Services, challengeId: string, code: string) => keyedHash(services.secretKey, `otp\0${challengeId}\0${code}`);

export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)}${'*'.repeat(Math.max(0, phone.length - 5))}${phone.slice(-2)}`;
}

function assertOwnPendingSession(auth: AuthContext, sessionId: string): void {
  if (auth.sessionId !== sessionId) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
  if (auth.factors.otpEmail !== 'unverified' && auth.factors.otpSms !== 'unverified') {
    throw new ApiError('MFA_REQUIRED_BUT_NOT_ENABLED', { message: 'This session has no second factor to verify' });
  }
}

export async function sendOneTimeCode(services: Services, auth: AuthContext, sessionId: string, kind: OtpKind) {
  assertOwnPendingSession(auth, sessionId);
  const user = await findUserById(services.db, auth.userId);
  if (!user) throw new ApiError('INVALID_SESSION');
  if (kind === 'otpSms' && (auth.factors.otpSms !== 'unverified' || !user.phone_primary)) {
    throw new ApiError('MFA_REQUIRED_BUT_NOT_ENABLED', { message: 'SMS codes are not enabled for this user' });
  }
  const now = services.now();
  const code = randomDigits(codeLength);
  const id = randomUUID();
  const to = kind === 'otpEmail' ? user.email : user.phone_primary!;
  const validUntil = new Date(now.getTime() + codeLifetimeMs);
  const resendUnavailableUntil = new Date(now.getTime() + resendCooldownMs);

  const assertCooledDown = async (db: Parameters<typeof findSessionForUpdate>[0] | Services['db']) => {
    const latest = await db
      .selectFrom('challenges')
      .select('resend_unavailable_until')
      .where('session_id', '=', sessionId)
      .where('kind', '=', kind)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (latest && latest.resend_unavailable_until > now) throw tooManyRequests(latest.resend_unavailable_until, 'Wait before asking for another code');
  };
  // Cheap check first, so waiting clients do not use up the hourly budget; again under the lock for races.
  await assertCooledDown(services.db);
  await services.throttle.consume([`otp:send:${user.id}`, policies.otpSendPerUser]);
  await services.db.transaction().execute(async (trx) => {
    await findSessionForUpdate(trx, sessionId);
    await assertCooledDown(trx);
    await trx.updateTable('challenges').set({ consumed_at: now }).where('session_id', '=', sessionId).where('consumed_at', 'is', null).where('kind', 'in', ['otpEmail', 'otpSms']).execute();
    await trx
      .insertInto('challenges')
      .values({ id, session_id: sessionId, kind, secret_hash: hashCode(services, id, code), sent_to: to, valid_until: validUntil, resend_unavailable_until: resendUnavailableUntil })
      .execute();
  });

  // Sent after commit: the outbox and SMTP must not run inside the transaction.
  try {
    const minutes = Math.round(codeLifetimeMs / 60_000);
    if (kind === 'otpEmail') {
      await services.notifier.email.send({ to, subject: `Your verification code: ${code}`, body: `Your verification code is ${code}. It is valid for ${minutes} minutes. If you did not try to sign in, you can ignore this message.` });
    } else {
      await services.notifier.sms.send({ to, body: `Your verification code is ${code}. Valid for ${minutes} minutes.` });
    }
  } catch (error) {
    await services.db.deleteFrom('challenges').where('id', '=', id).execute();
    services.logger.error({ err: error instanceof Error ? error.message : String(error), channel: kind }, 'could not send one-time code');
    throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The code could not be sent; try again' });
  }
  return {
    sentTo: kind === 'otpEmail' ? maskEmail(to) : maskPhone(to),
    validUntil: validUntil.toISOString(),
    resendUnavailableUntil: resendUnavailableUntil.toISOString(),
  };
}

export async function verifyOneTimeCode(services: Services, auth: AuthContext, sessionId: string, kind: OtpKind, code: string): Promise<SessionBody> {
  assertOwnPendingSession(auth, sessionId);
  const now = services.now();
  const outcome = await services.db.transaction().execute(async (trx) => {
    const session = await findSessionForUpdate(trx, sessionId);
    if (!session || session.revoked_at) return { error: 'INVALID_SESSION' as const };
    const challenge = await trx
      .selectFrom('challenges')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('kind', '=', kind)
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!challenge || challenge.attempts >= maxAttempts) return { error: 'INVALID_CREDENTIALS' as const };
    if (challenge.valid_until <= now) return { error: 'MFA_TOKEN_EXPIRED' as const };
    if (!safeEqual(challenge.secret_hash ?? '', hashCode(services, challenge.id, code))) {
      await trx.updateTable('challenges').set({ attempts: challenge.attempts + 1 }).where('id', '=', challenge.id).execute();
      return { error: 'INVALID_CREDENTIALS' as const };
    }
    await trx.updateTable('challenges').set({ consumed_at: now }).where('id', '=', challenge.id).execute();
    const factors: Factors = { password: 'verified', [kind]: 'verified' };
    await updateSession(trx, sessionId, { factors });
    await supersedeRefreshTokens(trx, sessionId, now);
    return { session: await issueTokens(services, trx, { id: sessionId, userId: session.user_id, factors }) };
  });
  if ('error' in outcome && outcome.error) {
    const messages = { INVALID_SESSION: 'The session has ended', INVALID_CREDENTIALS: 'Incorrect verification code', MFA_TOKEN_EXPIRED: 'The verification code has expired' };
    throw new ApiError(outcome.error, { message: messages[outcome.error] });
  }
  return outcome.session!;
}
