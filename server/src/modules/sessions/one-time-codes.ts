// Second factor by one-time code (email or SMS): 6 random digits, stored as a keyed hash, valid 10 minutes,
// at most 5 tries, a new one at most every 30 seconds and 10 an hour. 10 wrong codes in one pending session end
// it; wrong codes also count per identity across its pending sessions (policies.secondFactorPerIdentity).
import { randomUUID } from 'node:crypto';
import { ApiError, tooManyRequests } from '../../errors';
import type { SessionCaller } from '../../shared/caller';
import { languageForUser } from '../../messages/recipient-language';
import { oneTimeCodeEmail, oneTimeCodeSms } from '../../messages/sign-in-messages';
import { keyedHash, randomDigits, safeEqual } from '../../security/hashing';
import { policies } from '../../security/throttle';
import type { Executor } from '../../db/database';
import type { SessionsDeps } from './sessions.deps';
import { findSessionForUpdate, findUserById, revokeSessions } from './sessions.repository';
import {
  consumeChallenge,
  countWrongAnswer,
  deleteChallenge,
  emailHashOf,
  openChallengeForUpdate,
  replaceCodeChallenge,
  resendHeldUntil,
  wrongAnswersOf,
} from './challenges.repository';
import { guard, limitAddress, loginAttempt } from './lockouts';
import { attemptNotChecked, secondFactorSucceeded } from './sessions.service';
import { factorsAfterAnswer, settleAndIssueTokens, type SessionBody } from './tokens';
import { signInFailed, signInRefused, signInSucceeded } from './sign-in-events';
import type { EventClient } from '../security-events';

export type OtpKind = 'otpEmail' | 'otpSms';

export const codeLength = 6;
export const codeLifetimeMs = 10 * 60_000;
export const resendCooldownMs = 30_000;
export const maxAttempts = 5;
/** Wrong codes in one pending session (over all its codes) that end it. */
export const maxWrongCodesPerSession = 10;

const hashCode = (services: SessionsDeps, challengeId: string, code: string) =>
  keyedHash(services.secretKey, `otp\0${challengeId}\0${code}`);

