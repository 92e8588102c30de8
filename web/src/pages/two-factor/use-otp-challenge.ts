import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asFailure } from '../../api/api-failure';
import { clientFor } from '../../api/client';
import { type OtpChannel, requestOtp } from '../../api/otp-challenge';
import { toClientTime } from '../../api/server-clock';
import { useAnnounce } from '../../app/announcer';
import { type Message, hasSessionEnded, twoFactorFailureMessage } from '../../i18n/failure-messages';
import { type PendingSession, type StoredChallenge, readChallenge, storeChallenge } from '../../login/sign-in-storage';

/**
 * A refused code request whose wait is longer than this is the hourly limit (10 codes), not the short wait
 * between two codes (30 s): the server answers both with 429 and the time from which a code may be asked for.
 */
const LONGEST_RESEND_WAIT_MS = 60_000;

/** The server takes five wrong codes; then the code is dead (it answers as if the code were wrong). */
export const MAX_WRONG_TRIES = 5;

export interface OtpChallenge {
  /** The last code this tab asked for, as the server answered; null before the first answer. */
  sent: StoredChallenge | null;
  /** The channel of the last code sent (email until an SMS is asked for). */
  channel: OtpChannel;
  /** Client time from which another code may be asked for. */
  resendAt: number | null;
  /** The server refused a new code because one was sent a moment ago, to a place this tab does not know. */
  sentRecently: boolean;
  /** The hourly code limit is reached: no code was sent, and none can be asked for before this client time. */
  limitUntil: number | null;
  requesting: boolean;
  /** A request failed in a way the user should read above the form. */
  alert: Message | null;
  /** The pending session is over: no code can be sent or verified for it. */
  sessionEnded: boolean;
  /** `byUser`: a Resend press, which is announced ("A new code was sent to …"). */
  request: (channel: OtpChannel, byUser: boolean) => Promise<void>;
  /** Counts a wrong code against the current one; answers how many tries it has had. */
  countWrongTry: () => number;
}

/**
 * The one-time code of the pending session. The first is asked for by email as the page opens, unless this tab
 * already holds one that is still valid (a reload, Back, the logo): asking again would only meet the resend wait
 * (429) or replace the code the user is reading; or unless `passkeyFirst`: a user who can prove the second factor
 * with her passkey is offered that first, and a code is sent when she asks for one (docs/decisions.md). The
 * server's answer is kept for the tab.
 */
export function useOtpChallenge(pending: PendingSession, passkeyFirst = false): OtpChallenge {
  const { t, i18n } = useTranslation();
  const announce = useAnnounce();
  const [sent, setSent] = useState<StoredChallenge | null>(() => {
    const stored = readChallenge();
    return stored && stored.validUntil > Date.now() ? stored : null;
  });
  const [resendAt, setResendAt] = useState<number | null>(sent?.resendAt ?? null);
  const [sentRecently, setSentRecently] = useState(false);
  const [limitUntil, setLimitUntil] = useState<number | null>(null);
  const [requesting, setRequesting] = useState(false);
  const [alert, setAlert] = useState<Message | null>(null);
  const [sessionEnded, setSessionEnded] = useState(false);
  const latest = useRef(sent);

  const keep = useCallback((challenge: StoredChallenge | null) => {
    latest.current = challenge;
    setSent(challenge);
    storeChallenge(challenge);
  }, []);

  const request = useCallback(
    async (channel: OtpChannel, byUser: boolean) => {
      setRequesting(true);
      setAlert(null);
      try {
        const { data, clockOffsetMs } = await requestOtp(
          clientFor(pending.baseUrl),
          pending.session,
          channel,
          i18n.language,
        );
        const validUntil = toClientTime(data.validUntil, clockOffsetMs) ?? Date.now() + 10 * 60_000;
        const nextAt = toClientTime(data.resendUnavailableUntil, clockOffsetMs) ?? Date.now();
        keep({ channel, sentTo: data.sentTo, validUntil, resendAt: nextAt, wrongTries: 0 });
        setResendAt(nextAt);
        setSentRecently(false);
        setLimitUntil(null);
        announce(t(byUser ? 'twoFactor.resent' : 'twoFactor.sentTo', { destination: data.sentTo }));
      } catch (error) {
        const failure = asFailure(error);
        const until = toClientTime(failure.unavailableUntil, failure.clockOffsetMs);
        if (failure.code === 'TOO_MANY_REQUESTS' && until !== null) {
          // Not an error: a code was sent a moment ago and is still valid. The wait is shown as a countdown.
          setResendAt(until);
          if (latest.current) keep({ ...latest.current, resendAt: until });
          if (until - Date.now() > LONGEST_RESEND_WAIT_MS) setLimitUntil(until);
          else if (!latest.current) setSentRecently(true);
        } else if (hasSessionEnded(failure)) {
          setSessionEnded(true);
        } else {
          setAlert(twoFactorFailureMessage(failure));
        }
      } finally {
        setRequesting(false);
      }
    },
    [pending, keep, announce, t, i18n],
  );

  const countWrongTry = useCallback(() => {
    const current = latest.current;
    if (!current) return 0;
    keep({ ...current, wrongTries: current.wrongTries + 1 });
    return current.wrongTries + 1;
  }, [keep]);

  // Once per visit, even when React runs effects twice in development.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const expired = pending.expiresAt !== undefined && pending.expiresAt <= Date.now();
    if (!latest.current && !expired && !passkeyFirst) void request('email', false);
  }, [request, pending, passkeyFirst]);

  return {
    sent,
    channel: sent?.channel ?? 'email',
    resendAt,
    sentRecently,
    limitUntil,
    requesting,
    alert,
    sessionEnded,
    request,
    countWrongTry,
  };
}
