// Enrolment: the signed-in user's passkeys in this region (options, registration, list, rename, delete), each
// change written to passkey_events and told to the user by email in their language.
import { randomUUID } from 'node:crypto';
import { generateRegistrationOptions, type RegistrationResponseJSON } from '@simplewebauthn/server';
import type { components } from '../../../../generated/core-api';
import { ApiError } from '../../errors';
import { languageForUser } from '../../messages/recipient-language';
import { passkeyAddedEmail, passkeyRemovedEmail } from '../../messages/sign-in-messages';
import { keyedHash, randomToken } from '../../security/hashing';
import { policies } from '../../security/throttle';
import type { Language } from '../../messages/languages';
import type { PasskeysDeps } from './passkeys.deps';
import type { AuthContext } from '../../shared/caller';
import { limitAddress, requireRecentProof } from '../sessions';
import { pageOf, type PageParams } from '../../shared/paging';
import { authenticatorName } from './authenticators';
import { recordSecurityEvent, type EventClient } from '../security-events';
import {
  consumeChallenges,
  countPasskeys,
  credentialsOfUser,
  deletePasskeyByRemovalToken,
  deletePasskeyRow,
  findHolderEmail,
  findOwnPasskey,
  findPasskeyHolder,
  insertChallenge,
  insertPasskey,
  insertPasskeyEvent,
  listPasskeyRows,
  lockUser,
  renamePasskey,
} from './passkeys.repository';
import {
  algorithms,
  challengeLifetimeMs,
  clientDataOf,
  maxPasskeysPerUser,
  newChallenge,
  removalLinkLifetimeMs,
  userHandle,
  verifyRegistration,
} from './webauthn';

type Passkey = components['schemas']['Passkey'];

export const passkeyView = (row: {
  id: string;
  name: string;
  aaguid: string;
  created_at: Date;
  last_used_at: Date | null;
  suspicious_at: Date | null;
}): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  authenticator: authenticatorName(row.aaguid),
  suspicious: row.suspicious_at !== null,
});

/**
 * Only a session that proved the account's own credentials (its password, with the second factor the account
 * has, or a passkey) may add a passkey: a single sign-on session answers to the organisation's identity provider,
 * and a coAlert code is shared, so neither may leave a lasting credential of the account behind.
 */
function requireOwnCredentials(auth: AuthContext): void {
  if (auth.factors.password !== 'verified' && auth.factors.passkey !== 'verified')
    throw new ApiError('FORBIDDEN', { message: 'Sign in with your password or a passkey to add a passkey' });
}

const limitReached = () =>
  new ApiError('LIMIT_REACHED', { message: `The account already has ${maxPasskeysPerUser} passkeys` });

