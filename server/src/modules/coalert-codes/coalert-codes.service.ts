// coAlert codes: a code signs in as its user (POST /sessions, grantType coAlertCode) as often as its usage limit
// allows. Operators issue, list and revoke them; the code is shown once and stored only as an HMAC under the
// region's secret key, case-insensitive, exactly as the sign-in compares it.
import { randomInt } from 'node:crypto';
import { ApiError } from '../../errors';
import { emailHash, keyedHash } from '../../security/hashing';
import type { CoalertCodesDeps } from './coalert-codes.deps';
import {
  deleteCoalertCode,
  findCodeOwnerByEmailHash,
  insertCoalertCode,
  listCoalertCodeRows,
} from './coalert-codes.repository';

// No 0/O, 1/I/L: a code is read aloud and typed on phones.
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** 12 characters of 31 (about 59 bits) in groups of four: K7P2-9QX4-ABCD. */
export function newCoalertCode(): string {
  const chars = Array.from({ length: 12 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** As the sign-in hashes a presented code (sessions.service: trimmed, upper case). */
const codeHash = (services: CoalertCodesDeps, code: string) =>
  keyedHash(services.secretKey, `coalert\0${code.trim().toUpperCase()}`);

export interface IssuedCode {
  id: number;
  code: string;
  userEmail: string;
  usageLimit: number;
  expiresAt: Date | null;
}

export async function issueCoalertCode(
  services: CoalertCodesDeps,
  input: { userEmail: string; usageLimit: number; expiresInDays?: number; label?: string },
): Promise<IssuedCode> {
  const user = await findCodeOwnerByEmailHash(services.db, emailHash(input.userEmail));
  if (!user) throw new ApiError('NOT_FOUND', { message: `There is no user ${input.userEmail}` });
  if (user.deactivated_at)
    throw new ApiError('BAD_REQUEST', { message: `${user.email} is deactivated; a code would not sign in` });
  const code = newCoalertCode();
  const expiresAt = input.expiresInDays ? new Date(services.now().getTime() + input.expiresInDays * 86_400_000) : null;
  const row = await insertCoalertCode(services.db, {
    code_hash: codeHash(services, code),
    user_id: user.id,
    usage_limit: input.usageLimit,
    expires_at: expiresAt,
    label: input.label ?? '',
    created_at: services.now(),
  });
  return { id: row.id, code, userEmail: user.email, usageLimit: input.usageLimit, expiresAt };
}

export async function listCoalertCodes(services: CoalertCodesDeps, filter: { userEmail?: string } = {}) {
  return listCoalertCodeRows(services.db, {
    userEmailHash: filter.userEmail ? emailHash(filter.userEmail) : undefined,
  });
}

/** The code stops working at once (its row is deleted: the sign-in finds no such code). */
export async function revokeCoalertCode(services: CoalertCodesDeps, id: number): Promise<void> {
  if (!(await deleteCoalertCode(services.db, id)))
    throw new ApiError('NOT_FOUND', { message: `There is no coAlert code ${id}` });
}
