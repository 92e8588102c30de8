import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure } from '../../api/api-failure';
import { config } from '../../config/config';
import { type Message, hasSessionEnded } from '../../i18n/failure-messages';
import { NO_PASSKEY_CODE, passkeyFailureMessage } from '../../i18n/passkey-messages';
import { hasPasskeyFactor } from '../../login/factors';
import { browserHasPasskeys } from '../../login/passkey-device';
import type { NextStep } from '../../login/sign-in';
import type { PendingSession } from '../../login/sign-in-storage';

export interface PasskeyFactor {
  /** The user has a passkey in this region and this browser can use one: "Use a passkey instead" is offered. */
  available: boolean;
  busy: boolean;
  /** Why the last try did not complete the sign-in. */
  problem: Message | null;
  /** Runs the ceremony; the next step of the sign-in, or null when it failed (`problem` says why). */
  prove: () => Promise<NextStep | null>;
}

/**
 * The passkey as the second factor of the pending session. The session's factors say whether the user has a
 * passkey in its region (`passkey: unverified`); each press asks the region for a fresh challenge naming the
 * user's passkeys and answers it with the ceremony's assertion. When the region answers that there is no passkey
 * (removed since), the option goes.
 */
/** Whether the user can prove the pending second factor with a passkey on this device: offered before a code. */
export const offersPasskeyFirst = (pending: PendingSession): boolean =>
  hasPasskeyFactor(pending.session.factors) && browserHasPasskeys();

export function usePasskeyFactor(
  pending: PendingSession,
  onSessionEnded: () => void,
  /** The region answered that the user has no passkey (removed since): the option goes, and a code is needed. */
  onGone: () => void = () => undefined,
): PasskeyFactor {
  const hasOne = hasPasskeyFactor(pending.session.factors);
  // Decided after the first render, so the page as first rendered is the same with and without WebAuthn.
  const [available, setAvailable] = useState(false);
  useEffect(() => setAvailable(hasOne && browserHasPasskeys()), [hasOne]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Message | null>(null);
  const ended = useRef(onSessionEnded);
  ended.current = onSessionEnded;
  const gone = useRef(onGone);
  gone.current = onGone;

  const prove = useCallback(async () => {
    setProblem(null);
    setBusy(true);
    try {
      const flow = await import('../../login/passkey-flow');
      const optionsJSON = await flow.passkeySecondFactorOptions(pending);
      return await flow.completeWithPasskey(pending, optionsJSON, config.redirectAllowList);
    } catch (error) {
      if (error instanceof ApiFailure && hasSessionEnded(error)) {
        ended.current();
        return null;
      }
      if (error instanceof ApiFailure && error.code === NO_PASSKEY_CODE) {
        setAvailable(false);
        gone.current();
      }
      setProblem(passkeyFailureMessage(error, 'secondFactor'));
      return null;
    } finally {
      setBusy(false);
    }
  }, [pending]);

  return { available, busy, problem, prove };
}