export async function registrationOptions(services: PasskeysDeps, auth: AuthContext) {
  requireOwnCredentials(auth);
  requireRecentProof(services, auth);
  const { db, config } = services;
  const user = await findPasskeyHolder(db, auth.userId);
  if (!user) throw new ApiError('INVALID_SESSION', { message: 'The session has ended' });
  const existing = await credentialsOfUser(db, auth.userId);
  if (existing.length >= maxPasskeysPerUser) throw limitReached();
  await services.throttle.consume([`passkey:options:${auth.userId}`, policies.passkeyRegistrationPerUser]);
  const challenge = newChallenge();
  const options = await generateRegistrationOptions({
    rpName: config.webauthn.rpName,
    rpID: config.webauthn.rpId,
    userID: userHandle(config.region, auth.userId),
    userName: user.email,
    userDisplayName: user.name || user.email,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: challengeLifetimeMs,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: transportsOf(c.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: algorithms,
  });
  await insertChallenge(db, {
    challenge,
    purpose: 'registration',
    userId: auth.userId,
    expiresAt: new Date(services.now().getTime() + challengeLifetimeMs),
  });
  // Only what the contract names: the library may add members later.
  return {
    rp: { name: options.rp.name, id: options.rp.id ?? config.webauthn.rpId },
    user: { id: options.user.id, name: options.user.name, displayName: options.user.displayName },
    challenge: options.challenge,
    pubKeyCredParams: options.pubKeyCredParams.map((p) => ({ alg: p.alg, type: 'public-key' as const })),
    timeout: options.timeout ?? challengeLifetimeMs,
    excludeCredentials: (options.excludeCredentials ?? []).map((c) => ({
      id: c.id,
      type: 'public-key' as const,
      ...(c.transports?.length ? { transports: transportsOf(c.transports) } : {}),
    })),
    authenticatorSelection: {
      residentKey: 'required' as const,
      requireResidentKey: true as const,
      userVerification: 'required' as const,
    },
    attestation: 'none' as const,
    extensions: { credProps: true },
    hints: [],
  };
}

type Transport = components['schemas']['AuthenticatorTransport'];
const knownTransports = new Set<string>(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
/** Transports the contract names (an authenticator may report others; they are of no use to a browser here). */
export const transportsOf = (transports: readonly string[]): Transport[] =>
  transports.filter((t): t is Transport => knownTransports.has(t));

/** How a removal link's token is stored: a keyed hash (the database alone can neither forge nor reveal a link). */
const removalTokenHash = (services: PasskeysDeps, token: string) =>
  keyedHash(services.secretKey, `passkey-removal\0${token}`);

/** The sign-in app's page for the removal link, as the password links are built: this region, the email's language. */
function removalLink(services: PasskeysDeps, token: string, language: Language): string {
  const url = new URL(`${services.config.signInAppUrl}/remove-passkey`);
  url.searchParams.set('token', token);
  url.searchParams.set('region', services.config.region);
  url.searchParams.set('lng', language);
  return url.href;
}

const cleanName = (name: string | undefined) => name?.trim().slice(0, 64) || undefined;

/**
 * Verifies the answer to the caller's own live registration challenge (used up whatever the outcome) and stores
 * the passkey, in one transaction that also holds the user's row, so the limit of 10 holds under concurrency.
 */
export async function registerPasskey(
  services: PasskeysDeps,
  auth: AuthContext,
  input: { name?: string; credential: RegistrationResponseJSON; acceptLanguage?: string; client?: EventClient },
): Promise<Passkey> {
  requireOwnCredentials(auth);
  requireRecentProof(services, auth);
  const { config, logger } = services;
  const client = clientDataOf(input.credential);
  if (!client)
    throw new ApiError('PASSKEY_REGISTRATION_FAILED', { message: "The authenticator's answer could not be read" });
  const now = services.now();
  const outcome = await services.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, auth.userId);
    if (!user) return { error: 'INVALID_SESSION' as const };
    const [live] = await consumeChallenges(trx, {
      challenges: [client.challenge],
      purpose: 'registration',
      userId: auth.userId,
      now,
    });
    if (!live) return { error: 'PASSKEY_CHALLENGE_EXPIRED' as const };
    if ((await countPasskeys(trx, auth.userId)) >= maxPasskeysPerUser) return { error: 'LIMIT_REACHED' as const };
    if (input.credential.id !== input.credential.rawId) return { error: 'PASSKEY_REGISTRATION_FAILED' as const };
    const verified = await verifyRegistration(config.webauthn, logger, input.credential, live);
    if (!verified) return { error: 'PASSKEY_REGISTRATION_FAILED' as const };
    const id = randomUUID();
    const removalToken = randomToken(32);
    const name = cleanName(input.name) ?? authenticatorName(verified.aaguid) ?? 'Passkey';
    const inserted = await insertPasskey(trx, {
      id,
      user_id: auth.userId,
      credential_id: verified.credentialId,
      public_key: Buffer.from(verified.publicKey),
      counter: verified.counter,
      transports: verified.transports,
      aaguid: verified.aaguid,
      name,
      device_type: verified.deviceType,
      backed_up: verified.backedUp,
      removal_token_hash: removalTokenHash(services, removalToken),
      removal_expires_at: new Date(now.getTime() + removalLinkLifetimeMs),
    });
    // The same credential registered before (here or by anyone): refused, never moved.
    if (!inserted) return { error: 'PASSKEY_REGISTRATION_FAILED' as const };
    await insertPasskeyEvent(trx, { userId: auth.userId, passkeyId: id, kind: 'added', sessionId: auth.sessionId });
    if (input.client)
      await recordSecurityEvent(trx, {
        kind: 'passkey_added',
        userId: auth.userId,
        client: input.client,
        details: { passkeyName: name.slice(0, 64) },
      });
    return { passkey: (await findOwnPasskey(trx, auth.userId, id))!, user, removalToken };
  });
  if (outcome.error !== undefined) {
    if (outcome.error === 'LIMIT_REACHED') throw limitReached();
    const messages = {
      INVALID_SESSION: 'The session has ended',
      PASSKEY_CHALLENGE_EXPIRED: 'The passkey challenge has expired or was used; ask for new options',
      PASSKEY_REGISTRATION_FAILED: "The authenticator's answer could not be verified",
    };
    throw new ApiError(outcome.error, { message: messages[outcome.error] });
  }
  logger.info({ userId: auth.userId, passkeyId: outcome.passkey.id }, 'passkey added');
  await tellUser(services, auth.userId, outcome.user.email, input.acceptLanguage, (language) =>
    passkeyAddedEmail(language, {
      name: outcome.passkey.name,
      email: outcome.user.email,
      removalLink: removalLink(services, outcome.removalToken, language),
      days: removalLinkLifetimeMs / 86_400_000,
    }),
  );
  return passkeyView(outcome.passkey);
}

