// The SQL of password set and reset: links' tokens (stored as keyed hashes) and the password they set.
import type { Executor } from '../../db/database';

export type TokenKind = 'set' | 'reset';

export async function insertPasswordToken(
  db: Executor,
  row: { tokenHash: string; userId: number; kind: TokenKind; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('password_tokens')
    .values({ token_hash: row.tokenHash, user_id: row.userId, kind: row.kind, expires_at: row.expiresAt })
    .execute();
}

/** The user's token of this kind with this hash, with the user's current password hash; `lock` holds it for the transaction. */
export async function findPasswordToken(
  db: Executor,
  key: { tokenHash: string; userId: number; kind: TokenKind },
  lock = false,
) {
  let query = db
    .selectFrom('password_tokens')
    .innerJoin('users', 'users.id', 'password_tokens.user_id')
    .select([
      'password_tokens.token_hash',
      'password_tokens.expires_at',
      'password_tokens.used_at',
      'users.password_hash',
    ])
    .where('password_tokens.token_hash', '=', key.tokenHash)
    .where('password_tokens.user_id', '=', key.userId)
    .where('password_tokens.kind', '=', key.kind);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Sets the password, marks the token used and closes every other invitation link of the user (in the caller's transaction). */
export async function setPasswordWithToken(
  trx: Executor,
  input: { userId: number; passwordHash: string; tokenHash: string; now: Date },
): Promise<void> {
  await trx
    .updateTable('users')
    .set({ password_hash: input.passwordHash, updated_at: input.now })
    .where('id', '=', input.userId)
    .execute();
  await trx
    .updateTable('password_tokens')
    .set({ used_at: input.now })
    .where('token_hash', '=', input.tokenHash)
    .execute();
  // The user has a new password now: every other link of theirs (invitation or reset) is closed.
  await trx
    .updateTable('password_tokens')
    .set({ used_at: input.now })
    .where('user_id', '=', input.userId)
    .where('used_at', 'is', null)
    .execute();
}

export const findEmailHashOfUser = (db: Executor, userId: number) =>
  db.selectFrom('users').select('email_hash').where('id', '=', userId).executeTakeFirst();

/** The active account behind an email hash: a deactivated one (by every tenant's directory) is no account. */
export const findActiveUserByEmailHash = (db: Executor, emailHash: string) =>
  db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email_hash', '=', emailHash)
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();
