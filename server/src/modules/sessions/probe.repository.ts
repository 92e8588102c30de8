import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { prepared } from '../../db/prepared';
import type { Candidate } from './credentials';
import {
  lockoutAnswer,
  lockoutCheck,
  lockoutReservation,
  type LockoutAnswer,
  type LockoutValues,
} from './lockouts.repository';

export interface ProbeRow extends LockoutAnswer {
  /** `second_factor`: a sign-in needs more than the password (an email or SMS code). */
  account: (Candidate & { second_factor: boolean }) | null;
}

/**
 * A probe's first round trip, read top to bottom: the lockout check (lockouts.repository.ts: exactly the sign-in
 * lockouts), the account that signs in with this identity hash, and the attempt's reservation (counted
 * as a failure before argon2 runs, the same way whether or not the account lives here).
 */
const probeStatement = prepared<ProbeRow, LockoutValues & { emailHash: string }>(
  (_db, p) => sql<ProbeRow>`
  with ${lockoutCheck(p)},
  account as (
    -- A user deactivated by every tenant's directory (SCIM) is no account for probes.
    select id, password_hash, otp_email_enabled or otp_sms_enabled as second_factor from users where email_hash = ${p.emailHash} and deactivated_at is null),
  ${lockoutReservation(p)}
  select ${lockoutAnswer(p)}, (select row_to_json(a) from account a) as account`,
);

export async function probeAccount(db: Executor, values: LockoutValues & { emailHash: string }): Promise<ProbeRow> {
  const [row] = await probeStatement(db, values);
  return row;
}