/** The notice of an added or removed passkey; a failure to send it is logged, the change stands. */
async function tellUser(
  services: PasskeysDeps,
  userId: number,
  to: string,
  acceptLanguage: string | undefined,
  compose: (language: Awaited<ReturnType<typeof languageForUser>>) => ReturnType<typeof passkeyAddedEmail>,
): Promise<void> {
  try {
    const language = await languageForUser(services.db, userId, acceptLanguage);
    await services.notifier.email.send({ to, ...compose(language) });
  } catch (error) {
    services.logger.error(
      { err: error instanceof Error ? error.message : String(error), userId },
      'could not send the passkey notice',
    );
  }
}

export async function listPasskeys(services: PasskeysDeps, auth: AuthContext, page: PageParams) {
  const [rows, total] = await Promise.all([
    listPasskeyRows(services.db, auth.userId, page),
    countPasskeys(services.db, auth.userId),
  ]);
  return pageOf(rows.map(passkeyView), total, page);
}

export async function updatePasskey(
  services: PasskeysDeps,
  auth: AuthContext,
  id: string,
  name: string,
): Promise<Passkey> {
  requireRecentProof(services, auth);
  const clean = cleanName(name);
  if (!clean)
    throw new ApiError('BAD_REQUEST', {
      message: 'The name must not be empty',
      issues: [{ where: 'body', path: '/name', message: 'must not be only white space' }],
    });
  const row = await renamePasskey(services.db, auth.userId, id, clean);
  if (!row) throw new ApiError('NOT_FOUND', { message: 'No such passkey' });
  return passkeyView(row);
}

export async function deletePasskey(
  services: PasskeysDeps,
  auth: AuthContext,
  id: string,
  acceptLanguage?: string,
  client?: EventClient,
): Promise<void> {
  requireRecentProof(services, auth);
  const removed = await services.db.transaction().execute(async (trx) => {
    const row = await deletePasskeyRow(trx, auth.userId, id);
    if (row) {
      await insertPasskeyEvent(trx, { userId: auth.userId, passkeyId: id, kind: 'removed', sessionId: auth.sessionId });
      if (client)
        await recordSecurityEvent(trx, {
          kind: 'passkey_removed',
          userId: auth.userId,
          client,
          details: { passkeyName: row.name.slice(0, 64) },
        });
    }
    return row;
  });
  if (!removed) throw new ApiError('NOT_FOUND', { message: 'No such passkey' });
  services.logger.info({ userId: auth.userId, passkeyId: id }, 'passkey removed');
  const user = await findHolderEmail(services.db, auth.userId);
  if (user)
    await tellUser(services, auth.userId, user.email, acceptLanguage, (language) =>
      passkeyRemovedEmail(language, { name: removed.name, email: user.email }),
    );
}

/**
 * `POST /passkeys/removal`: the link in the notice of an added passkey removes exactly that passkey, once (the
 * passkey goes with its token), while the link lives. No session: the token (256 bits, only its keyed hash stored)
 * is the proof that the mailbox's owner asks; it arrives in a POST body, so neither a link scanner's GET nor a
 * cross-site form can use a token its author does not already hold.
 */
export async function removePasskeyByLink(
  services: PasskeysDeps,
  input: { token: string; ip: string; acceptLanguage?: string; client?: EventClient },
): Promise<void> {
  await services.throttle.consume([
    `passkey:removal:${limitAddress(services, input.ip)}`,
    policies.passkeyRemovalPerAddress,
  ]);
  const now = services.now();
  const removed = await services.db.transaction().execute(async (trx) => {
    const row = await deletePasskeyByRemovalToken(trx, removalTokenHash(services, input.token), now);
    if (row) {
      await insertPasskeyEvent(trx, { userId: Number(row.user_id), passkeyId: row.id, kind: 'removed' });
      if (input.client)
        await recordSecurityEvent(trx, {
          kind: 'passkey_removed',
          userId: Number(row.user_id),
          client: input.client,
          details: { passkeyName: row.name.slice(0, 64), reason: 'removal_link' },
        });
    }
    return row;
  });
  if (!removed) throw new ApiError('NOT_FOUND', { message: 'The link is not valid, has expired or was used' });
  const userId = Number(removed.user_id);
  services.logger.info({ userId, passkeyId: removed.id }, 'passkey removed by the link of its notice');
  const user = await findHolderEmail(services.db, userId);
  if (user)
    await tellUser(services, userId, user.email, input.acceptLanguage, (language) =>
      passkeyRemovedEmail(language, { name: removed.name, email: user.email }),
    );
}
