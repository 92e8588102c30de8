// SQL of invitations: who is invited where, and the set-password tokens (password_tokens of kind 'set') that
// invitation links carry.
import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { defaultUserSettings } from '../users';

/** The user as an invitation to this tenant needs them: account state, membership here, organisation name. */
export const findInvitee = (db: Executor, userId: number, tenantId: number) =>
  db
    .selectFrom('users as u')
    .innerJoin('memberships as m', (join) => join.onRef('m.user_id', '=', 'u.id').on('m.tenant_id', '=', tenantId))
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .leftJoin('user_settings as us', 'us.user_id', 'u.id')
    .leftJoin('sso_domains as sd', (join) => join.on(sql<boolean>`sd.domain = lower(split_part(u.email, '@', 2))`))
    .select([
      'u.id',
      'u.email',
      'u.password_hash',
      'u.deactivated_at',
      'm.active',
      't.name as organisation',
      'us.preferred_language',
      'sd.kind as sso',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();

export type Invitee = NonNullable<Awaited<ReturnType<typeof findInvitee>>>;

/**
 * Makes `tokenHash` the user's one outstanding invitation link: every other unused one stops working. Written
 * again on a retry of the same invitation, which keeps the first expiry.
 */
export async function replaceInvitationToken(
  db: Executor,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db
    .deleteFrom('password_tokens')
    .where('user_id', '=', userId)
    .where('kind', '=', 'set')
    .where('used_at', 'is', null)
    .where('token_hash', '<>', tokenHash)
    .execute();
  await db
    .insertInto('password_tokens')
    .values({ token_hash: tokenHash, user_id: userId, kind: 'set', expires_at: expiresAt })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
}

/** Every unused set-password and reset link of the user stops working (an account that was deactivated). */
export async function deleteOutstandingPasswordTokens(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('password_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** The language a directory gave for a new user, unless the user has chosen one already. */
export async function setLanguageIfUnset(db: Executor, userId: number, language: string): Promise<void> {
  await db
    .insertInto('user_settings')
    .values({ user_id: userId, ...defaultUserSettings, preferred_language: language })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ preferred_language: language })
        .where('user_settings.preferred_language', 'is', null),
    )
    .execute();
}

/** Locks the tenant a person is invited to; answers whether it exists. */
export async function lockTenantForInvitation(db: Executor, tenantId: number): Promise<boolean> {
  const tenant = await db.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().executeTakeFirst();
  return tenant !== undefined;
}

/** The account an address already has, if any. */
export const findUserIdByEmailHash = (db: Executor, emailHash: string) =>
  db.selectFrom('users').select('id').where('email_hash', '=', emailHash).executeTakeFirst();

/** A new account without a password (the invitation sets one); answers its id. */
export async function insertInvitedUser(
  db: Executor,
  user: { name: string; title: string | null; email: string; emailHash: string; phone: string | null },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      name: user.name,
      title: user.title,
      email: user.email,
      email_hash: user.emailHash,
      password_hash: null,
      phone_primary: user.phone,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Makes the user a member of the tenant with these permissions; a membership already there is kept as it is. */
export async function addMembershipIfAbsent(
  db: Executor,
  membership: { tenantId: number; userId: number; permissions: unknown; isAdmin: boolean },
): Promise<boolean> {
  const result = await db
    .insertInto('memberships')
    .values({
      tenant_id: membership.tenantId,
      user_id: membership.userId,
      permissions: JSON.stringify(membership.permissions),
      is_admin: membership.isAdmin,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
