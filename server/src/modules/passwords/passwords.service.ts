// Password set (invitation link, valid 30 days) and reset (valid 30 minutes). Tokens are 256 random bits sent
// only in the link; the database keeps a keyed hash. Using a token is one transaction: check, set, mark used.
import { ApiError } from '../../errors';
import { type Language } from '../../messages/languages';
import { languageForUser } from '../../messages/recipient-language';
import { passwordResetEmail } from '../../messages/sign-in-messages';
import { keyedHash, randomToken } from '../../security/hashing';
import { hashPassword } from '../../security/passwords';
import { policies } from '../../security/throttle';
import type { PasswordsDeps } from './passwords.deps';
import { clearSignInFailures, removePasskeysOnReset, revokeSessionsOf } from '../sessions';
import { recordSecurityEvents, type EventClient } from '../security-events';
import { isBreachedPassword, isCommonPassword } from './breach-list';
import {
  findEmailHashOfUser,
  findPasswordToken,
  findActiveUserByEmailHash,
  insertPasswordToken,
  setPasswordWithToken,
  type TokenKind,
} from './passwords.repository';

export type { TokenKind };
export type TokenState = 'valid' | 'expired' | 'invalid' | 'used';

export const tokenLifetimeMs: Record<TokenKind, number> = { set: 30 * 86_400_000, reset: 30 * 60_000 };

const hashToken = (services: PasswordsDeps, token: string) => keyedHash(services.secretKey, `password-token\0${token}`);

/** How a link's token is stored (for invitations, which derive their tokens themselves). */
export const passwordTokenHash = hashToken;

export async function createPasswordToken(services: PasswordsDeps, userId: number, kind: TokenKind): Promise<string> {
  const token = randomToken(32);
  await insertPasswordToken(services.db, {
    tokenHash: hashToken(services, token),
    userId,
    kind,
    expiresAt: new Date(services.now().getTime() + tokenLifetimeMs[kind]),
  });
  return token;
}

/**
 * The sign-in app's page for the token; `region` names this region, the only one the app sends the token to,
 * `lng` opens the page in the language of the email that carries it, and `platform` (an invitation's) names where
 * the user logs in once her password is set.
 */
export function passwordLink(
  services: PasswordsDeps,
  userId: number,
  kind: TokenKind,
  token: string,
  language?: Language,
  platform?: string,
) {
  const url = new URL(`${services.config.signInAppUrl}/${kind === 'set' ? 'set-password' : 'reset-password'}`);
  url.searchParams.set('userId', String(userId));
  url.searchParams.set('token', token);
  url.searchParams.set('region', services.config.region);
  if (language) url.searchParams.set('lng', language);
  if (platform) url.searchParams.set('platform', platform);
  return url.href;
}

async function stateOf(
  services: PasswordsDeps,
  db: PasswordsDeps['db'],
  userId: number,
  token: string,
  kind: TokenKind,
  lock = false,
) {
  const row = await findPasswordToken(db, { tokenHash: hashToken(services, token), userId, kind }, lock);
  const state: TokenState = !row
    ? 'invalid'
    : row.used_at || (kind === 'set' && row.password_hash)
      ? 'used'
      : row.expires_at <= services.now()
        ? 'expired'
        : 'valid';
  return { state, row };
}

export async function passwordTokenState(
  services: PasswordsDeps,
  input: { userId: number; token: string; kind: TokenKind; ip: string },
): Promise<TokenState> {
  await services.throttle.consume([`password-token:${input.ip}`, policies.passwordTokenPerAddress]);
  return (await stateOf(services, services.db, input.userId, input.token, input.kind)).state;
}

