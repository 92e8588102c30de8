// Signing in with a passkey: alone (the passkey grant, a discoverable credential whose user handle names the
// account's region) or as the second factor of a password session. Either way the challenge it answers is used up
// by the attempt, in the transaction that writes the outcome: the session, or the failure's traces (a counter gone
// backwards marks the passkey suspicious; a wrong second factor counts like a wrong code).
import { randomUUID } from 'node:crypto';
import { ApiError, tooManyRequests } from '../../errors';
import { policies } from '../../security/throttle';
import type { PasskeysDeps } from './passkeys.deps';
import type { AuthContext, SessionCaller } from '../../shared/caller';
import {
  attemptNotChecked,
  countWrongSecondFactor,
  guardSignIn,
  limitAddress,
  holdSession,
  noteReauthentication,
  ownSessionToReauthenticate,
  type Reauthenticated,
  loginAttempt,
  passkeyAttempt,
  passkeySourceFamiliar,
  factorsAfterAnswer,
  secondFactorSucceeded,
  settleAndIssueTokens,
  startSession,
  succeeded,
  type PasskeyCredential,
  type PasskeySignIn,
  type SessionBody,
  lockoutIdentityOf,
  signInFailed,
  signInSucceeded,
} from '../sessions';
import type { EventClient } from '../security-events';
import type { Executor } from '../../db/database';
import {
  consumeChallenges,
  credentialsOfUser,
  findPasskeyForSignIn,
  insertChallenge,
  insertPasskeyEvent,
  markPasskeySuspicious,
  notePasskeyUse,
  openPasskeyChallengeForUpdate,
  replacePasskeyChallenge,
  spendChallenge,
} from './passkeys.repository';
import { transportsOf } from './passkeys.service';
import {
  challengeLifetimeMs,
  challengeParts,
  clientDataOf,
  counterWentBack,
  newChallenge,
  userOfHandle,
  verifyAssertion,
} from './webauthn';

const invalid = () => new ApiError('INVALID_CREDENTIALS', { message: 'The passkey could not be verified' });
const expired = (what = 'ask for new options') =>
  new ApiError('PASSKEY_CHALLENGE_EXPIRED', { message: `The passkey challenge has expired or was used; ${what}` });

/** `POST /passkeys/authentication-options`: the same answer for everyone, a new challenge of this region. */
export async function authenticationOptions(services: PasskeysDeps, ip: string) {
  await services.throttle.consume([
    `passkey:auth-options:${limitAddress(services, ip)}`,
    policies.passkeyOptionsPerAddress,
  ]);
  const challenge = newChallenge();
  await insertChallenge(services.db, {
    challenge,
    purpose: 'authentication',
    userId: null,
    expiresAt: new Date(services.now().getTime() + challengeLifetimeMs),
  });
  return {
    challenge,
    timeout: challengeLifetimeMs,
    rpId: services.config.webauthn.rpId,
    userVerification: 'required' as const,
  };
}

type Checked = { ok: true; counter: number; backedUp: boolean } | { ok: false; suspicious?: boolean };

/**
 * The assertion against one stored passkey: its signature, origin, relying party and flags, then its counter. A
 * counter that did not go up (the signature being right) marks the passkey suspicious, in `db`, and is logged.
 */
