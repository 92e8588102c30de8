// A recent proof of the account's credentials on the session: changing a factor (adding, renaming or deleting a
// passkey, and any later change of a factor) asks for one within reauthenticationWindowMs, so a stolen access token
// alone cannot leave a lasting way in behind. A sign-in's factor proves it (the session's proven_at, written by the
// statements that verify a factor); a refresh does not. `POST /sessions/{id}/reauthentication` proves it again, with
// the password (the same line, lockouts and argon2 as a password sign-in: a wrong one counts as a failed sign-in)
// or one of the account's passkeys (the passkeys module's).
import { ApiError, tooManyRequests } from '../../errors';
import type { AuthContext } from '../../shared/caller';
import type { SessionsDeps } from './sessions.deps';
import { checkPassword } from './credentials';
import { giveBack, guard, limitAddress, loginAttempt, notChecked, succeeded } from './lockouts';
import { reauthenticationWindowMs } from './lifetimes';
import { noteProof, reauthenticationAccount } from './sessions.repository';

export { reauthenticationWindowMs };

/** 401 REAUTHENTICATION_REQUIRED unless the caller's session proved its credentials within the window. */
export function requireRecentProof(services: Pick<SessionsDeps, 'now'>, auth: AuthContext): void {
  const provenAt = auth.provenAt?.getTime();
  const now = services.now().getTime();
  // A proof from the future (clocks of two instances) is no reason to refuse; one older than the window is.
  if (provenAt === undefined || now - provenAt > reauthenticationWindowMs)
    throw new ApiError('REAUTHENTICATION_REQUIRED', {
      message: 'Confirm your password or a passkey to change how you sign in',
    });
}

/** The caller's own session only: another session's id answers like an unknown one. */
export function ownSessionToReauthenticate(auth: AuthContext, sessionId: string): void {
  if (auth.sessionId !== sessionId) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
}

export interface Reauthenticated {
  provenAt: string;
  validUntil: string;
}

/** Notes the proof on the session: answers its time and the end of the window. */
export async function noteReauthentication(
  services: Pick<SessionsDeps, 'db' | 'now'>,
  sessionId: string,
  db: Parameters<typeof noteProof>[0] = services.db,
): Promise<Reauthenticated> {
  const now = services.now();
  const row = await noteProof(db, sessionId, now);
  if (!row?.proven_at) throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  return {
    provenAt: row.proven_at.toISOString(),
    validUntil: new Date(row.proven_at.getTime() + reauthenticationWindowMs).toISOString(),
  };
}

const wrongCredentials = () =>
  new ApiError('INVALID_CREDENTIALS', { message: "The password or passkey is not the account's" });

/**
 * The password, checked as a sign-in checks it: reserved against the account's lockouts (pair, ceiling, address)
 * before argon2 runs, so a wrong one stays counted as a failed sign-in; a right one ends the failures and makes the
 * source familiar, as a completed sign-in does. At the per-identity ceiling, from a source not familiar to the
 * account, there is no step-up to offer: 429, nothing checked (a passkey or a familiar source still proves it).
 */
export async function reauthenticateWithPassword(
  services: SessionsDeps,
  auth: AuthContext,
  input: { sessionId: string; password: string; ip: string },
): Promise<Reauthenticated> {
  ownSessionToReauthenticate(auth, input.sessionId);
  const account = await reauthenticationAccount(services.db, auth.userId);
  if (!account) throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  const hash = account.email_hash;
  const ip = limitAddress(services, input.ip);
  const { reserved, stepUp } = await guard(services, { attempt: loginAttempt(services, hash, ip) });
  if (stepUp) {
    await giveBack(services, notChecked(reserved));
    throw tooManyRequests(stepUp);
  }
  if (!(await checkPassword(services, account, input.password))) throw wrongCredentials();
  await giveBack(services, succeeded(services, { hash, ip, reserved, complete: true }));
  return noteReauthentication(services, input.sessionId);
}
