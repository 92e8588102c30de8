import type { components } from '../../../generated/core-api';
import { call, callWithoutBody } from './call';
import { type CoreApiClient, VERSION_HEADER } from './client';
import type { PasskeyAssertion, Passkey } from './passkeys';
import type { Session } from './create-session';

/** The session the account page acts for: its id and its access token. */
export interface SessionRef {
  id: string;
  accessToken: string;
}

export type Reauthentication = components['schemas']['Reauthentication'];

const bearer = (session: SessionRef) => ({ Authorization: `Bearer ${session.accessToken}` });

/** The most passkeys an account holds (the contract's limit): one page lists them all. */
const PASSKEY_PAGE = 10;

/** The signed-in user's passkeys in this region, newest first. */
export async function listPasskeys(client: CoreApiClient, session: SessionRef): Promise<Passkey[]> {
  const { data } = await call(() =>
    client.GET('/passkeys', {
      params: { header: VERSION_HEADER, query: { limit: PASSKEY_PAGE, offset: 0 } },
      headers: bearer(session),
    }),
  );
  return data.data;
}

export async function renamePasskey(
  client: CoreApiClient,
  session: SessionRef,
  passkeyId: string,
  name: string,
): Promise<Passkey> {
  const { data } = await call(() =>
    client.PATCH('/passkeys/{passkeyId}', {
      params: { header: VERSION_HEADER, path: { passkeyId } },
      headers: bearer(session),
      body: { name },
    }),
  );
  return data;
}

export async function deletePasskey(client: CoreApiClient, session: SessionRef, passkeyId: string): Promise<void> {
  await callWithoutBody(() =>
    client.DELETE('/passkeys/{passkeyId}', {
      params: { header: VERSION_HEADER, path: { passkeyId } },
      headers: bearer(session),
    }),
  );
}

/** Proves the account's password or one of its passkeys again on this session (changing a factor needs it). */
export async function reauthenticate(
  client: CoreApiClient,
  session: SessionRef,
  proof: { password: string } | { passkey: PasskeyAssertion },
): Promise<Reauthentication> {
  const { data } = await call(() =>
    client.POST('/sessions/{id}/reauthentication', {
      params: { header: VERSION_HEADER, path: { id: session.id } },
      headers: bearer(session),
      body: proof,
    }),
  );
  return data;
}

/** New tokens for a session whose refresh token the page holds (the old refresh token stops working). */
export async function refreshSession(client: CoreApiClient, sessionId: string, refreshToken: string): Promise<Session> {
  const { data } = await call(() =>
    client.PUT('/sessions/{id}', {
      params: { header: VERSION_HEADER, path: { id: sessionId } },
      headers: { Authorization: `Bearer ${refreshToken}` },
    }),
  );
  return data;
}

/** Ends one of the caller's sessions (her own current one included). */
export async function endSession(client: CoreApiClient, session: SessionRef, sessionId: string): Promise<void> {
  await callWithoutBody(() =>
    client.DELETE('/sessions/{id}', {
      params: { header: VERSION_HEADER, path: { id: sessionId } },
      headers: bearer(session),
    }),
  );
}

export type ActiveSession = components['schemas']['ActiveSession'];

/** The most sessions the page lists (the most recently used first). */
const SESSION_PAGE = 50;

/** Her live sessions in this region, the most recently used first; hers marked `current`. */
export async function listSessions(client: CoreApiClient, session: SessionRef): Promise<ActiveSession[]> {
  const { data } = await call(() =>
    client.GET('/sessions', {
      params: { header: VERSION_HEADER, query: { limit: SESSION_PAGE, offset: 0 } },
      headers: bearer(session),
    }),
  );
  return data.data;
}

/** "Sign out everywhere else": every live session but the caller's ends; answers how many did. */
export async function endOtherSessions(client: CoreApiClient, session: SessionRef): Promise<number> {
  const { data } = await call(() =>
    client.DELETE('/sessions', {
      params: { header: VERSION_HEADER, query: { others: true } },
      headers: bearer(session),
    }),
  );
  return data.ended;
}

/** Changes her password, the current one as the proof; her other sessions end. */
export async function changePassword(
  client: CoreApiClient,
  session: SessionRef,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  await callWithoutBody(() =>
    client.POST('/users/password-change', {
      params: { header: VERSION_HEADER },
      headers: bearer(session),
      body: { currentPassword, newPassword },
    }),
  );
}

export type SecurityEvent = components['schemas']['SecurityEvent'];

/** The last events of her own account (newest first): the page shows 20. */
export async function listOwnSecurityEvents(
  client: CoreApiClient,
  session: SessionRef,
  limit = 20,
): Promise<SecurityEvent[]> {
  const { data } = await call(() =>
    client.GET('/account/security-events', {
      params: { header: VERSION_HEADER, query: { limit } },
      headers: bearer(session),
    }),
  );
  return data.data;
}
