import { useCallback, useEffect, useRef, useState } from 'react';
import { asFailure } from '../../api/api-failure';
import { clientFor } from '../../api/client';
import { type OtpChannel, requestOtp } from '../../api/otp-challenge';
import { toClientTime } from '../../api/server-clock';
import { type Message, twoFactorFailureMessage } from '../../i18n/failure-messages';
import type { PendingSession } from '../../login/sign-in-storage';

export interface OtpChallenge {
  /** The channel of the last code sent (email until an SMS is asked for). */
  channel: OtpChannel;
  sentTo: string | null;
  /** Client time from which another code may be asked for. */
  resendAt: number | null;
  requesting: boolean;
  alert: Message | null;
  request: (channel: OtpChannel) => Promise<void>;
}

/** Sends one-time codes for the pending session; the first by email as soon as the page opens. */
export function useOtpChallenge(pending: PendingSession): OtpChallenge {
  const [channel, setChannel] = useState<OtpChannel>('email');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState<number | null>(null);
  const [requesting, setRequesting] = useState(false);
  const [alert, setAlert] = useState<Message | null>(null);

  const request = useCallback(
    async (next: OtpChannel) => {
      setRequesting(true);
      setAlert(null);
      try {
        const { data, clockOffsetMs } = await requestOtp(clientFor(pending.baseUrl), pending.session, next);
        setChannel(next);
        setSentTo(data.sentTo);
        setResendAt(toClientTime(data.resendUnavailableUntil, clockOffsetMs));
      } catch (error) {
        const failure = asFailure(error);
        setAlert(twoFactorFailureMessage(failure));
        const until = toClientTime(failure.unavailableUntil, failure.clockOffsetMs);
        if (until !== null) setResendAt(until);
      } finally {
        setRequesting(false);
      }
    },
    [pending],
  );

  // Once per visit, even when React runs effects twice in development.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void request('email');
  }, [request]);

  return { channel, sentTo, resendAt, requesting, alert, request };
}