async function checkAssertion(
  services: PasskeysDeps,
  db: Executor,
  credential: PasskeyCredential,
  passkey: NonNullable<Awaited<ReturnType<typeof findPasskeyForSignIn>>>,
  expectedChallenge: (challenge: string) => boolean,
): Promise<Checked> {
  const verified = await verifyAssertion(
    services.config.webauthn,
    services.logger,
    credential,
    { credential_id: passkey.credential_id, public_key: passkey.public_key, transports: passkey.transports },
    expectedChallenge,
  );
  if (!verified) return { ok: false };
  const stored = Number(passkey.counter);
  if (counterWentBack(stored, verified.counter)) {
    await markPasskeySuspicious(db, passkey.id, services.now());
    await insertPasskeyEvent(db, { userId: passkey.user_id, passkeyId: passkey.id, kind: 'suspicious' });
    services.logger.warn(
      { userId: passkey.user_id, passkeyId: passkey.id, storedCounter: stored, presentedCounter: verified.counter },
      'passkey signature counter did not go up: passkey marked suspicious and refused',
    );
    return { ok: false, suspicious: true };
  }
  await notePasskeyUse(db, passkey.id, { counter: verified.counter, backedUp: verified.backedUp, now: services.now() });
  return { ok: true, counter: verified.counter, backedUp: verified.backedUp };
}

/**
 * The passkey grant. Counted against the client address before anything is checked (as a coAlert code is: the
 * account is unknown until the signature is), given back on success, which also ends the account's failures and
 * makes the address familiar. Every failure after the challenge answers the same INVALID_CREDENTIALS. While the
 * address is locked (sessions: passkeyAttempt) only a verified passkey of an account the address is familiar to
 * signs in; every other attempt there answers 429 until the lock ends.
 */
async function createSession(
  services: PasskeysDeps,
  input: { credential: PasskeyCredential; ip: string; client?: EventClient },
): Promise<SessionBody> {
  const { credential } = input;
  const client = limitAddress(services, input.ip);
  const event = input.client ? { client: input.client, method: 'passkey' } : undefined;
  const { reserved, stepUp: locked } = await guardSignIn(services, {
    lockoutKeys: [],
    attempt: passkeyAttempt(client),
  });
  // At a locked address, whatever does not sign in answers as the lock did before anything was checked.
  const refused = (error: ApiError) => (locked ? tooManyRequests(locked) : error);
  const data = clientDataOf(credential);
  const parts = data ? challengeParts(data.challenge) : null;
  if (!data || !parts || credential.id !== credential.rawId) throw refused(invalid());
  const now = services.now();
  const outcome = await services.db.transaction().execute(async (trx) => {
    const live = await consumeChallenges(trx, { challenges: parts, purpose: 'authentication', now });
    if (live.length === 0) return { error: 'PASSKEY_CHALLENGE_EXPIRED' as const };
    // Two live parts of this region in one challenge were never issued together by the sign-in app.
    if (live.length > 1) return { error: 'INVALID_CREDENTIALS' as const };
    const userId = userOfHandle(credential.response.userHandle, services.config.region);
    const passkey = await findPasskeyForSignIn(trx, credential.id);
    if (
      userId === null ||
      !passkey ||
      Number(passkey.user_id) !== userId ||
      passkey.suspicious_at !== null ||
      passkey.deactivated_at !== null
    )
      return { error: 'INVALID_CREDENTIALS' as const };
    const checked = await checkAssertion(services, trx, credential, passkey, (c) => c === data.challenge);
    if (!checked.ok) {
      // A known account's passkey that did not verify: its event, in the transaction that used up the challenge.
      if (event) await signInFailed({ db: trx }, event, userId);
      return { error: 'INVALID_CREDENTIALS' as const };
    }
    const hash = passkey.email_hash;
    // Verified, but the address is locked and not one this account signs in from: held by the lock.
    if (locked && !(await passkeySourceFamiliar(services, trx, hash, client))) return { error: 'LOCKED' as const };
    const session = await startSession(
      services,
      userId,
      { passkey: 'verified' },
      succeeded(services, { hash, ip: client, reserved, complete: true }),
      trx,
      event,
    );
    return { session };
  });
  if ('error' in outcome) {
    if (outcome.error === 'PASSKEY_CHALLENGE_EXPIRED' || outcome.error === 'LOCKED') {
      // Nothing was checked, or a verified passkey held by the lock: the attempt costs nothing.
      await attemptNotChecked(services, reserved);
      throw refused(expired());
    }
    throw refused(invalid());
  }
  return outcome.session;
}

