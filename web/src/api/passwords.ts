import type { components } from '../../../generated/core-api';
import { call, callWithoutBody } from './call';
import { type CoreApiClient, VERSION_HEADER } from './client';

export type PasswordTokenState = components['schemas']['PasswordTokenState']['state'];

/** Which emailed link: the invitation to set a first password, or the link to reset a forgotten one. */
export type PasswordLinkKind = 'set' | 'reset';

/**
 * Asks one region to email a reset link to the account with this identity hash (202 whether it exists or not),
 * written in `language` (the page's) unless the user chose one.
 */
export async function requestPasswordReset(client: CoreApiClient, emailHash: string, language: string): Promise<void> {
  await callWithoutBody(() =>
    client.POST('/users/password-reset', {
      params: { header: { ...VERSION_HEADER, 'Accept-Language': language } },
      body: { emailHash },
    }),
  );
}

/** The state of an emailed link's token in one region; the token travels in a header, never in the URL. */
export async function getPasswordTokenState(
  client: CoreApiClient,
  kind: PasswordLinkKind,
  userId: number,
  token: string,
): Promise<PasswordTokenState> {
  const params = { header: { ...VERSION_HEADER, 'cosafe-password-token': token }, path: { userId } };
  const { data } = await call(() =>
    kind === 'set'
      ? client.GET('/users/{userId}/password-set', { params })
      : client.GET('/users/{userId}/password-reset', { params }),
  );
  return data.state;
}

/** Sets the first password (invitation) or the new password (reset) with the link's token; 204 on success. */
export async function savePassword(
  client: CoreApiClient,
  kind: PasswordLinkKind,
  userId: number,
  token: string,
  password: string,
): Promise<void> {
  const params = { header: VERSION_HEADER, path: { userId } };
  await callWithoutBody(() =>
    kind === 'set'
      ? client.POST('/users/{userId}/password-set', { params, body: { token, password } })
      : client.POST('/users/{userId}/password-reset', { params, body: { token, newPassword: password } }),
  );
}
