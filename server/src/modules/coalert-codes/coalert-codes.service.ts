// coAlert codes: a code signs in as its user (POST /sessions, grantType coAlertCode) as often as its usage limit
// allows. Operators issue, list and revoke them; the code is shown once and stored only as an HMAC under the
// region's secret key, case-insensitive, exactly as the sign-in compares it.
import { randomInt } from 'node:crypto';
import { ApiError } from '../../errors';
import { emailHash, keyedHash } from '../../security/hashing';
import type { Services } from '../../services';

// No 0/O, 1/I/L: a code is read aloud and typed on phones.
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** 12 characters of 31 (about 59 bits) in groups of four: K7P2-9QX4-ABCD. */
export function newCoalertCode(): string {
  const chars = Array.from({ length: 12 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** As the sign-in hashes a presented code (sessions.service: trimmed, upper case). */
const codeHash = (services: Services, code: string) =>
  keyedHash(services.secretKey, `coalert\0${code.trim().toUpperCase()}`);

export interface IssuedCode {
  id: number;
  code: string;
  userEmail: string;
  usageLimit: number;
  expiresAt: Date | null;
}

export async function issueCoalertCode(
  services: Services,
  input: { userEmail: string; usageLimit: number; expiresInDays?: number; label?: string },
): Promise<IssuedCode> {
  const user = await services.db
    .selectFrom('users')
    .select(['id', 'email', 'deactivated_at'])
    .where('email_hash', '=', emailHash(input.userEmail))
    .executeTakeFirst();
  if (!user) throw new ApiError('NOT_FOUND', { message: `There is no user ${input.userEmail}` });
  if (user.deactivated_at)
    throw new ApiError('BAD_REQUEST', { message: `${user.email} is deactivated; a code would not sign in` });
  const code = newCoalertCode();
  const expiresAt = input.expiresInDays ? new Date(services.now().getTime() + input.expiresInDays * 86_400_000) : null;
  const row = await services.db
    .insertInto('coalert_codes')
    .values({
      code_hash: codeHash(services, code),
      user_id: user.id,
      usage_limit: input.usageLimit,
      expires_at: expiresAt,
      label: input.label ?? '',
      created_at: services.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, code, userEmail: user.email, usageLimit: input.usageLimit, expiresAt };
}

export async function listCoalertCodes(services: Services, filter: { userEmail?: string } = {}) {
  let query = services.db
    .selectFrom('coalert_codes as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'u.email', 'c.label', 'c.usage_count', 'c.usage_limit', 'c.expires_at', 'c.created_at'])
    .orderBy('c.id');
  if (filter.userEmail) query = query.where('u.email_hash', '=', emailHash(filter.userEmail));
  return query.execute();
}

/** The code stops working at once (its row is deleted: the sign-in finds no such code). */
export async function revokeCoalertCode(services: Services, id: number): Promise<void> {
  const result = await services.db.deleteFrom('coalert_codes').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0)
    throw new ApiError('NOT_FOUND', { message: `There is no coAlert code ${id}` });
}