const noPasskey = () => new ApiError('PASSKEY_NOT_REGISTERED', { message: 'The user has no passkey for this sign-in' });

/** The user of the caller's own password session that a passkey may complete. */
function ownSessionForPasskey(auth: SessionCaller, sessionId: string): number {
  if (auth.sessionId !== sessionId) throw new ApiError('INVALID_SESSION_ID', { message: 'Unknown session' });
  if (auth.factors.passkey !== 'unverified' || auth.userId === null) throw noPasskey();
  return auth.userId;
}

/** A second factor's request options: a new challenge bound to the session, the user's passkeys allowed. */
async function createChallenge(services: PasskeysDeps, auth: SessionCaller, sessionId: string) {
  const userId = ownSessionForPasskey(auth, sessionId);
  const passkeys = await credentialsOfUser(services.db, userId, { usableOnly: true });
  if (passkeys.length === 0) throw noPasskey();
  // Its own budget: a challenge costs no message, so it must not use up the codes' (security/throttle.ts).
  await services.throttle.consume([`passkey:challenge:${userId}`, policies.passkeyChallengePerUser]);
  const challenge = newChallenge();
  const now = services.now();
  await services.db.transaction().execute(async (trx) => {
    await holdSession(trx, sessionId);
    // Asking again replaces the challenge still open.
    await replacePasskeyChallenge(trx, {
      id: randomUUID(),
      sessionId,
      challenge,
      validUntil: new Date(now.getTime() + challengeLifetimeMs),
      now,
    });
  });
  return {
    challenge,
    timeout: challengeLifetimeMs,
    rpId: services.config.webauthn.rpId,
    userVerification: 'required' as const,
    allowCredentials: passkeys.map((p) => ({
      id: p.credential_id,
      type: 'public-key' as const,
      ...(transportsOf(p.transports).length ? { transports: transportsOf(p.transports) } : {}),
    })),
  };
}

/**
 * The second factor by passkey, held to a wrong code's limits: reserved against the account's lockouts before the
 * assertion is checked, a failure counted towards the ten that end the session, a success completing the sign-in.
 */
async function verifyChallenge(
  services: PasskeysDeps,
  auth: SessionCaller,
  sessionId: string,
  input: { credential: PasskeyCredential; ip: string; client?: EventClient },
): Promise<SessionBody> {
  const userId = ownSessionForPasskey(auth, sessionId);
  const { credential } = input;
  const event = input.client ? { client: input.client, method: 'passkey' } : undefined;
  const emailHash = await lockoutIdentityOf(services.db, userId);
  if (emailHash === undefined) throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  const client = limitAddress(services, input.ip);
  const { reserved } = await guardSignIn(services, {
    lockoutKeys: [],
    attempt: loginAttempt(services, emailHash, client, { code: true }),
  });
  const now = services.now();
  const outcome = await services.db.transaction().execute(async (trx) => {
    const session = await holdSession(trx, sessionId);
    if (!session || session.revoked_at) return { error: 'INVALID_SESSION' as const };
    const challenge = await openPasskeyChallengeForUpdate(trx, sessionId);
    if (!challenge || challenge.valid_until <= now) return { error: 'PASSKEY_CHALLENGE_EXPIRED' as const };
    // Single use: whatever the assertion says, this challenge is spent.
    await spendChallenge(trx, challenge.id, now);
    const fail = async () => {
      const ended = await countWrongSecondFactor(trx, { sessionId, challenge, now });
      if (event) await signInFailed({ db: trx }, event, userId, 'second_factor_failed');
      return { error: 'INVALID_CREDENTIALS' as const, compared: true, ended };
    };
    const data = clientDataOf(credential);
    const handleUser = credential.response.userHandle
      ? userOfHandle(credential.response.userHandle, services.config.region)
      : userId;
    if (
      !data ||
      data.challenge !== challenge.secret_hash ||
      handleUser !== userId ||
      credential.id !== credential.rawId
    )
      return fail();
    const passkey = await findPasskeyForSignIn(trx, credential.id);
    if (!passkey || Number(passkey.user_id) !== userId || passkey.suspicious_at !== null) return fail();
    const checked = await checkAssertion(services, trx, credential, passkey, (c) => c === challenge.secret_hash);
    if (!checked.ok) return fail();
    const factors = factorsAfterAnswer('passkey');
    const settled = await settleAndIssueTokens(services, trx, { id: sessionId, userId, factors });
    if (event) await signInSucceeded(trx, event, userId, settled.factors);
    return { session: settled };
  });
  if ('error' in outcome) {
    if (!('compared' in outcome)) await attemptNotChecked(services, reserved);
    if (outcome.error === 'INVALID_SESSION')
      throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
    if (outcome.error === 'PASSKEY_CHALLENGE_EXPIRED') throw expired('ask for a new one');
    throw new ApiError('INVALID_CREDENTIALS', {
      message:
        'ended' in outcome && outcome.ended
          ? 'Too many wrong answers: the sign-in has ended, sign in again'
          : 'The passkey could not be verified',
    });
  }
  await secondFactorSucceeded(services, emailHash, client, reserved);
  return outcome.session;
}