export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)}${'*'.repeat(Math.max(0, phone.length - 5))}${phone.slice(-2)}`;
}

/** The user of the caller's own session waiting for a one-time code (a session bound to no user has none). */
function ownPendingSessionUser(auth: SessionCaller, sessionId: string): number {
  if (auth.sessionId !== sessionId) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
  if ((auth.factors.otpEmail !== 'unverified' && auth.factors.otpSms !== 'unverified') || auth.userId === null) {
    throw new ApiError('MFA_REQUIRED_BUT_NOT_ENABLED', { message: 'This session has no second factor to verify' });
  }
  return auth.userId;
}

/**
 * A wrong answer to a second-factor challenge (a code or a passkey): counted on its challenge, and the session ends
 * once its challenges hold `maxWrongCodesPerSession` wrong answers together. True when it ended.
 */
export async function countWrongSecondFactor(
  trx: Executor,
  { sessionId, challenge, now }: { sessionId: string; challenge: { id: string; attempts: number }; now: Date },
): Promise<boolean> {
  await countWrongAnswer(trx, challenge);
  const ended = (await wrongAnswersOf(trx, sessionId)) >= maxWrongCodesPerSession;
  if (ended) await revokeSessions(trx, { sessionId }, 'second_factor_failures', now);
  return ended;
}

/** `acceptLanguage`: the request's header, the sign-in app's language for a user who has not chosen one. */
export async function sendOneTimeCode(
  services: SessionsDeps,
  auth: SessionCaller,
  sessionId: string,
  kind: OtpKind,
  acceptLanguage?: string,
) {
  const userId = ownPendingSessionUser(auth, sessionId);
  const user = await findUserById(services.db, userId);
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

  const assertCooledDown = async (db: Parameters<typeof findSessionForUpdate>[0] | SessionsDeps['db']) => {
    const until = await resendHeldUntil(db, sessionId, kind);
    if (until && until > now) throw tooManyRequests(until, 'Wait before asking for another code');
  };
  // Cheap check first, so waiting clients do not use up the hourly budget; again under the lock for races.
  await assertCooledDown(services.db);
  await services.throttle.consume([`otp:send:${user.id}`, policies.otpSendPerUser]);
  await services.db.transaction().execute(async (trx) => {
    await findSessionForUpdate(trx, sessionId);
    await assertCooledDown(trx);
    await replaceCodeChallenge(trx, {
      id,
      sessionId,
      kind,
      secretHash: hashCode(services, id, code),
      sentTo: to,
      validUntil,
      resendUnavailableUntil,
      now,
    });
  });

  // Sent after commit: the outbox and SMTP must not run inside the transaction.
  try {
    const minutes = Math.round(codeLifetimeMs / 60_000);
    const language = await languageForUser(services.db, user.id, acceptLanguage);
    if (kind === 'otpEmail') {
      await services.notifier.email.send({ to, ...oneTimeCodeEmail(language, { code, minutes }) });
    } else {
      await services.notifier.sms.send({
        to,
        ...oneTimeCodeSms(language, { code, minutes, signInAppUrl: services.config.signInAppUrl }),
      });
    }
  } catch (error) {
    await deleteChallenge(services.db, id);
    services.logger.error(
      { err: error instanceof Error ? error.message : String(error), channel: kind },
      'could not send one-time code',
    );
    throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The code could not be sent; try again' });
  }
  return {
    sentTo: kind === 'otpEmail' ? maskEmail(to) : maskPhone(to),
    validUntil: validUntil.toISOString(),
    resendUnavailableUntil: resendUnavailableUntil.toISOString(),
  };
}

export async function verifyOneTimeCode(
  services: SessionsDeps,
  auth: SessionCaller,
  sessionId: string,
  kind: OtpKind,
  code: string,
  ip: string,
  eventFrom?: EventClient,
): Promise<SessionBody> {
  const userId = ownPendingSessionUser(auth, sessionId);
  const event = eventFrom ? { client: eventFrom, method: kind } : null;
  const now = services.now();
  // A wrong code is a failed sign-in like a wrong password: reserved against the account's lockouts and its
  // second-factor ceiling before the code is compared (so concurrent guesses get no more checks than sequential
  // ones); a right code completes the sign-in and ends them; a request that compared no code gives them back.
  const emailHash = await emailHashOf(services.db, userId);
  if (emailHash === undefined) throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  const client = limitAddress(services, ip);
  const { reserved } = await signInRefused(services, event, userId, () =>
    guard(services, {
      // Stryker disable next-line ArrayDeclaration: equivalent; a lockout key with no failures on record holds nothing back.
      lockoutKeys: [],
      attempt: loginAttempt(services, emailHash, client, { code: true }),
    }),
  );
  const outcome = await services.db.transaction().execute(async (trx) => {
    const session = await findSessionForUpdate(trx, sessionId);
    if (!session || session.revoked_at) return { error: 'INVALID_SESSION' as const };
    const challenge = await openChallengeForUpdate(trx, sessionId, kind);
    if (!challenge) return { error: 'INVALID_CREDENTIALS' as const };
    // Used up by wrong tries or out of time: either way the user needs a new code.
    if (challenge.attempts >= maxAttempts) return { error: 'MFA_TOKEN_EXPIRED' as const, usedUp: true };
    if (challenge.valid_until <= now) return { error: 'MFA_TOKEN_EXPIRED' as const };
    // Stryker disable next-line StringLiteral: equivalent; a code challenge always has a hash (only passkey challenges have none).
    if (!safeEqual(challenge.secret_hash ?? '', hashCode(services, challenge.id, code))) {
      const ended = await countWrongSecondFactor(trx, { sessionId, challenge, now });
      // Its event in the same transaction as the wrong try it records.
      if (event) await signInFailed({ db: trx }, event, userId, 'second_factor_failed');
      return { error: 'INVALID_CREDENTIALS' as const, compared: true, ended };
    }
    await consumeChallenge(trx, challenge.id, now);
    const factors = factorsAfterAnswer(kind);
    // Verified: the session now lives as long as any (pending, it had minutes); earlier tokens are history.
    const settled = await settleAndIssueTokens(services, trx, { id: sessionId, userId, factors });
    if (event) await signInSucceeded(trx, event, userId, settled.factors);
    return { session: settled };
  });
  if ('error' in outcome && outcome.error) {
    // Refused before any code was compared: the attempt costs nothing.
    if ((outcome as { compared?: boolean }).compared !== true) await attemptNotChecked(services, reserved);
    const messages = {
      INVALID_SESSION: 'The session has ended',
      INVALID_CREDENTIALS: 'Incorrect verification code',
      MFA_TOKEN_EXPIRED: 'The verification code has expired',
    };
    const message =
      'usedUp' in outcome
        ? 'Too many wrong codes: ask for a new code'
        : 'ended' in outcome && outcome.ended
          ? 'Too many wrong codes: the sign-in has ended, sign in again'
          : messages[outcome.error];
    throw new ApiError(outcome.error, { message });
  }
  await secondFactorSucceeded(services, emailHash, client, reserved);
  return outcome.session!;
}
