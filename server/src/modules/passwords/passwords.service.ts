// Password set (invitation link, valid 30 days) and reset (valid 30 minutes). Tokens are 256 random bits sent
// only in the link; the database keeps a keyed hash. Using a token is one transaction: check, set, mark used.
import { ApiError } from '../../errors';
import { keyedHash, randomToken } from '../../security/hashing';
import { hashPassword } from '../../security/passwords';
import { policies } from '../../security/throttle';
import type { Services } from '../../services';
import { revokeSessions } from '../sessions/sessions.repository';

export type TokenKind = 'set' | 'reset';
export type TokenState = 'valid' | 'expired' | 'invalid' | 'used';

export const tokenLifetimeMs: Record<TokenKind, number> = { set: 30 * 86_400_000, reset: 30 * 60_000 };

const hashToken = (services: Services, token: string) => keyedHash(services.secretKey, `password-token\0${token}`);

export async function createPasswordToken(services: Services, userId: number, kind: TokenKind): Promise<string> {
  const token = randomToken(32);
  await services.db
    .insertInto('password_tokens')
    .values({ token_hash: hashToken(services, token), user_id: userId, kind, expires_at: new Date(services.now().getTime() + tokenLifetimeMs[kind]) })
    .execute();
  return token;
}

export const passwordLink = (services: Services, userId: number, kind: TokenKind, token: string) =>
  `${services.config.signInAppUrl}/${kind === 'set' ? 'set-password' : 'reset-password'}?userId=${userId}&token=${encodeURIComponent(token)}`;

async function stateOf(services: Services, db: Services['db'], userId: number, token: string, kind: TokenKind, lock = false) {
  let query = db
    .selectFrom('password_tokens')
    .innerJoin('users', 'users.id', 'password_tokens.user_id')
    .select(['password_tokens.token_hash', 'password_tokens.expires_at', 'password_tokens.used_at', 'users.password_hash'])
    .where('password_tokens.token_hash', '=', hashToken(services, token))
    .where('password_tokens.user_id', '=', userId)
    .where('password_tokens.kind', '=', kind);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  const state: TokenState = !row
    ? 'invalid'
    : row.used_at || (kind === 'set' && row.password_hash)
      ? 'used'
      : row.expires_at <= services.now()
        ? 'expired'
        : 'valid';
  return { state, row };
}

export async function passwordTokenState(services: Services, input: { userId: number; token: string; kind: TokenKind; ip: string }): Promise<TokenState> {
  await services.throttle.consume([`password-token:${input.ip}`, policies.passwordTokenPerAddress]);
  return (await stateOf(services, services.db, input.userId, input.token, input.kind)).state;
}

export async function usePasswordToken(services: Services, input: { userId: number; token: string; password: string; kind: TokenKind; ip: string }): Promise<void> {
  await services.throttle.consume([`password-token:${input.ip}`, policies.passwordTokenPerAddress]);
  const passwordHash = await hashPassword(input.password);
  const now = services.now();
  const state = await services.db.transaction().execute(async (trx) => {
    const { state, row } = await stateOf(services, trx, input.userId, input.token, input.kind, true);
    if (state !== 'valid' || !row) return state;
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', input.userId).execute();
    await trx.updateTable('password_tokens').set({ used_at: now }).where('token_hash', '=', row.token_hash).execute();
    // After a reset nobody who knew the old password keeps a session.
    if (input.kind === 'reset') await revokeSessions(trx, { userId: input.userId }, 'password_reset', now);
    return state;
  });
  if (state === 'invalid') throw new ApiError('USER_PASSWORD_SET_TOKEN_INVALID', { message: 'The link is not valid' });
  if (state === 'expired') throw new ApiError('USER_PASSWORD_SET_TOKEN_EXPIRED', { message: 'The link has expired' });
  if (state === 'used') {
    if (input.kind === 'set') throw new ApiError('USER_PASSWORD_ALREADY_SET', { message: 'The password is already set' });
    throw new ApiError('USER_PASSWORD_SET_TOKEN_INVALID', { message: 'The link has already been used' });
  }
  const user = await services.db.selectFrom('users').select('email_hash').where('id', '=', input.userId).executeTakeFirst();
  if (user) await services.throttle.clear(`login:account:${user.email_hash}`);
}

/**
 * Answers the same whether or not the account exists; when it does, a reset link is emailed. The email goes
 * out after the answer so the answer's timing does not tell either.
 */
export async function requestPasswordReset(services: Services, input: { emailHash: string; ip: string }): Promise<void> {
  await services.throttle.consume([`password-reset:address:${input.ip}`, policies.passwordResetPerAddress], [`password-reset:hash:${input.emailHash}`, policies.passwordResetPerHash]);
  const user = await services.db.selectFrom('users').select(['id', 'email']).where('email_hash', '=', input.emailHash).executeTakeFirst();
  if (!user) return;
  setImmediate(() => {
    void (async () => {
      const token = await createPasswordToken(services, user.id, 'reset');
      const minutes = tokenLifetimeMs.reset / 60_000;
      await services.notifier.email.send({
        to: user.email,
        subject: 'Reset your password',
        body: `Someone asked to reset the password of your account. To choose a new password, open this link within ${minutes} minutes:\n\n${passwordLink(services, user.id, 'reset', token)}\n\nIf it was not you, ignore this message; your password stays the same.`,
      });
    })().catch((error) => services.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'could not send password reset email'));
  });
}