export async function usePasswordToken(
  services: PasswordsDeps,
  input: { userId: number; token: string; password: string; kind: TokenKind; ip: string; client?: EventClient },
): Promise<void> {
  await services.throttle.consume([`password-token:${input.ip}`, policies.passwordTokenPerAddress]);
  await refuseBreachedPassword(services, input.password, input.kind === 'set' ? '/password' : '/newPassword');
  const passwordHash = await hashPassword(input.password);
  const now = services.now();
  const state = await services.db.transaction().execute(async (trx) => {
    const { state, row } = await stateOf(services, trx, input.userId, input.token, input.kind, true);
    if (state !== 'valid' || !row) return state;
    await setPasswordWithToken(trx, { userId: input.userId, passwordHash, tokenHash: row.token_hash, now });
    // After a reset nobody who knew the old password keeps a session, and no passkey added meanwhile (with a
    // stolen session, say) keeps a way in: the account's passkeys go too (the reset email says so).
    let passkeysRemoved = 0;
    if (input.kind === 'reset') {
      await revokeSessionsOf(trx, input.userId, 'password_reset', now);
      passkeysRemoved = await removePasskeysOnReset(trx, input.userId);
    }
    // The events in the same transaction: a reset (every session ended with it), the passkeys it removed; a first
    // password set through an invitation's link is the account's first password change.
    if (input.client) {
      const { client, userId } = input;
      await recordSecurityEvents(
        trx,
        input.kind === 'reset'
          ? [
              { kind: 'password_reset', userId, client, details: { reason: 'emailed_link' } },
              ...(passkeysRemoved > 0
                ? [
                    {
                      kind: 'passkey_removed' as const,
                      userId,
                      client,
                      actor: { type: 'system' as const },
                      details: { reason: 'password_reset', count: passkeysRemoved },
                    },
                  ]
                : []),
            ]
          : [{ kind: 'password_changed', userId, client, details: { reason: 'first_password' } }],
      );
    }
    return state;
  });
  if (state === 'invalid') throw new ApiError('USER_PASSWORD_SET_TOKEN_INVALID', { message: 'The link is not valid' });
  if (state === 'expired') throw new ApiError('USER_PASSWORD_SET_TOKEN_EXPIRED', { message: 'The link has expired' });
  if (state === 'used') {
    if (input.kind === 'set')
      throw new ApiError('USER_PASSWORD_ALREADY_SET', { message: 'The password is already set' });
    throw new ApiError('USER_PASSWORD_SET_TOKEN_INVALID', { message: 'The link has already been used' });
  }
  const user = await findEmailHashOfUser(services.db, input.userId);
  // The rightful user proved the mailbox: the account's failures on record end, from every address.
  if (user) await clearSignInFailures(services, user.email_hash);
}

/** How long the breach service may take before the new password is taken without its answer. */
const breachServiceTimeoutMs = 3_000;

/**
 * 400 BAD_REQUEST with the issue PASSWORD_ON_BREACH_LIST (at `path`) when the new password is on the shipped list of
 * common passwords, or the configured breach service lists it. A breach service that does not answer in time is
 * logged and the password taken (the list and the rules still hold): a set or reset never waits on a third party.
 */
export async function refuseBreachedPassword(services: PasswordsDeps, password: string, path: string) {
  let listed = isCommonPassword(password);
  const url = services.config.passwordBreachRangeUrl;
  if (!listed && url && services.outbound) {
    const breached = await isBreachedPassword(password, {
      url,
      outbound: services.outbound,
      timeoutMs: breachServiceTimeoutMs,
    });
    if (breached === undefined) services.logger.warn('the breach service did not answer; the password was taken');
    listed = breached === true;
  }
  if (!listed) return;
  const message = 'Password is too common or known from a data breach';
  throw new ApiError('BAD_REQUEST', {
    message: 'The password is too common or known from a data breach',
    issues: [{ where: 'body', path, message, rule: 'PASSWORD_ON_BREACH_LIST' }],
  });
}

/**
 * Answers the same whether or not the account exists; when it does, a reset link is emailed. The email goes
 * out after the answer so the answer's timing does not tell either.
 */
export async function requestPasswordReset(
  services: PasswordsDeps,
  input: { emailHash: string; ip: string; acceptLanguage?: string },
): Promise<void> {
  await services.throttle.consume(
    [`password-reset:address:${input.ip}`, policies.passwordResetPerAddress],
    [`password-reset:hash:${input.emailHash}`, policies.passwordResetPerHash],
  );
  // A deactivated account (by every tenant's directory) is no account: no link, the same answer.
  const user = await findActiveUserByEmailHash(services.db, input.emailHash);
  if (!user) return;
  setImmediate(() => {
    void (async () => {
      const token = await createPasswordToken(services, user.id, 'reset');
      const minutes = tokenLifetimeMs.reset / 60_000;
      const language = await languageForUser(services.db, user.id, input.acceptLanguage);
      const link = passwordLink(services, user.id, 'reset', token, language);
      await services.notifier.email.send({
        to: user.email,
        ...passwordResetEmail(language, { email: user.email, link, minutes }),
      });
    })().catch((error) =>
      services.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'could not send password reset email',
      ),
    );
  });
}
