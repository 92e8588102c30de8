import type { components } from '../../../generated/core-api';
import { ApiFailure } from './api-failure';
import { type ApiSuccess, call } from './call';
import { type CoreApiClient, VERSION_HEADER } from './client';
import type { Session } from './create-session';

export type OtpChannel = 'email' | 'sms';
export type OtpChallengeResult = components['schemas']['OtpChallengeResult'];

interface SessionRef {
  id: string;
  accessToken: string;
}

function bearer(session: SessionRef) {
  return { Authorization: `Bearer ${session.accessToken}` };
}

/** Asks the server to send a one-time code by email or SMS, written in `language` (the page's) unless the user chose one. */
export async function requestOtp(
  client: CoreApiClient,
  session: SessionRef,
  channel: OtpChannel,
  language: string,
): Promise<ApiSuccess<OtpChallengeResult>> {
  const result = await call(() =>
    client.POST('/sessions/{id}/challenges', {
      params: { header: { ...VERSION_HEADER, 'Accept-Language': language }, path: { id: session.id } },
      headers: bearer(session),
      body: channel === 'email' ? { otpEmail: true } : { otpSms: true },
    }),
  );
  if (!('sentTo' in result.data)) throw new ApiFailure('UNEXPECTED_RESPONSE', 201);
  return { data: result.data, clockOffsetMs: result.clockOffsetMs };
}

/** Answers the one-time code challenge; the verified session comes back with fresh tokens. */
export async function verifyOtp(
  client: CoreApiClient,
  session: SessionRef,
  channel: OtpChannel,
  code: string,
): Promise<Session> {
  const { data } = await call(() =>
    client.PATCH('/sessions/{id}', {
      params: { header: VERSION_HEADER, path: { id: session.id } },
      headers: bearer(session),
      body: channel === 'email' ? { otpEmail: { code } } : { otpSms: { code } },
    }),
  );
  return data;
}