/**
 * The session proves the account's credentials again with one of its own passkeys, for a challenge of
 * `POST /passkeys/authentication-options` (used up by the attempt): reserved against the account's lockouts like a
 * sign-in, a failure staying counted, a success ending the failures and noting the proof on the session.
 */
async function reauthenticate(
  services: PasskeysDeps,
  auth: AuthContext,
  sessionId: string,
  input: { credential: PasskeyCredential; ip: string },
): Promise<Reauthenticated> {
  ownSessionToReauthenticate(auth, sessionId);
  const { credential } = input;
  const emailHash = await lockoutIdentityOf(services.db, auth.userId);
  if (emailHash === undefined) throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  const client = limitAddress(services, input.ip);
  const { reserved } = await guardSignIn(services, {
    lockoutKeys: [],
    attempt: loginAttempt(services, emailHash, client),
  });
  const data = clientDataOf(credential);
  const parts = data ? challengeParts(data.challenge) : null;
  const handleUser = credential.response.userHandle
    ? userOfHandle(credential.response.userHandle, services.config.region)
    : auth.userId;
  if (!data || !parts || credential.id !== credential.rawId || handleUser !== auth.userId) throw invalid();
  const now = services.now();
  const outcome = await services.db.transaction().execute(async (trx) => {
    const live = await consumeChallenges(trx, { challenges: parts, purpose: 'authentication', now });
    if (live.length === 0) return { error: 'PASSKEY_CHALLENGE_EXPIRED' as const };
    if (live.length > 1) return { error: 'INVALID_CREDENTIALS' as const };
    const passkey = await findPasskeyForSignIn(trx, credential.id);
    if (
      !passkey ||
      Number(passkey.user_id) !== auth.userId ||
      passkey.suspicious_at !== null ||
      passkey.deactivated_at !== null
    )
      return { error: 'INVALID_CREDENTIALS' as const };
    const checked = await checkAssertion(services, trx, credential, passkey, (c) => c === data.challenge);
    if (!checked.ok) return { error: 'INVALID_CREDENTIALS' as const };
    return { proven: await noteReauthentication(services, sessionId, trx) };
  });
  if ('error' in outcome) {
    if (outcome.error === 'PASSKEY_CHALLENGE_EXPIRED') {
      await attemptNotChecked(services, reserved);
      throw expired();
    }
    throw invalid();
  }
  await secondFactorSucceeded(services, emailHash, client, reserved);
  return outcome.proven;
}

export const passkeySignIn: PasskeySignIn<PasskeysDeps> = {
  createSession,
  createChallenge,
  verifyChallenge,
  reauthenticate,
};
