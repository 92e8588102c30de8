// Frozen: never edit a migration that has shipped; add a new one.
// The rule of what a new session must still prove and how long it lives, in one place for every statement that
// writes a session (the sessions module's repository): a password sign-in starts with the password verified and
// each second factor the account has (an email code also when the per-identity ceiling asks for a step-up) still
// to prove, a passkey as an alternative to a pending code; a session with a factor still to prove lives only as long
// as a pending sign-in may (the code's 10 minutes and a little more), any other one as long as it is given.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function password_session_factors(email boolean, sms boolean, passkey boolean) returns jsonb
    language sql immutable as $$
      select jsonb_build_object('password', 'verified')
        || case when email then jsonb_build_object('otpEmail', 'unverified') else '{}'::jsonb end
        || case when sms then jsonb_build_object('otpSms', 'unverified') else '{}'::jsonb end
        || case when (email or sms) and passkey then jsonb_build_object('passkey', 'unverified') else '{}'::jsonb end
    $$`.execute(db);
  await sql`
    create function session_expires_at(factors jsonb, started timestamptz, settled timestamptz) returns timestamptz
    language sql immutable as $$
      select case when exists (select 1 from jsonb_each_text(factors) f where f.value = 'unverified')
        then started + interval '15 minutes' else settled end
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function session_expires_at(jsonb, timestamptz, timestamptz)`.execute(db);
  await sql`drop function password_session_factors(boolean, boolean, boolean)`.execute(db);
}
